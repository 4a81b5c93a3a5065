/// An array stored as fixed-size chunks, so that a copy that is then mutated
/// copies one chunk and the (short) list of chunks instead of every element.
///
/// Implementation note: ``State`` is copied for every timeline snapshot (one
/// every few hundred events). With a flat `[ControllerState]`, the first
/// mutation after each snapshot would copy every controller; with chunks of
/// 32 it copies the chunk list and the few chunks the next events touch.
struct ChunkedArray<Element: Sendable & Hashable>: Sendable, Hashable, RandomAccessCollection {
  private static var shift: Int { 5 }
  private static var mask: Int { (1 << shift) - 1 }

  private var chunks: [[Element]] = []
  private(set) var count: Int = 0

  init() {}

  var startIndex: Int { 0 }
  var endIndex: Int { count }

  subscript(position: Int) -> Element {
    get { chunks[position >> Self.shift][position & Self.mask] }
    _modify { yield &chunks[position >> Self.shift][position & Self.mask] }
  }

  mutating func append(_ element: Element) {
    if count & Self.mask == 0 {
      var chunk: [Element] = []
      chunk.reserveCapacity(1 << Self.shift)
      chunks.append(chunk)
    }
    chunks[chunks.count - 1].append(element)
    count += 1
  }
}
