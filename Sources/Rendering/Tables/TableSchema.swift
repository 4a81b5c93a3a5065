import Journal
import Projection

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
    json.object { json in
      json.member("table", rawValue)
      json.array("columns") { json in
        for column in columns {
          json.element()
          json.raw("\n")
          json.object { json in
            json.member("name", column.name)
            json.member("type", column.kind.rawValue)
            json.member("nullable", column.nullable)
            json.member("duckdb", column.kind.duckDBType)
            json.member("spark", column.kind.sparkType)
            json.member("bigquery", column.kind.bigQueryType)
          }
        }
        json.raw("\n")
      }
    }
    return json.text + "\n"
  }
}
