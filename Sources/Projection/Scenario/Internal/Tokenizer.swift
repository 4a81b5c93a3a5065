/// One token of a script line: a positional argument or a `key=value` option.
struct Token: Sendable {
  /// For a positional argument: its text; for an option: the value.
  private var word: String
  /// For an option (an `=` before any quote): the key (the value is ``word``).
  private var key: String?
  /// Whether any part of it was in quotes.
  var quoted: Bool

  init(text: String, quoted: Bool) {
    word = text
    key = nil
    self.quoted = quoted
  }

  init(key: String, value: String, quoted: Bool) {
    word = value
    self.key = key
    self.quoted = quoted
  }

  /// The token's text with quotes and escapes resolved (an option's `key=value`).
  var text: String {
    guard let key else { return word }
    return key + "=" + word
  }

  /// For an option: the key and the value.
  var option: (key: String, value: String)? {
    guard let key else { return nil }
    return (key, word)
  }
}

/// Splits script lines into tokens (spec "Scenario scripts", details).
enum Tokenizer {
  /// Tokens of one line (without its line end) into `tokens`, emptied first (the caller
  /// reuses the array line after line). `#` outside quotes starts a comment.
  ///
  /// - Throws: an unterminated quote, an unknown escape or a control character.
  static func tokens(_ line: ArraySlice<UInt8>, into tokens: inout [Token]) throws(TokenError) {
    tokens.removeAll(keepingCapacity: true)
    try line.withUnsafeBufferPointer { (line) throws(TokenError) in try self.tokens(line, into: &tokens) }
  }

  /// Implementation note: read through a buffer pointer, the line's bytes are
  /// loaded without the slice's bounds checks (a script of a million events
  /// spent a fifth of its parsing here). A token without quotes (most are)
  /// becomes its strings straight from the line's bytes; a quoted one is
  /// resolved into a buffer first.
  private static func tokens(_ line: UnsafeBufferPointer<UInt8>, into tokens: inout [Token]) throws(TokenError) {
    // One buffer for every quoted token of the line (a token's text is copied out of it).
    var bytes: [UInt8] = []
    var i = line.startIndex
    let end = line.endIndex
    func isSeparator(_ c: UInt8) -> Bool { c == UInt8(ascii: " ") || c == UInt8(ascii: "\t") }
    func string(_ from: Int, _ to: Int) -> String {
      String(decoding: UnsafeBufferPointer(rebasing: line[from..<to]), as: UTF8.self)
    }
    while i < end {
      while i < end, isSeparator(line[i]) { i += 1 }
      guard i < end, line[i] != UInt8(ascii: "#") else { break }
      let start = i
      var equals: Int? = nil
      // The bytes as they are, up to the token's end or its first quote.
      plain: while i < end {
        let c = line[i]
        switch c {
        case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "#"), UInt8(ascii: "\""):
          break plain
        default:
          if c < 0x20 || c == 0x7F {
            throw TokenError(.controlCharacter(c))
          }
          if c == UInt8(ascii: "="), equals == nil { equals = i }
          i += 1
        }
      }
      guard i < end, line[i] == UInt8(ascii: "\"") else {
        if let equals {
          tokens.append(Token(key: string(start, equals), value: string(equals + 1, i), quoted: false))
        } else {
          tokens.append(Token(text: string(start, i), quoted: false))
        }
        continue
      }
      // A quote: the token is resolved into `bytes`, from its start.
      bytes.removeAll(keepingCapacity: true)
      bytes.reserveCapacity(end - start)
      bytes.append(contentsOf: UnsafeBufferPointer(rebasing: line[start..<i]))
      // An `=` after a quote is part of the text: an option's key has no quotes.
      let keyEnd = equals.map { $0 - start }
      scan: while i < end {
        let c = line[i]
        switch c {
        case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "#"):
          break scan
        case UInt8(ascii: "\""):
          i += 1
          while true {
            guard i < end else { throw TokenError(.unterminatedQuote) }
            let q = line[i]
            if q == UInt8(ascii: "\"") {
              i += 1
              break
            }
            if q == UInt8(ascii: "\\") {
              guard i + 1 < end, line[i + 1] == UInt8(ascii: "\"") || line[i + 1] == UInt8(ascii: "\\") else {
                let next =
                  i + 1 < end && line[i + 1] > 0x20 && line[i + 1] < 0x7F ? Character(UnicodeScalar(line[i + 1])) : nil
                throw TokenError(.unknownEscape(next))
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
            throw TokenError(.controlCharacter(c))
          }
          bytes.append(c)
          i += 1
        }
      }
      if let equals = keyEnd {
        tokens.append(
          Token(
            key: String(decoding: bytes[..<equals], as: UTF8.self),
            value: String(decoding: bytes[(equals + 1)...], as: UTF8.self), quoted: true))
      } else {
        tokens.append(Token(text: String(decoding: bytes, as: UTF8.self), quoted: true))
      }
    }
  }
}

/// Why the tokenizer or the parser refused a line (the parser adds the script and line).
struct TokenError: Error {
  var reason: ScenarioError.Reason
  init(_ reason: ScenarioError.Reason) { self.reason = reason }
}
