/// The value of one key of an event, as the codec writes it: the encoder asks
/// the event for the value of each key of its type (``Event/value(of:)``), in
/// the type's order (``Event/Kind/keyOrder``).
enum WireValue {
  /// A string, written escaped.
  case string(String)
  /// An enumeration's raw value: ASCII that needs no escaping.
  case word(String)
  case int(Int)
  /// A finite number, written as ECMAScript writes it.
  case number(Double)
  case bool(Bool)

  /// Appends the value's JSON text.
  func append(to out: inout [UInt8]) {
    switch self {
    case .string(let text), .word(let text): JSONWriter.appendString(text, to: &out)
    case .int(let value): JSONWriter.appendInt(value, to: &out)
    case .number(let value): JSONWriter.appendNumber(value, to: &out)
    case .bool(let value): out.append(contentsOf: (value ? "true" : "false").utf8)
    }
  }
}
