/// The decoder's error messages, in one voice: short, lowercase, saying what
/// was expected and what was found.
///
/// Implementation note: every constructor is `@inline(never)` so that building
/// a message (string interpolation, allocation) never weighs on the hot path
/// that only throws them.
extension DecodeError {
  static let malformedRule = FormatRule.malformed
  static let framingRule = FormatRule.framing

  @inline(never)
  static func malformed(_ offset: Int, _ message: String) -> DecodeError {
    DecodeError(rule: malformedRule, offset: offset, message: message)
  }

  @inline(never)
  static func framing(_ offset: Int, _ message: String) -> DecodeError {
    DecodeError(rule: framingRule, offset: offset, message: message)
  }

  /// `invalid UTF-8 byte 0xff`, at the first byte of the ill-formed sequence.
  @inline(never)
  static func invalidUTF8(_ offset: Int, _ byte: UInt8) -> DecodeError {
    framing(offset, "invalid UTF-8 byte \(hexByte(byte))")
  }

  /// `nesting deeper than the limit of 64`, at the bracket that goes too deep.
  @inline(never)
  static func tooDeep(_ offset: Int, limit: Int) -> DecodeError {
    framing(offset, "nesting deeper than the limit of \(limit)")
  }

  /// `line is longer than the limit of 1048576 bytes`, at the first byte past the limit.
  @inline(never)
  static func tooLong(limit: Int) -> DecodeError {
    framing(limit, "line is longer than the limit of \(limit) bytes")
  }

  /// `duplicate key "seq"`, at the key's opening quote.
  @inline(never)
  static func duplicateKey(_ offset: Int, _ key: [UInt8]) -> DecodeError {
    malformed(offset, "duplicate key \"\(displayText(String(decoding: key, as: UTF8.self), limit: 20))\"")
  }

  /// `missing key "type"` or `missing key "controller" for type "alloc"`, at the object's closing brace.
  @inline(never)
  static func missingKey(_ offset: Int, _ key: JournalKey, type: Event.Kind? = nil) -> DecodeError {
    if let type { return malformed(offset, "missing key \"\(key.name)\" for type \"\(type.rawValue)\"") }
    return malformed(offset, "missing key \"\(key.name)\"")
  }

  /// `expected a string for "controller", found 17`, at the value.
  @inline(never)
  static func expected(_ what: String, for key: JournalKey, found: String, at offset: Int) -> DecodeError {
    malformed(offset, "expected \(what) for \"\(key.name)\", found \(found)")
  }

  /// `"direction" must be one of left, right, up, down; found "north"`, at the value.
  @inline(never)
  static func notOneOf(_ allowed: [String], for key: JournalKey, found: String, at offset: Int) -> DecodeError {
    malformed(offset, "\"\(key.name)\" must be one of \(allowed.joined(separator: ", ")); found \(found)")
  }
}
