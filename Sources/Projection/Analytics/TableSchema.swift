import Journal

extension Column.Kind {
  /// The type DuckDB reads the column as (`read_ndjson(..., columns = {...})`).
  public var duckDBType: String {
    switch self {
    case .string: "VARCHAR"
    case .integer: "BIGINT"
    case .number: "DOUBLE"
    case .boolean: "BOOLEAN"
    case .timestamp: "TIMESTAMPTZ"
    case .json: "JSON"
    case .list: "VARCHAR[]"
    }
  }

  /// The Spark SQL type, as written in a DDL schema (`spark.read.schema("session string, ...")`).
  /// A JSON object is read as its text (Spark's JSON reader keeps the raw text of an object in a
  /// string column); `from_json` takes it apart.
  public var sparkType: String {
    switch self {
    case .string, .json: "string"
    case .integer: "bigint"
    case .number: "double"
    case .boolean: "boolean"
    case .timestamp: "timestamp"
    case .list: "array<string>"
    }
  }

  /// The BigQuery (GoogleSQL) type.
  public var bigQueryType: String {
    switch self {
    case .string: "STRING"
    case .integer: "INT64"
    case .number: "FLOAT64"
    case .boolean: "BOOL"
    case .timestamp: "TIMESTAMP"
    case .json: "JSON"
    case .list: "ARRAY<STRING>"
    }
  }
}

extension Table {
  /// The table's columns as one JSON document, for engines that read with an
  /// explicit schema (`export --schema TABLE`):
  ///
  /// ```
  /// {"table":"visits","columns":[
  /// {"name":"session","type":"string","nullable":true,"duckdb":"VARCHAR","spark":"string","bigquery":"STRING"},
  /// ...
  /// ]}
  /// ```
  ///
  /// One column a line, in the table's column order; `type` is the project's
  /// own (``Column/Kind``), the others are what each engine reads it as.
  public var schemaJSON: String {
    var json = JSONBuffer()
    json.open("{")
    json.key("table")
    json.string(rawValue)
    json.key("columns")
    json.open("[")
    for column in columns {
      json.element()
      json.raw("\n")
      json.open("{")
      json.key("name")
      json.string(column.name)
      json.key("type")
      json.string(column.kind.rawValue)
      json.key("nullable")
      json.bool(column.nullable)
      json.key("duckdb")
      json.string(column.kind.duckDBType)
      json.key("spark")
      json.string(column.kind.sparkType)
      json.key("bigquery")
      json.string(column.kind.bigQueryType)
      json.close("}")
    }
    json.raw("\n")
    json.close("]")
    json.close("}")
    return json.text + "\n"
  }
}
