import Dispatch
import Synchronization

/// A bounded queue between one producer thread and one consumer thread.
///
/// The producer ``put(_:)``s (waiting while the queue is full) and ``close()``s
/// at its end; the consumer ``take()``s (waiting while it is empty) until it gets
/// `nil`. A consumer that stops early ``cancel()``s: the producer's next `put`
/// returns false. Used to decode journals and to encode simulated records on
/// the second core.
final class WorkPipe<Element: Sendable>: Sendable {
  private let queue = Mutex<(items: [Element], closed: Bool, cancelled: Bool)>(([], false, false))
  /// Counts the queued elements (and the close); the consumer waits on it.
  private let filled = DispatchSemaphore(value: 0)
  /// Counts the free places; the producer waits on it.
  private let free: DispatchSemaphore

  init(capacity: Int) {
    // Implementation note: libdispatch traps (SIGILL) when a semaphore is released with a
    // value below the one it was created with, which a pipe cancelled with places taken
    // has; so it starts at 0 and is raised to `capacity`.
    free = DispatchSemaphore(value: 0)
    for _ in 0..<capacity { free.signal() }
  }

  /// Queues an element, waiting for a free place; false once the consumer has cancelled.
  func put(_ element: Element) -> Bool {
    free.wait()
    let queued = queue.withLock { q in
      guard !q.cancelled else { return false }
      q.items.append(element)
      return true
    }
    if queued { filled.signal() }
    return queued
  }

  /// No more elements: the consumer's ``take()`` returns nil once the queue is empty.
  func close() {
    queue.withLock { $0.closed = true }
    filled.signal()
  }

  /// The oldest element, waiting for one; nil once the queue is closed and empty.
  func take() -> Element? {
    filled.wait()
    let element: Element? = queue.withLock { q in
      if q.items.isEmpty { return nil }
      return q.items.removeFirst()
    }
    if element != nil { free.signal() } else { filled.signal() }
    return element
  }

  /// The consumer has gone: queued elements are dropped and the producer stops at its next `put`.
  func cancel() {
    queue.withLock { q in
      q.cancelled = true
      q.items.removeAll()
    }
    free.signal()
  }
}
