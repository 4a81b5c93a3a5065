import Journal

/// Builds one JSON value into bytes with the journal writer's escaping,
/// putting the commas between members and elements itself.
struct JSONBuffer {
  private(set) var bytes: [UInt8] = []
  /// Whether the innermost open object or array has a member yet.
  private var hasMember: [Bool] = []

  /// Opens `{` or `[`.
  mutating func open(_ bracket: Character) {
    bytes.append(bracket == "{" ? UInt8(ascii: "{") : UInt8(ascii: "["))
    hasMember.append(false)
  }

  /// Closes `}` or `]`.
  mutating func close(_ bracket: Character) {
    bytes.append(bracket == "}" ? UInt8(ascii: "}") : UInt8(ascii: "]"))
    hasMember.removeLast()
  }

  /// Starts an array element (a comma before every element but the first).
  mutating func element() {
    if hasMember[hasMember.count - 1] { bytes.append(UInt8(ascii: ",")) }
    hasMember[hasMember.count - 1] = true
  }

  /// Starts an object member: `"key":`.
  mutating func key(_ key: String) {
    element()
    JSONWriter.appendString(key, to: &bytes)
    bytes.append(UInt8(ascii: ":"))
  }

  mutating func string(_ value: String?) {
    guard let value else { return null() }
    JSONWriter.appendString(value, to: &bytes)
  }

  mutating func int(_ value: Int?) {
    guard let value else { return null() }
    JSONWriter.appendInt(value, to: &bytes)
  }

  mutating func bool(_ value: Bool) {
    bytes.append(contentsOf: value ? Array("true".utf8) : Array("false".utf8))
  }

  mutating func null() {
    bytes.append(contentsOf: Array("null".utf8))
  }

  /// Writes the bytes built so far to `out` and empties the buffer.
  mutating func flush(to out: inout some TextOutputStream) {
    out.write(String(decoding: bytes, as: UTF8.self))
    bytes.removeAll(keepingCapacity: true)
  }
}
