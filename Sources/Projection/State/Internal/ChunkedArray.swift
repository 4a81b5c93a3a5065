/// An array stored as fixed-size chunks, so that a copy that is then mutated
/// copies one chunk and the (short) list of chunks instead of every element.
///
/// Implementation note: ``State`` is copied for every timeline snapshot (one
/// every few hundred events). With a flat `[ControllerState]`, the first
/// mutation after each snapshot would copy every controller; with chunks of
/// 32 it copies the chunk list and the few chunks the next events touch.
@usableFromInline
struct ChunkedArray<Element: Sendable & Hashable>: Sendable, Hashable, RandomAccessCollection {
  @inlinable static var shift: Int { 5 }
  @inlinable static var mask: Int { (1 << shift) - 1 }

  @usableFromInline var chunks: [[Element]] = []
  @usableFromInline private(set) var count: Int = 0

  @usableFromInline init() {}

  @inlinable var startIndex: Int { 0 }
  @inlinable var endIndex: Int { count }

  @inlinable
  subscript(position: Int) -> Element {
    get { chunks[position >> Self.shift][position & Self.mask] }
    _modify { yield &chunks[position >> Self.shift][position & Self.mask] }
  }

  @usableFromInline mutating func append(_ element: Element) {
    if count & Self.mask == 0 {
      var chunk: [Element] = []
      chunk.reserveCapacity(1 << Self.shift)
      chunks.append(chunk)
    }
    chunks[chunks.count - 1].append(element)
    count += 1
  }
}
