/// How a run's controller ids are made, counted over its `alloc` events: how
/// many look like instance counters (`CheckoutViewController#115`) or memory
/// addresses (`0x600003a2c000`, `<NotesViewController: 0x7f8a1c>`), ids that
/// say which instance but not which controller, and shift from one build to
/// the next when one more controller is allocated early.
///
/// ```swift
/// var census = ControllerIDCensus()
/// census.count("CheckoutViewController#115")
/// census.count("0x600003a2c000")
/// census.count("notes")
/// census.counters            // 1
/// census.addresses           // 1
/// census.isGenerated         // false: one id in three is a name
/// ```
public struct ControllerIDCensus: Sendable, Hashable {
  /// What an id looks like.
  public enum Kind: String, Sendable, Hashable {
    /// Anything, `#`, then digits: `CheckoutViewController#115`.
    case counter
    /// `0x` and hex digits, alone or inside `<...>`: `0x600003a2c000`, `<NotesViewController: 0x7f8a1c>`.
    case address
    /// Anything else: `notes`, `checkout-1`.
    case name
  }

  /// Ids allocated (an id allocated twice counts twice).
  public private(set) var allocated = 0
  /// Those that look like instance counters.
  public private(set) var counters = 0
  /// Those that look like memory addresses.
  public private(set) var addresses = 0

  public init() {}

  /// Counts one allocated id.
  public mutating func count(_ id: String) {
    allocated += 1
    switch Self.kind(of: id) {
    case .counter: counters += 1
    case .address: addresses += 1
    case .name: break
    }
  }

  /// Counters and addresses.
  public var generated: Int { counters + addresses }

  /// Whether the run's ids are made per instance: it allocates at least one
  /// controller, and all of its ids, or all but at most one in ten, are
  /// counters or addresses (an app may name its root and count the rest).
  public var isGenerated: Bool { allocated > 0 && generated * 10 >= allocated * 9 }

  /// What `id` looks like.
  public static func kind(of id: String) -> Kind {
    let bytes = Array(id.utf8)
    if isCounter(bytes) { return .counter }
    if isAddress(bytes) { return .address }
    return .name
  }

  /// At least one byte, `#`, then at least one ASCII digit up to the end.
  private static func isCounter(_ bytes: [UInt8]) -> Bool {
    guard let hash = bytes.lastIndex(of: UInt8(ascii: "#")), hash > 0, hash + 1 < bytes.count else { return false }
    return bytes[(hash + 1)...].allSatisfy(isDigit)
  }

  /// `0x` and hex digits as the whole id, or as a word of an id in angle brackets.
  private static func isAddress(_ bytes: [UInt8]) -> Bool {
    if hexRunEnd(bytes, at: 0) == bytes.count { return true }
    guard bytes.count > 2, bytes.first == UInt8(ascii: "<"), bytes.last == UInt8(ascii: ">") else { return false }
    let inner = Array(bytes[1..<(bytes.count - 1)])
    var i = 0
    while i < inner.count {
      if i == 0 || !isWordByte(inner[i - 1]), let end = hexRunEnd(inner, at: i),
        end == inner.count || !isWordByte(inner[end])
      {
        return true
      }
      i += 1
    }
    return false
  }

  /// Where `0x` (or `0X`) and at least one hex digit starting at `i` end; nil when there are none there.
  private static func hexRunEnd(_ bytes: [UInt8], at i: Int) -> Int? {
    guard i + 2 < bytes.count, bytes[i] == UInt8(ascii: "0"), bytes[i + 1] | 0x20 == UInt8(ascii: "x") else {
      return nil
    }
    var end = i + 2
    while end < bytes.count && isHexDigit(bytes[end]) { end += 1 }
    return end > i + 2 ? end : nil
  }

  private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

  private static func isHexDigit(_ byte: UInt8) -> Bool {
    isDigit(byte) || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "f"))
  }

  private static func isWordByte(_ byte: UInt8) -> Bool {
    isDigit(byte) || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z")) || byte == UInt8(ascii: "_")
      || byte >= 0x80
  }
}
