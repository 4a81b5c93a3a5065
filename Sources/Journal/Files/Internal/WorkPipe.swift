import Dispatch
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A bounded queue between one producer thread and one consumer thread.
///
/// The producer ``put(_:)``s (waiting while the queue is full) and ``close()``s
/// at its end; the consumer ``take()``s (waiting while it is empty) until it gets
/// `nil`. A consumer that stops early ``cancel()``s: the producer's next `put`
/// returns false. The stages of a ``JournalPass`` hand their batches on
/// through it, and the command line's writing threads take theirs from it.
package final class WorkPipe<Element: Sendable>: Sendable {
  private let queue = Mutex<(items: [Element], closed: Bool, cancelled: Bool)>(([], false, false))
  /// Counts the queued elements (and the close); the consumer waits on it.
  private let filled = DispatchSemaphore(value: 0)
  /// Counts the free places; the producer waits on it.
  private let free: DispatchSemaphore

  package init(capacity: Int) {
    // Implementation note: libdispatch traps (SIGILL) when a semaphore is released with a
    // value below the one it was created with, which a pipe cancelled with places taken
    // has; so it starts at 0 and is raised to `capacity`.
    free = DispatchSemaphore(value: 0)
    for _ in 0..<capacity { free.signal() }
  }

  /// Queues an element, waiting for a free place; false once the consumer has cancelled.
  ///
  /// Implementation note: the element is moved in, never copied. A producer still holding a
  /// reference to what it queued (a batch's array) would make the consumer's first write to
  /// it copy the whole batch.
  package func put(_ element: consuming Element) -> Bool {
    free.wait()
    var pending = Optional(element)
    let queued = queue.withLock { q in
      guard !q.cancelled else { return false }
      q.items.append(pending.take()!)
      return true
    }
    if queued { filled.signal() }
    return queued
  }

  /// No more elements: the consumer's ``take()`` returns nil once the queue is empty.
  package func close() {
    queue.withLock { $0.closed = true }
    filled.signal()
  }

  /// The oldest element, waiting for one; nil once the queue is closed and empty.
  package func take() -> Element? {
    filled.wait()
    let element: Element? = queue.withLock { q in
      if q.items.isEmpty { return nil }
      return q.items.removeFirst()
    }
    if element != nil { free.signal() } else { filled.signal() }
    return element
  }

  /// The consumer has gone: queued elements are dropped and the producer stops at its next `put`.
  package func cancel() {
    queue.withLock { q in
      q.cancelled = true
      q.items.removeAll()
    }
    free.signal()
  }
}

/// Runs `body` on a new thread of its own (detached).
///
/// Implementation note: a thread of its own, not a block on Dispatch's pool, for
/// a stage that waits on another stage's blocks (decoding runs on that pool):
/// a pool filled with waiting stages (`check --jobs`) would not run them.
package func startThread(_ body: @escaping @Sendable () -> Void) {
  final class Box: Sendable {
    let body: @Sendable () -> Void
    init(_ body: @escaping @Sendable () -> Void) { self.body = body }
  }
  let box = Unmanaged.passRetained(Box(body)).toOpaque()
  var thread = pthread_t()
  let created = pthread_create(
    &thread, nil,
    { raw in
      let box = Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue()
      box.body()
      return nil
    }, box)
  precondition(created == 0, "cannot start a thread: \(String(cString: strerror(created)))")
  pthread_detach(thread)
}
