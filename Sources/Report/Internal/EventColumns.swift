import Dispatch
import Journal
import Synchronization

/// The page's columns of plain integers, one value per event of the window
/// (`dseq`, `dline`, `dt`: the difference from the event before; `k`, `a`,
/// `b`, `text`), written on a thread of their own from the moment they are
/// made; ``wait()`` returns them in the order of ``keys``.
final class EventColumns: Sendable {
  static let keys = ["dseq", "dline", "dt", "k", "a", "b", "text"]
  private let done = DispatchSemaphore(value: 0)
  private let columns = Mutex<[[UInt8]]>([])

  init(
    records: [Record], lines: [Int], window: Range<Int>, types: [Int], laneA: [Int32], laneB: [Int32], texts: [Int]
  ) {
    DispatchQueue.global(qos: .userInitiated).async { [self] in
      let first = window.lowerBound
      let made = [
        Self.ints(window.lazy.map { $0 == first ? 0 : records[$0].seq - records[$0 - 1].seq }),
        Self.ints(window.lazy.map { $0 == first ? 0 : lines[$0] - lines[$0 - 1] }),
        Self.ints(
          window.lazy.map {
            $0 == first ? 0 : Int(records[$0].time.microseconds - records[$0 - 1].time.microseconds)
          }),
        Self.ints(types), Self.ints(laneA), Self.ints(laneB), Self.ints(texts),
      ]
      columns.withLock { $0 = made }
      done.signal()
    }
  }

  /// The columns, once written.
  func wait() -> [[UInt8]] {
    done.wait()
    return columns.withLock { $0 }
  }

  /// A JSON array of integers, written in one piece (``JSONBuffer/ints(_:)``
  /// writes value by value; the page's columns hold one value per event).
  private static func ints<T: BinaryInteger>(_ values: some Collection<T>) -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(2 + values.count * 4)
    bytes.append(UInt8(ascii: "["))
    var first = true
    for value in values {
      if !first { bytes.append(UInt8(ascii: ",")) }
      first = false
      JSONWriter.appendInt(Int(value), to: &bytes)
    }
    bytes.append(UInt8(ascii: "]"))
    return bytes
  }
}
