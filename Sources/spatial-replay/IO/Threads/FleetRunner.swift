import Dispatch
import Journal
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs a command's work on each of many journals on `--jobs` threads and hands
/// the results back in input order, so `check`, `stats` and `export` print the
/// same bytes whatever the number of threads.
///
/// With one job the work runs on the calling thread and writes straight to the
/// command's output, as a loop over the files would. With more, each journal's
/// work gets a ``Context`` of its own whose stdout and stderr are spools
/// (``FileOutput/spool()``: 1 MiB in memory, the rest in an unnamed temporary
/// file); when a journal's turn comes, its spooled stderr, then its stdout, are
/// copied to the real ones and `deliver` gets its result. At most
/// ``window`` journals are in flight (read, or waiting for their turn), so
/// memory depends neither on the number of journals nor on their size.
///
/// ```swift
/// let runner = FleetRunner(jobs: 4)
/// try runner.run(paths, context: &context) { path, context, progress in
///   summarise(path, &context, &progress)  // on a worker thread
/// } deliver: { path, summary, context in
///   total.add(summary)  // on this thread, in input order
/// }
/// ```
///
/// A progress bar over files and bytes shows on stderr when it is a terminal
/// (``Context/showProgress``), erased before each journal's output is written.
struct FleetRunner {
  /// Threads that work on journals (at least 1).
  let jobs: Int

  init(jobs: Int) {
    precondition(jobs >= 1, "at least one job")
    self.jobs = jobs
  }

  /// The runner `--jobs` asks for: the number of cores by default.
  init(_ arguments: ParsedArguments) throws(UsageError) {
    self.init(jobs: try arguments.int(Option.jobs, min: 1) ?? Self.cores)
  }

  /// The processors online.
  static var cores: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }

  /// Journals read ahead of the one whose output is being written, the one being written included.
  var window: Int { jobs * 2 }

  /// Works on every path and delivers the results in the order of `paths`.
  /// - Parameters:
  ///   - work: what to do with one journal; it may write to its context's stdout and
  ///     stderr and reports how far it has read through its ``FileProgress``.
  ///   - deliver: called on the calling thread, in input order, after the journal's
  ///     output has been written.
  /// - Throws: what `deliver` throws (the journals in flight are finished and
  ///   dropped first), or ``CommandFailure`` if a spool cannot be read back.
  func run<Result: Sendable>(
    _ paths: [String], context: inout Context,
    work: @escaping @Sendable (_ path: String, _ context: inout Context, _ progress: inout FileProgress) -> Result,
    deliver: (_ path: String, _ result: Result, _ context: inout Context) throws -> Void
  ) throws {
    var none = Stateless()
    try run(
      paths, context: &context, state: &none, fresh: { Stateless() },
      work: { path, context, _, progress in work(path, &context, &progress) }, deliver: deliver)
  }

  /// Works on every path with a state of the caller's (an output format that
  /// writes as it goes), and delivers the results in the order of `paths`.
  ///
  /// With one job every journal's work gets `state` itself; with more, each gets
  /// a `fresh()` one of its own, so a state must carry nothing from one journal to
  /// the next that changes what is written (a caller whose state does runs with one job).
  func run<State: Sendable, Result: Sendable>(
    _ paths: [String], context: inout Context, state: inout State, fresh: @escaping @Sendable () -> State,
    work:
      @escaping @Sendable (
        _ path: String, _ context: inout Context, _ state: inout State, _ progress: inout FileProgress
      ) -> Result,
    deliver: (_ path: String, _ result: Result, _ context: inout Context) throws -> Void
  ) throws {
    var bar = Progress(total: InputSize.total(paths), enabled: context.showProgress, callsPerCheck: 1)
    bar.files = (0, paths.count)
    defer { bar.finish(&context.stderr) }
    guard jobs > 1 && paths.count > 1 else {
      var done: Int64 = 0
      for (i, path) in paths.enumerated() {
        var progress = FileProgress(bar: bar, base: done)
        let result = work(path, &context, &state, &progress)
        bar = progress.bar!
        done += progress.bytesRead
        bar.files = (i + 1, paths.count)
        try deliver(path, result, &context)
      }
      return
    }
    try runInParallel(
      paths, context: &context, bar: &bar,
      work: { path, context, progress in
        var state = fresh()
        return work(path, &context, &state, &progress)
      }, deliver: deliver)
  }

  private struct Stateless: Sendable {}

  private func runInParallel<Result: Sendable>(
    _ paths: [String], context: inout Context, bar: inout Progress,
    work: @escaping @Sendable (String, inout Context, inout FileProgress) -> Result,
    deliver: (String, Result, inout Context) throws -> Void
  ) throws {
    let shared = Shared<Result>(window: window)
    let workerContext = context.worker()
    let workers = min(jobs, paths.count)
    // Threads of their own rather than blocks on Dispatch's pool: a worker waits for its
    // journal's decoding thread (a block on that pool), which a pool filled with waiting
    // workers would not run.
    for _ in 0..<workers {
      startThread {
        while let i = shared.claim(count: paths.count) {
          var context = workerContext
          var progress = FileProgress(counter: shared.bytesRead)
          let result = work(paths[i], &context, &progress)
          shared.finish(i, Finished(result: result, stdout: context.stdout, stderr: context.stderr))
        }
        shared.exited.signal()
      }
    }
    defer {
      shared.cancel(workers: workers)
      for _ in 0..<workers { shared.exited.wait() }
    }
    for (i, path) in paths.enumerated() {
      var finished = shared.take(i)
      while finished == nil {
        if shared.done.wait(timeout: .now() + .milliseconds(100)) == .timedOut {
          bar.update(shared.bytesRead.value.load(ordering: .relaxed), &context.stderr)
        }
        finished = shared.take(i)
      }
      guard var finished else { continue }
      bar.finish(&context.stderr)
      try finished.stderr.drain(into: &context.stderr)
      try finished.stdout.drain(into: &context.stdout)
      try deliver(path, finished.result, &context)
      bar.files = (i + 1, paths.count)
      bar.update(shared.bytesRead.value.load(ordering: .relaxed), &context.stderr)
      shared.window.signal()
    }
  }

  /// A journal's result and its spooled output.
  private struct Finished<Result: Sendable>: Sendable {
    var result: Result
    var stdout: FileOutput
    var stderr: FileOutput
  }

  /// What the workers and the delivering thread share.
  private final class Shared<Result: Sendable>: Sendable {
    private let state = Mutex<(next: Int, cancelled: Bool, finished: [Int: Finished<Result>])>((0, false, [:]))
    /// Free places in the window; a worker takes one before it starts a journal.
    let window = DispatchSemaphore(value: 0)
    /// Signalled whenever a journal is finished.
    let done = DispatchSemaphore(value: 0)
    /// Signalled by each worker as it ends.
    let exited = DispatchSemaphore(value: 0)
    /// Bytes read so far, over all journals.
    let bytesRead = ByteCounter()

    init(window places: Int) {
      // Raised from 0 rather than created at `places` (see ``WorkPipe``: libdispatch traps on a
      // semaphore released below its initial value).
      for _ in 0..<places { window.signal() }
    }

    /// The next journal to work on, nil when there is none or the run was cancelled.
    func claim(count: Int) -> Int? {
      window.wait()
      let index: Int? = state.withLock { s in
        guard !s.cancelled, s.next < count else { return nil }
        s.next += 1
        return s.next - 1
      }
      if index == nil { window.signal() }
      return index
    }

    func finish(_ index: Int, _ result: Finished<Result>) {
      let kept = state.withLock { s in
        guard !s.cancelled else { return false }
        s.finished[index] = result
        return true
      }
      if !kept {
        var dropped = result
        dropped.stdout.discard()
        dropped.stderr.discard()
      }
      done.signal()
    }

    func take(_ index: Int) -> Finished<Result>? {
      state.withLock { $0.finished.removeValue(forKey: index) }
    }

    /// Stops the workers after their current journal and drops what was not delivered.
    func cancel(workers: Int) {
      let left = state.withLock { s in
        s.cancelled = true
        defer { s.finished = [:] }
        return Array(s.finished.values)
      }
      for var finished in left {
        finished.stdout.discard()
        finished.stderr.discard()
      }
      for _ in 0..<workers { window.signal() }
    }
  }
}

/// How far a journal's work has read, for the progress bar: drawn at once when the
/// work runs on the thread that owns the bar, added to a shared count otherwise.
struct FileProgress {
  /// The bar, when the work runs on its thread.
  fileprivate var bar: Progress?
  /// Bytes read before this journal (with `bar`).
  private let base: Int64
  /// The count of every journal's bytes (without `bar`).
  private let counter: ByteCounter?
  /// Bytes of this journal read so far.
  private(set) var bytesRead: Int64 = 0

  fileprivate init(bar: Progress, base: Int64) {
    self.bar = bar
    self.base = base
    counter = nil
  }

  fileprivate init(counter: ByteCounter) {
    bar = nil
    base = 0
    self.counter = counter
  }

  /// Notes that `bytesRead` bytes of the journal have been read.
  mutating func update(_ bytesRead: Int64, _ stderr: inout FileOutput) {
    let delta = bytesRead - self.bytesRead
    self.bytesRead = bytesRead
    if let counter {
      counter.value.add(delta, ordering: .relaxed)
    } else {
      let done = base + bytesRead
      bar?.update(done, &stderr)
    }
  }

  /// Erases the bar before a message (nothing on a worker thread, which writes to a spool).
  mutating func finish(_ stderr: inout FileOutput) {
    bar?.finish(&stderr)
  }
}

/// Bytes read by every worker.
final class ByteCounter: Sendable {
  let value = Atomic<Int64>(0)
}
