/// One token of a script line: a positional argument or a `key=value` option.
struct Token: Sendable {
  /// The token's text with quotes and escapes resolved.
  var text: String
  /// For an option (an `=` before any quote): the key and the value.
  var option: (key: String, value: String)?
  /// Whether any part of it was in quotes.
  var quoted: Bool
}

/// Splits script lines into tokens (spec "Scenario scripts", details).
enum Tokenizer {
  /// Tokens of one line (without its line end). `#` outside quotes starts a comment.
  ///
  /// - Throws: a message for an unterminated quote, an unknown escape or a control character.
  static func tokens(_ line: ArraySlice<UInt8>) throws(TokenError) -> [Token] {
    try line.withUnsafeBufferPointer { (line) throws(TokenError) in try tokens(line) }
  }

  /// Implementation note: read through a buffer pointer, the line's bytes are
  /// loaded without the slice's bounds checks (a script of a million events
  /// spent a fifth of its parsing here).
  private static func tokens(_ line: UnsafeBufferPointer<UInt8>) throws(TokenError) -> [Token] {
    var tokens: [Token] = []
    // One buffer for every token of the line (a token's text is copied out of it).
    var bytes: [UInt8] = []
    var i = line.startIndex
    let end = line.endIndex
    func isSeparator(_ c: UInt8) -> Bool { c == UInt8(ascii: " ") || c == UInt8(ascii: "\t") }
    while i < end {
      while i < end, isSeparator(line[i]) { i += 1 }
      guard i < end, line[i] != UInt8(ascii: "#") else { break }
      bytes.removeAll(keepingCapacity: true)
      var quoted = false
      var equals: Int? = nil
      scan: while i < end {
        let c = line[i]
        switch c {
        case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "#"):
          break scan
        case UInt8(ascii: "\""):
          quoted = true
          i += 1
          while true {
            guard i < end else { throw TokenError("unterminated quote") }
            let q = line[i]
            if q == UInt8(ascii: "\"") {
              i += 1
              break
            }
            if q == UInt8(ascii: "\\") {
              guard i + 1 < end, line[i + 1] == UInt8(ascii: "\"") || line[i + 1] == UInt8(ascii: "\\") else {
                let next =
                  i + 1 < end && line[i + 1] > 0x20 && line[i + 1] < 0x7F ? String(UnicodeScalar(line[i + 1])) : ""
                throw TokenError("unknown escape '\\\(next)' in quotes (only \\\" and \\\\ are escapes)")
              }
              bytes.append(line[i + 1])
              i += 2
              continue
            }
            bytes.append(q)
            i += 1
          }
        default:
          if c < 0x20 || c == 0x7F {
            throw TokenError("control character U+\(hex4(c)) outside quotes")
          }
          if c == UInt8(ascii: "="), !quoted, equals == nil { equals = bytes.count }
          bytes.append(c)
          i += 1
        }
      }
      let text = String(decoding: bytes, as: UTF8.self)
      var option: (key: String, value: String)? = nil
      if let equals {
        option = (
          String(decoding: bytes[..<equals], as: UTF8.self), String(decoding: bytes[(equals + 1)...], as: UTF8.self)
        )
      }
      tokens.append(Token(text: text, option: option, quoted: quoted))
    }
    return tokens
  }

  private static func hex4(_ c: UInt8) -> String {
    let digits = Array("0123456789ABCDEF")
    return "00" + String(digits[Int(c >> 4)]) + String(digits[Int(c & 15)])
  }
}

/// A tokenizer error message (the parser adds the script and line).
struct TokenError: Error {
  var message: String
  init(_ message: String) { self.message = message }
}
