import Journal

/// Reads the commonest script lines in their plainest spelling straight from their bytes, or
/// gives up: `pan DIR distance=N [velocity=N] [touches=N]`, `wait MS`, `move DIR
/// [animated=B]`, `modal ID CLASS DIR [animated=B]` and `goToRoot [animated=B]`, one space
/// between tokens, printable ASCII, ids and classes plain or in quotes without escapes, numbers
/// as digits with an optional fraction. Anything else (another command, a tab, a comment, an
/// exponent, options in another order, a value out of range) is nil, and the general parser reads
/// the line: what is accepted, the command made and every error stay the general parser's.
///
/// Implementation note: an app's script changes its numbers and ids from line to line (a pan's
/// distance and velocity, a new modal's id, the waits between inputs), so most of its lines miss
/// the cache of recent lines; tokenizing them into strings and matching the tokens to the
/// command's arguments cost more than running the command on the navigator. `PlainCommandTests` parses
/// bundled and simulated scripts and mutations of their lines both ways and compares the commands.
enum PlainCommand {
  /// The command of `line` if it is in the plain spelling above, else nil.
  static func command(_ line: UnsafeBufferPointer<UInt8>) -> ScenarioCommand? {
    var reader = Reader(line)
    guard let name = reader.plain() else { return nil }
    if reader.equals(name, "pan") { return reader.pan() }
    if reader.equals(name, "wait") { return reader.wait() }
    if reader.equals(name, "move") { return reader.move() }
    if reader.equals(name, "modal") { return reader.modal() }
    if reader.equals(name, "goToRoot") { return reader.goToRoot() }
    return nil
  }

  private struct Reader {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    private static let space = UInt8(ascii: " ")
    private static let quote = UInt8(ascii: "\"")

    /// The longest number this reader reads (more digits could exceed 2^53: the general parser reads them).
    private static let maxDigits = 15
    /// 10^0 ... 10^22, each exactly a `Double`.
    private static let powersOfTen: [Double] = (0...22).map { k in
      var p = 1.0
      for _ in 0..<k { p *= 10 }
      return p
    }

    /// A byte of a plain token: printable ASCII but space, `"`, `#`, `=` and `\`.
    @inline(__always)
    private static func isPlain(_ c: UInt8) -> Bool {
      c > 0x20 && c < 0x7F && c != quote && c != UInt8(ascii: "#") && c != UInt8(ascii: "=")
        && c != UInt8(ascii: "\\")
    }

    /// Ends a token: the end of the line, or one space followed by another token.
    @inline(__always)
    private mutating func separator() -> Bool {
      guard index < bytes.count else { return true }
      guard bytes[index] == Self.space, index + 1 < bytes.count, bytes[index + 1] != Self.space else { return false }
      index += 1
      return true
    }

    var atEnd: Bool { index == bytes.count }

    /// A plain token and the separator after it.
    mutating func plain() -> Range<Int>? {
      let start = index
      while index < bytes.count, Self.isPlain(bytes[index]) { index += 1 }
      guard index > start, separator() else { return nil }
      return start..<(index == bytes.count ? index : index - 1)
    }

    /// A plain token, or one in quotes without escapes (printable ASCII), and the separator after it.
    mutating func text() -> String? {
      guard index < bytes.count, bytes[index] == Self.quote else { return plain().map(string) }
      index += 1
      let start = index
      while index < bytes.count, bytes[index] >= 0x20, bytes[index] < 0x7F, bytes[index] != Self.quote,
        bytes[index] != UInt8(ascii: "\\")
      {
        index += 1
      }
      guard index < bytes.count, bytes[index] == Self.quote else { return nil }
      let end = index
      index += 1
      guard separator() else { return nil }
      return string(start..<end)
    }

    func string(_ range: Range<Int>) -> String {
      String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    func equals(_ range: Range<Int>, _ word: StaticString) -> Bool {
      guard range.count == word.utf8CodeUnitCount else { return false }
      for k in 0..<range.count where bytes[range.lowerBound + k] != word.utf8Start[k] { return false }
      return true
    }

    /// `left`, `right`, `up` or `down`.
    mutating func direction() -> Direction? {
      guard let word = plain() else { return nil }
      if equals(word, "left") { return .left }
      if equals(word, "right") { return .right }
      if equals(word, "up") { return .up }
      if equals(word, "down") { return .down }
      return nil
    }

    /// `key=` at the cursor: moves past it.
    mutating func key(_ key: StaticString) -> Bool {
      let n = key.utf8CodeUnitCount
      guard bytes.count - index > n, bytes[index + n] == UInt8(ascii: "=") else { return false }
      for k in 0..<n where bytes[index + k] != key.utf8Start[k] { return false }
      index += n + 1
      return true
    }

    /// Digits with an optional fraction, at most ``maxDigits`` of them, and the separator after it.
    ///
    /// Implementation note: the digits make an integer below 2^53 and a power of ten up to 10^22,
    /// both exact as doubles, so their quotient, rounded once, is the correctly rounded value of
    /// the decimal: what `Double(String)` gives (Clinger's fast path).
    mutating func number() -> Double? {
      var mantissa: UInt64 = 0
      var digits = 0
      var fraction = 0
      var seenPoint = false
      let start = index
      while index < bytes.count {
        let c = bytes[index]
        if c >= UInt8(ascii: "0"), c <= UInt8(ascii: "9") {
          mantissa = mantissa &* 10 &+ UInt64(c &- UInt8(ascii: "0"))
          digits += 1
          if seenPoint { fraction += 1 }
        } else if c == UInt8(ascii: "."), !seenPoint, index > start {
          seenPoint = true
        } else {
          break
        }
        index += 1
      }
      guard digits > 0, digits <= Self.maxDigits, !seenPoint || fraction > 0, separator() else { return nil }
      return Double(mantissa) / Self.powersOfTen[fraction]
    }

    /// Digits only, at most 18 (no overflow), and the separator after them.
    mutating func whole() -> Int? {
      var value = 0
      let start = index
      while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
        value = value &* 10 &+ Int(bytes[index] &- UInt8(ascii: "0"))
        index += 1
      }
      guard index > start, index - start <= 18, separator() else { return nil }
      return value
    }

    /// An optional last `animated=true|false`: true when absent.
    mutating func animated() -> Bool? {
      guard !atEnd else { return true }
      guard key("animated"), let word = plain(), atEnd else { return nil }
      if equals(word, "true") { return true }
      if equals(word, "false") { return false }
      return nil
    }

    mutating func pan() -> ScenarioCommand? {
      guard let direction = direction(), key("distance"), let distance = number() else { return nil }
      var velocity = 0.0
      var touches = 1
      if !atEnd, key("velocity") {
        guard let v = number() else { return nil }
        velocity = v
      }
      if !atEnd, key("touches") {
        guard let t = whole(), t >= 1 else { return nil }
        touches = t
      }
      guard atEnd else { return nil }
      return .pan(direction, distance: distance, velocity: velocity, touches: touches, cancelled: false)
    }

    mutating func wait() -> ScenarioCommand? {
      guard let ms = whole(), atEnd, Int64(ms) <= Navigator.maximumWait else { return nil }
      return .wait(milliseconds: Int64(ms))
    }

    mutating func move() -> ScenarioCommand? {
      guard let direction = direction(), let animated = animated() else { return nil }
      return .move(direction, animated: animated)
    }

    mutating func modal() -> ScenarioCommand? {
      guard let id = text().map({ ControllerID($0) }), id.isValid, let className = text(), !className.isEmpty,
        let direction = direction(), let animated = animated()
      else { return nil }
      return .modal(id, className: className, direction, animated: animated)
    }

    mutating func goToRoot() -> ScenarioCommand? {
      guard let animated = animated() else { return nil }
      return .goToRoot(animated: animated)
    }
  }
}
