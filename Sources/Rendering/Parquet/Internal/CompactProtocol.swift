/// A writer of the Thrift compact protocol, the encoding of Parquet's page headers and footer
/// (`thrift-compact-protocol.md` in Apache Thrift; the structs are those of `parquet.thrift`).
///
/// A struct is a sequence of fields, each a header (the field id as a delta from the
/// previous field's when it is 1...15, else the type alone and the id as a zigzag varint)
/// and a value, ended by a stop byte (0). Integers are zigzag varints, binary values a
/// varint length and the bytes, booleans in a field are the field's type (1 true, 2 false).
///
/// ```swift
/// var thrift = CompactWriter()
/// thrift.beginStruct()
/// thrift.field(1, i32: 7)      // 0x15 0x0E
/// thrift.field(4, string: "a") // 0x38 0x01 0x61
/// thrift.endStruct()           // 0x00
/// ```
struct CompactWriter {
  /// The compact protocol's type nibbles.
  enum FieldType: UInt8 {
    case booleanTrue = 1, booleanFalse = 2, byte = 3, i16 = 4, i32 = 5, i64 = 6, double = 7, binary = 8
    case list = 9, set = 10, map = 11, structure = 12
  }

  private(set) var bytes: [UInt8] = []
  /// The last field id of each open struct, innermost last.
  private var lastFieldIDs: [Int16] = []

  init() {}

  // MARK: Structs and fields

  mutating func beginStruct() { lastFieldIDs.append(0) }

  mutating func endStruct() {
    bytes.append(0)
    lastFieldIDs.removeLast()
  }

  /// A field header: `(delta << 4) | type` for a delta of 1...15, else the type and the id.
  mutating func fieldHeader(_ id: Int16, _ type: FieldType) {
    precondition(!lastFieldIDs.isEmpty, "a field outside a struct")
    let delta = Int(id) - Int(lastFieldIDs[lastFieldIDs.count - 1])
    if delta > 0 && delta <= 15 {
      bytes.append(UInt8(delta) << 4 | type.rawValue)
    } else {
      bytes.append(type.rawValue)
      appendVarint(Self.zigzag(Int64(id)))
    }
    lastFieldIDs[lastFieldIDs.count - 1] = id
  }

  mutating func field(_ id: Int16, i32 value: Int32) {
    fieldHeader(id, .i32)
    appendVarint(Self.zigzag(Int64(value)))
  }

  mutating func field(_ id: Int16, i64 value: Int64) {
    fieldHeader(id, .i64)
    appendVarint(Self.zigzag(value))
  }

  mutating func field(_ id: Int16, i16 value: Int16) {
    fieldHeader(id, .i16)
    appendVarint(Self.zigzag(Int64(value)))
  }

  mutating func field(_ id: Int16, bool value: Bool) { fieldHeader(id, value ? .booleanTrue : .booleanFalse) }

  mutating func field(_ id: Int16, string value: String) {
    fieldHeader(id, .binary)
    appendBinary(Array(value.utf8))
  }

  /// A struct field: its header, then `body` writes the struct's fields (it is closed after).
  mutating func field(_ id: Int16, struct body: (inout CompactWriter) -> Void) {
    fieldHeader(id, .structure)
    beginStruct()
    body(&self)
    endStruct()
  }

  /// A list field: its header and the list header; `body` writes the `count` elements.
  mutating func field(_ id: Int16, list type: FieldType, count: Int, _ body: (inout CompactWriter) -> Void) {
    fieldHeader(id, .list)
    listHeader(type, count: count)
    body(&self)
  }

  // MARK: Values

  /// `(count << 4) | type` for fewer than 15 elements, else `0xF0 | type` and the count as a varint.
  mutating func listHeader(_ type: FieldType, count: Int) {
    if count < 15 {
      bytes.append(UInt8(count) << 4 | type.rawValue)
    } else {
      bytes.append(0xF0 | type.rawValue)
      appendVarint(UInt64(count))
    }
  }

  /// An element of a list of i32 (or of an enum).
  mutating func i32(_ value: Int32) { appendVarint(Self.zigzag(Int64(value))) }

  /// An element of a list of strings.
  mutating func string(_ value: String) { appendBinary(Array(value.utf8)) }

  /// An element of a list of structs: `body` writes its fields.
  mutating func element(struct body: (inout CompactWriter) -> Void) {
    beginStruct()
    body(&self)
    endStruct()
  }

  private mutating func appendBinary(_ value: [UInt8]) {
    appendVarint(UInt64(value.count))
    bytes.append(contentsOf: value)
  }

  mutating func appendVarint(_ value: UInt64) { Self.appendVarint(value, to: &bytes) }

  /// ULEB128: 7 bits a byte, least significant first, the high bit set on every byte but the last.
  static func appendVarint(_ value: UInt64, to out: inout [UInt8]) {
    var value = value
    while value >= 0x80 {
      out.append(UInt8(truncatingIfNeeded: value) | 0x80)
      value >>= 7
    }
    out.append(UInt8(value))
  }

  /// ZigZag: 0, -1, 1, -2, 2 ... become 0, 1, 2, 3, 4 ...
  static func zigzag(_ value: Int64) -> UInt64 { UInt64(bitPattern: (value << 1) ^ (value >> 63)) }
}
