/// A closed set of names recognised from their UTF-8 bytes without building a
/// `String`: the keys, the event types and the small enumerations' values,
/// each table built once from the spellings its type declares (``WireTables``).
///
/// Implementation note: the names are grouped by length and held as
/// ``ShortText``s, so a lookup compares one or two words with the few names of
/// that length (at most five); when fewer than 16 bytes may be read after the
/// name (its value ends the line), the name's bytes are first copied into
/// words. The table lives as long as the process and is never copied, so a
/// lookup pays no reference counting.
struct NameTable<Value> {
  /// The names, by length, and their values.
  private let entries: UnsafeMutableBufferPointer<(text: ShortText, value: Value)>
  /// `starts[n] ..< starts[n + 1]` are the entries of the names of `n` bytes, for `n` up to 16.
  private let starts: UnsafeMutableBufferPointer<Int>

  /// A table of `names` (each at most 16 bytes, no two alike) and their values.
  init(_ names: [(name: String, value: Value)]) {
    precondition(Set(names.map(\.name)).count == names.count, "two names alike in \(names.map(\.name))")
    let sorted = names.map { (text: ShortText($0.name), value: $0.value) }.sorted { $0.text.count < $1.text.count }
    entries = .allocate(capacity: sorted.count)
    _ = entries.initialize(from: sorted)
    starts = .allocate(capacity: ShortText.capacity + 2)
    for n in 0...(ShortText.capacity + 1) {
      starts[n] = sorted.firstIndex { $0.text.count >= n } ?? sorted.count
    }
  }

  /// Recognises the `n` bytes at `p`, of which `readable` (at least `n`) may be read.
  @inline(__always)
  func match(_ p: UnsafePointer<UInt8>, _ n: Int, readable: Int) -> Value? {
    guard let (start, end) = names(of: n) else { return nil }
    let bytes = readable >= ShortText.capacity ? ShortText(loading: p) : ShortText(copying: p, n)
    return find(bytes, from: start, to: end)
  }

  /// ``match(_:_:readable:)`` for bytes of a line that has at least 16 bytes up to its end, `p + readable`:
  /// read as words that end there when fewer than 16 follow `p` (``ShortText/init(endingAt:_:)``).
  @inline(__always)
  func match(_ p: UnsafePointer<UInt8>, _ n: Int, lineEndsAfter readable: Int) -> Value? {
    guard let (start, end) = names(of: n) else { return nil }
    let bytes = readable >= ShortText.capacity ? ShortText(loading: p) : ShortText(endingAt: p, readable)
    return find(bytes, from: start, to: end)
  }

  /// The entries of the names of `n` bytes, if there are any.
  @inline(__always)
  private func names(of n: Int) -> (start: Int, end: Int)? {
    guard n <= ShortText.capacity, starts[n] < starts[n &+ 1] else { return nil }
    return (starts[n], starts[n &+ 1])
  }

  @inline(__always)
  private func find(_ bytes: ShortText, from start: Int, to end: Int) -> Value? {
    var i = start
    while i < end {
      if entries[i].text.isPrefix(of: bytes) { return entries[i].value }
      i &+= 1
    }
    return nil
  }
}

extension NameTable where Value: CaseIterable & RawRepresentable<String> {
  /// A table of the type's raw values.
  init(rawValuesOf _: Value.Type) {
    self.init(Value.allCases.map { (name: $0.rawValue, value: $0) })
  }
}
