/// What error messages show of a line: a value's text, the character or word found where something else was due.
extension JSONScanner {
  /// The JSON text of a value, verbatim.
  func text(_ ref: JSONValueRef) -> String {
    String(decoding: UnsafeBufferPointer(start: base + ref.start, count: ref.end - ref.start), as: UTF8.self)
  }

  /// A value as error messages show it: its JSON text cut to 20 characters, or `an object` / `an array`.
  @inline(never)
  func found(_ ref: JSONValueRef) -> String {
    switch ref.kind {
    case .object: "an object"
    case .array: "an array"
    default: displayText(text(ref), limit: 20)
    }
  }

  /// The error for an unexpected byte (or the end of the line) where `expectation` was due.
  @inline(never)
  func unexpected(_ expectation: String, inside container: JSONContainer) -> DecodeError {
    guard index < count else { return .malformed(count, "unexpected end of line inside \(container.phrase)") }
    if let error = invalidUTF8(at: index) { return error }
    return .malformed(index, "\(expectation), found '\(characterText(at: index))'")
  }

  /// The error for something at `index` that cannot start a value.
  @inline(never)
  func expectedValue(inside container: JSONContainer) -> DecodeError {
    guard index < count else { return .malformed(count, "unexpected end of line inside \(container.phrase)") }
    if let error = invalidUTF8(at: index) { return error }
    if isWordByte(base[index]) { return .malformed(index, "expected a value, found '\(wordText(at: index))'") }
    return .malformed(index, "expected a value, found '\(characterText(at: index))'")
  }

  /// The error for a line that does not start with an object.
  @inline(never)
  func notAnObject() -> DecodeError {
    guard index < count else { return .malformed(index, "expected a JSON object, found the end of the line") }
    if let error = invalidUTF8(at: index) { return error }
    let found: String
    switch base[index] {
    case UInt8(ascii: "["): found = "an array"
    case Self.quote: found = "a string"
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): found = "a number"
    case let c where isWordByte(c):
      let word = wordText(at: index)
      found = word == "true" || word == "false" || word == "null" ? word : "'\(word)'"
    default: found = "'\(characterText(at: index))'"
    }
    return .malformed(index, "expected a JSON object, found \(found)")
  }

  /// The character at `k` (valid UTF-8 there), made safe to show.
  func characterText(at k: Int) -> String {
    let length = base[k] < 0x80 ? 1 : max(1, utf8SequenceLength(at: k))
    return displayText(String(decoding: UnsafeBufferPointer(start: base + k, count: length), as: UTF8.self))
  }

  /// The run of letters and digits at `k`, cut to 20 characters.
  func wordText(at k: Int) -> String {
    var end = k
    while end < count, isWordByte(base[end]) { end += 1 }
    return displayText(String(decoding: UnsafeBufferPointer(start: base + k, count: end - k), as: UTF8.self), limit: 20)
  }
}
