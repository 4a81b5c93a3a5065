import Journal
import Projection
import Synchronization

/// The search text of every record (``Stepper/searchText(of:)``) laid end to
/// end, one line each, built on the first search and shared by every copy of
/// the journal: later searches scan one contiguous buffer instead of
/// rendering every event's sentence again.
///
/// Implementation note: the first search costs about what a scan of the
/// sentences would, and the buffer a few dozen bytes per event; each search
/// after it is a byte scan. A
/// search text never holds a line feed, so no match runs from one record into
/// the next.
final class SearchIndex: Sendable {
  struct Text: Sendable {
    /// Every record's search text followed by `\n`.
    var bytes: [UInt8]
    /// Where each record's text starts, and `bytes.count` last (count + 1 entries).
    var starts: [Int]

    init(_ records: [Record]) {
      bytes = []
      bytes.reserveCapacity(records.count * 48)
      starts = []
      starts.reserveCapacity(records.count + 1)
      for record in records {
        starts.append(bytes.count)
        bytes.append(contentsOf: Stepper.searchText(of: record).utf8)
        bytes.append(0x0A)
      }
      starts.append(bytes.count)
    }

    /// The record whose text holds `offset`.
    func record(at offset: Int) -> Int {
      var low = 0
      var high = starts.count - 1  // starts[high] > offset
      while high - low > 1 {
        let mid = (low + high) / 2
        if starts[mid] <= offset { low = mid } else { high = mid }
      }
      return low
    }
  }

  private let text = Mutex<Text?>(nil)

  /// Whether the texts have been built.
  var isBuilt: Bool { text.withLock { $0 != nil } }

  /// The texts of `records`, built on the first call.
  func text(of records: [Record]) -> Text {
    text.withLock { built in
      if let built { return built }
      let made = Text(records)
      built = made
      return made
    }
  }
}

extension TextMatcher {
  /// The record of the next match after `cursor` (wrapping around, `cursor` itself last),
  /// or before it when `forward` is false; nil when no record matches.
  func find(in text: SearchIndex.Text, from cursor: Int, forward: Bool) -> Int? {
    text.bytes.withUnsafeBufferPointer { bytes in
      let count = text.starts.count - 1
      guard count > 0 else { return nil }
      if forward {
        let next = text.starts[min(cursor + 1, count)]
        let offset = first(in: bytes, next..<bytes.count) ?? first(in: bytes, 0..<next)
        return offset.map(text.record(at:))
      }
      let here = text.starts[cursor]
      let offset = last(in: bytes, 0..<here) ?? last(in: bytes, here..<bytes.count)
      return offset.map(text.record(at:))
    }
  }
}
