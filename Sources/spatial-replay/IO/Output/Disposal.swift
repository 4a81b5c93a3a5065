import Dispatch

/// Lets go of large values (a batch of decoded items, with every string and
/// array its records hold) on a thread of its own, so that the thread that
/// used them goes on to the next one at once.
///
/// Implementation note: the trace's thread is the one every other waits for
/// (it builds and encodes the trace while the others decode and check), and
/// destroying each batch it had drawn, a release per string of every record,
/// would lengthen it for nothing. At most ``pending`` values wait, so memory stays bounded however far the
/// disposing thread falls behind.
enum Disposal {
  /// The most values handed over and not yet destroyed.
  static let pending = 8

  private final class Box<Value: Sendable>: @unchecked Sendable {
    var value: Value?
    init(_ value: consuming Value) { self.value = value }
  }

  /// Of the default quality of service: a lower one could keep the thread waiting on ``pending`` behind other work.
  private static let queue = DispatchQueue(label: "spatial-replay.disposal")
  private static let slots = DispatchSemaphore(value: pending)

  /// Destroys `value` on the disposing thread (waits while ``pending`` values are still to go).
  static func release<Value: Sendable>(_ value: consuming Value) {
    slots.wait()
    let box = Box(value)
    queue.async {
      box.value = nil
      slots.signal()
    }
  }
}
