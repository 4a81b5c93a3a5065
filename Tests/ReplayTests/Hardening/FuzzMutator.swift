/// One way the fuzzer damages a journal (or a single line).
enum Mutation: String, CaseIterable, Sendable, CustomStringConvertible {
  /// Flips 1 to 8 random bits.
  case bitFlip
  /// Cuts the input at a random byte.
  case truncate
  /// Inserts 1 to 16 random bytes.
  case insertBytes
  /// Removes up to 32 bytes.
  case deleteBytes
  /// Swaps two lines (seq and time out of order).
  case swapLines
  /// Repeats a line (a seq repeat).
  case duplicateLine
  /// Drops a line (a seq gap).
  case deleteLine
  /// Replaces a number with 1e400, 99999999999999999999999, -0, 1e-400, ...
  case hugeNumber
  /// Inserts a key whose value nests 63 to 10,000 arrays or objects deep (sometimes unbalanced).
  case deepNesting
  /// Inserts bytes that are not UTF-8 (continuation bytes, overlong, surrogates, > U+10FFFF).
  case invalidUTF8
  /// Inserts `\uD800`-style escapes without their pair into a string.
  case loneSurrogate
  /// Inserts a raw NUL byte, or a `\u0000` escape in a string.
  case nulByte
  /// Inserts `\r`, or turns a line end into `\r\n`.
  case carriageReturn
  /// Inserts a UTF-8 byte order mark at the start or at the start of a line.
  case byteOrderMark
  /// Repeats a key of an object.
  case duplicateKey
  /// Inserts a very long run of characters into a string (up to past the 1 MiB line limit).
  case longString
  /// Replaces a string value by one from another line (ids, directions, types cross over).
  case swapValues
  /// Replaces a number by a small or edge integer (0, -1, 2^31, 2^63 - 1, ...).
  case smallNumber
  /// Inserts a JSON structural character (`{ } [ ] , : "`).
  case structural
  /// Inserts a terminal escape, a bidi override or a zero-width character into a string.
  case hostileText

  var description: String { rawValue }
}

/// A seeded mutation fuzzer over journal bytes: the same seed always gives the same inputs.
///
/// ```swift
/// var random = FuzzRandom(seed: 1)
/// let (bytes, applied) = FuzzMutator.mutate(journal, using: &random)
/// ```
enum FuzzMutator {
  /// Applies one to three random mutations.
  /// - Parameter allowHuge: whether a mutation may make the input longer than the 1 MiB line limit.
  static func mutate(
    _ input: [UInt8], using random: inout FuzzRandom, allowHuge: Bool = true
  ) -> (bytes: [UInt8], mutations: [Mutation]) {
    var bytes = input
    var applied: [Mutation] = []
    for _ in 0..<(1 + random.below(3)) {
      let mutation = random.pick(Mutation.allCases)
      apply(mutation, to: &bytes, using: &random, allowHuge: allowHuge)
      applied.append(mutation)
    }
    return (bytes, applied)
  }

  /// Applies one mutation.
  static func apply(_ mutation: Mutation, to bytes: inout [UInt8], using random: inout FuzzRandom, allowHuge: Bool) {
    switch mutation {
    case .bitFlip:
      guard !bytes.isEmpty else { return }
      for _ in 0..<(1 + random.below(8)) { bytes[random.below(bytes.count)] ^= UInt8(1 << random.below(8)) }
    case .truncate:
      bytes.removeLast(bytes.isEmpty ? 0 : 1 + random.below(bytes.count))
    case .insertBytes:
      let inserted = (0..<(1 + random.below(16))).map { _ in UInt8(truncatingIfNeeded: random.next()) }
      bytes.insert(contentsOf: inserted, at: random.below(bytes.count + 1))
    case .deleteBytes:
      guard !bytes.isEmpty else { return }
      let start = random.below(bytes.count)
      bytes.removeSubrange(start..<min(bytes.count, start + 1 + random.below(32)))
    case .swapLines:
      var lines = splitLines(bytes)
      guard lines.count >= 2 else { return }
      lines.swapAt(random.below(lines.count), random.below(lines.count))
      bytes = joinLines(lines)
    case .duplicateLine:
      var lines = splitLines(bytes)
      guard !lines.isEmpty else { return }
      let i = random.below(lines.count)
      lines.insert(lines[i], at: i + random.below(2))
      bytes = joinLines(lines)
    case .deleteLine:
      var lines = splitLines(bytes)
      guard !lines.isEmpty else { return }
      lines.remove(at: random.below(lines.count))
      bytes = joinLines(lines)
    case .hugeNumber:
      replaceNumber(in: &bytes, with: random.pick(hugeNumbers), using: &random)
    case .smallNumber:
      replaceNumber(in: &bytes, with: random.pick(edgeIntegers), using: &random)
    case .deepNesting:
      let depth = random.pick([63, 64, 65, 100, 1_000, 10_000])
      let open: [UInt8] = random.percent(50) ? Array("[".utf8) : Array(#"{"a":"#.utf8)
      let close: [UInt8] = open[0] == UInt8(ascii: "[") ? Array("]".utf8) : Array("}".utf8)
      var value: [UInt8] = Array(#""deep":"#.utf8)
      for _ in 0..<depth { value += open }
      value += Array("0".utf8)
      if !random.percent(10) { for _ in 0..<depth { value += close } }
      value.append(UInt8(ascii: ","))
      insert(value, afterOneOf: [UInt8(ascii: "{")], in: &bytes, using: &random)
    case .invalidUTF8:
      insertInString(random.pick(invalidUTF8), in: &bytes, using: &random)
    case .loneSurrogate:
      insertInString(Array(random.pick(loneSurrogates).utf8), in: &bytes, using: &random)
    case .nulByte:
      if random.percent(50) {
        bytes.insert(0, at: random.below(bytes.count + 1))
      } else {
        insertInString(Array(#"\u0000"#.utf8), in: &bytes, using: &random)
      }
    case .carriageReturn:
      let newlines = bytes.indices.filter { bytes[$0] == 0x0A }
      if let at = newlines.isEmpty || random.percent(30) ? nil : random.pick(newlines) {
        bytes.insert(0x0D, at: at)
      } else {
        bytes.insert(0x0D, at: random.below(bytes.count + 1))
      }
    case .byteOrderMark:
      let starts = [0] + bytes.indices.filter { bytes[$0] == 0x0A }.map { $0 + 1 }
      bytes.insert(contentsOf: [0xEF, 0xBB, 0xBF], at: random.percent(50) ? 0 : random.pick(starts))
    case .duplicateKey:
      duplicateKey(in: &bytes, using: &random)
    case .longString:
      var length = random.pick([200, 256, 257, 4_096, 70_000])
      if allowHuge && random.percent(3) { length = (1 << 20) + 1 }
      let text = random.pick(["A", "é", "\u{1F600}", "\\n"])
      insertInString(Array(String(repeating: text, count: length / text.utf8.count).utf8), in: &bytes, using: &random)
    case .swapValues:
      swapStringValue(in: &bytes, using: &random)
    case .structural:
      bytes.insert(random.pick(Array(#"{}[],:""#.utf8)), at: random.below(bytes.count + 1))
    case .hostileText:
      insertInString(Array(random.pick(hostileTexts).utf8), in: &bytes, using: &random)
    }
  }

  static let hugeNumbers = [
    "1e400", "-1e400", "99999999999999999999999", "-0", "1e-400", "1E+999999999999999999", "0.0000000000000000000001",
    "9223372036854775808", "-9223372036854775809", "1.7976931348623157e309", "4.9e-325", "-0.0",
    "123456789012345678901234567890.5",
  ]
  static let edgeIntegers = [
    "0", "-1", "1", "2", "-0", "2147483648", "9223372036854775807", "-9223372036854775808", "4294967296", "63", "64",
    "65",
  ]
  static let invalidUTF8: [[UInt8]] = [
    [0x80], [0xBF], [0xC0, 0xAF], [0xC1, 0xBF], [0xE0, 0x80, 0xAF], [0xED, 0xA0, 0x80], [0xED, 0xBF, 0xBF],
    [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80], [0xFF], [0xFE], [0xE2, 0x82], [0xF0, 0x9F, 0x98],
    [0xC3],
  ]
  static let loneSurrogates = [
    #"\uD800"#, #"\uDC00"#, #"\uDBFF"#, #"\uDFFF"#, #"\uD83D\u0041"#, #"\uD800\uD800"#, #"\uDC00\uD800"#, #"\uD83D"#,
    #"\ud83d\ude00"#, #"\uD83D\uDE0"#,
  ]
  static let hostileTexts = [
    #"\u001b[2J"#, #"\u001b]52;c;ZXZpbA==\u0007"#, #"\u0007"#, "\u{202E}", "\u{200B}", "\u{85}", "\u{9B}31m",
    #"\u001b[31mred"#, "\u{2028}", "\u{FEFF}", "\u{2066}", #"\t\r\n"#, #"\u007f"#,
  ]

  /// The lines of `bytes` without their `\n`; a final line without `\n` is kept (marked by `terminated`).
  static func splitLines(_ bytes: [UInt8]) -> [[UInt8]] {
    var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map { Array($0) }
    if lines.last == [] { lines.removeLast() }
    return lines
  }

  static func joinLines(_ lines: [[UInt8]]) -> [UInt8] {
    var out: [UInt8] = []
    for line in lines {
      out += line
      out.append(0x0A)
    }
    return out
  }

  /// Replaces a random number token (digits after `:`, `[` or `,`) with `text`,
  /// or inserts a key with that value when there is none.
  private static func replaceNumber(in bytes: inout [UInt8], with text: String, using random: inout FuzzRandom) {
    var starts: [Int] = []
    for i in 1..<max(bytes.count, 1) where isNumberByte(bytes[i]) && !isNumberByte(bytes[i - 1]) {
      let before = bytes[i - 1]
      if before == UInt8(ascii: ":") || before == UInt8(ascii: ",") || before == UInt8(ascii: "[") { starts.append(i) }
    }
    guard let start = starts.isEmpty ? nil : random.pick(starts) else {
      insert(Array(#""n":\#(text),"#.utf8), afterOneOf: [UInt8(ascii: "{")], in: &bytes, using: &random)
      return
    }
    var end = start
    while end < bytes.count && isNumberByte(bytes[end]) { end += 1 }
    bytes.replaceSubrange(start..<end, with: Array(text.utf8))
  }

  private static func isNumberByte(_ byte: UInt8) -> Bool {
    (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
      || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") || byte == UInt8(ascii: "+")
  }

  /// Inserts `value` right after a random occurrence of one of `anchors`, or at a random place.
  private static func insert(
    _ value: [UInt8], afterOneOf anchors: Set<UInt8>, in bytes: inout [UInt8], using random: inout FuzzRandom
  ) {
    let positions = bytes.indices.filter { anchors.contains(bytes[$0]) }
    let at = positions.isEmpty ? random.below(bytes.count + 1) : random.pick(positions) + 1
    bytes.insert(contentsOf: value, at: at)
  }

  /// Inserts `value` just inside a string value (after `:"`), or at a random place.
  private static func insertInString(_ value: [UInt8], in bytes: inout [UInt8], using random: inout FuzzRandom) {
    let starts = stringValueStarts(bytes)
    let at = starts.isEmpty ? random.below(bytes.count + 1) : random.pick(starts)
    bytes.insert(contentsOf: value, at: at)
  }

  /// Offsets just after each `:"` (the first character of a string value).
  private static func stringValueStarts(_ bytes: [UInt8]) -> [Int] {
    var starts: [Int] = []
    for i in 1..<max(bytes.count, 1) where bytes[i] == UInt8(ascii: "\"") && bytes[i - 1] == UInt8(ascii: ":") {
      starts.append(i + 1)
    }
    return starts
  }

  /// The range of the string value starting at `start` (up to its closing quote, escapes skipped).
  private static func stringValue(at start: Int, in bytes: [UInt8]) -> Range<Int>? {
    var i = start
    while i < bytes.count {
      switch bytes[i] {
      case UInt8(ascii: "\\"): i += 2
      case UInt8(ascii: "\""): return start..<i
      case 0x0A: return nil
      default: i += 1
      }
    }
    return nil
  }

  /// Replaces a random string value with another string value of the input.
  private static func swapStringValue(in bytes: inout [UInt8], using random: inout FuzzRandom) {
    let values = stringValueStarts(bytes).compactMap { stringValue(at: $0, in: bytes) }
    guard values.count >= 2 else { return }
    let target = random.pick(values)
    let source = Array(bytes[random.pick(values)])
    bytes.replaceSubrange(target, with: source)
  }

  /// Repeats a `"key":value` pair of a random line right after itself.
  private static func duplicateKey(in bytes: inout [UInt8], using random: inout FuzzRandom) {
    var keyStarts: [Int] = []
    for i in 1..<max(bytes.count, 1) where bytes[i] == UInt8(ascii: "\"") {
      let before = bytes[i - 1]
      if before == UInt8(ascii: "{") || before == UInt8(ascii: ",") { keyStarts.append(i) }
    }
    guard let start = keyStarts.isEmpty ? nil : random.pick(keyStarts) else { return }
    var end = start
    var inString = false
    var depth = 0
    while end < bytes.count {
      let byte = bytes[end]
      if inString {
        if byte == UInt8(ascii: "\\") {
          end += 1
        } else if byte == UInt8(ascii: "\"") {
          inString = false
        }
      } else if byte == UInt8(ascii: "\"") {
        inString = true
      } else if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") {
        depth += 1
      } else if byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") {
        if depth == 0 { break }
        depth -= 1
      } else if (byte == UInt8(ascii: ",") && depth == 0) || byte == 0x0A {
        break
      }
      end += 1
    }
    guard end <= bytes.count, end > start else { return }
    bytes.insert(contentsOf: Array(bytes[start..<end]) + [UInt8(ascii: ",")], at: start)
  }
}
