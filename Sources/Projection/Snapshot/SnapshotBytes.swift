/// Bytes written by a snapshot: variable-length integers (LEB128, signed ones
/// zigzagged), strings as their UTF-8 length and bytes.
///
/// ```swift
/// var out = SnapshotWriter()
/// out.int(-3)
/// out.string("home")
/// var input = SnapshotReader(out.bytes)
/// try input.int()     // -3
/// try input.string()  // "home"
/// ```
///
/// The point index of `at` and `map --at` keeps its table and its states in
/// this form; ``State/snapshot(into:)`` writes a state with it.
public struct SnapshotWriter: Sendable {
  /// What was written so far.
  public private(set) var bytes: [UInt8] = []

  public init() {}

  /// Empties the buffer, keeping its capacity.
  public mutating func removeAll() { bytes.removeAll(keepingCapacity: true) }

  public mutating func unsigned(_ value: UInt64) {
    var value = value
    while value >= 0x80 {
      bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
      value >>= 7
    }
    bytes.append(UInt8(value))
  }

  public mutating func int(_ value: Int) {
    let v = Int64(value)
    unsigned(UInt64(bitPattern: (v << 1) ^ (v >> 63)))
  }

  public mutating func bool(_ value: Bool) { bytes.append(value ? 1 : 0) }

  public mutating func string(_ value: String) {
    unsigned(UInt64(value.utf8.count))
    bytes.append(contentsOf: value.utf8)
  }

  /// A flag, then the value if there is one.
  public mutating func optional<T>(_ value: T?, _ write: (inout SnapshotWriter, T) -> Void) {
    bool(value != nil)
    if let value { write(&self, value) }
  }

  public mutating func append(contentsOf other: [UInt8]) { bytes.append(contentsOf: other) }
}

/// Reads what a ``SnapshotWriter`` wrote; every read checks the bounds.
public struct SnapshotReader: Sendable {
  /// Bytes that are not what a writer wrote (a damaged or foreign index file), from `offset` on.
  public struct Damaged: Error, Sendable {
    public var offset: Int
    public init(offset: Int) { self.offset = offset }
  }

  private let bytes: [UInt8]
  /// Where the next read starts.
  public private(set) var position: Int

  public init(_ bytes: [UInt8], from position: Int = 0) {
    self.bytes = bytes
    self.position = position
  }

  /// Whether every byte was read.
  public var isAtEnd: Bool { position == bytes.count }

  public mutating func unsigned() throws(Damaged) -> UInt64 {
    var value: UInt64 = 0
    var shift: UInt64 = 0
    while position < bytes.count, shift < 64 {
      let byte = bytes[position]
      position += 1
      value |= UInt64(byte & 0x7F) << shift
      if byte < 0x80 { return value }
      shift += 7
    }
    throw Damaged(offset: position)
  }

  public mutating func int() throws(Damaged) -> Int {
    let u = try unsigned()
    let v = Int64(bitPattern: (u >> 1) ^ (0 &- (u & 1)))
    guard let int = Int(exactly: v) else { throw Damaged(offset: position) }
    return int
  }

  /// An integer that must lie in `range` (a count, an index into a closed set).
  public mutating func int(in range: ClosedRange<Int>) throws(Damaged) -> Int {
    let value = try int()
    guard range.contains(value) else { throw Damaged(offset: position) }
    return value
  }

  public mutating func bool() throws(Damaged) -> Bool {
    guard position < bytes.count, bytes[position] <= 1 else { throw Damaged(offset: position) }
    position += 1
    return bytes[position - 1] == 1
  }

  public mutating func string() throws(Damaged) -> String {
    let count = try unsigned()
    guard count <= UInt64(bytes.count - position) else { throw Damaged(offset: position) }
    let end = position + Int(count)
    defer { position = end }
    return String(decoding: bytes[position..<end], as: UTF8.self)
  }

  /// A flag, then the value if there is one.
  public mutating func optional<T>(_ read: (inout SnapshotReader) throws(Damaged) -> T) throws(Damaged) -> T? {
    try bool() ? try read(&self) : nil
  }
}
