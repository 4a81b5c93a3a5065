import Dispatch
import Synchronization

/// Strings a page needs made from values known early, made on a thread of
/// their own, in order, while the page's thread goes on: the transitions'
/// summaries (a transition's summary is known when it starts: its arrivals
/// do not change it) and the sentences that are not templates (a pan's, whose
/// distance and velocity make nearly every one new), which would otherwise
/// weigh on the page's thread of a churn-shaped session.
///
/// The inputs are handed over in batches of ``batchSize``; ``all()`` hands
/// over the rest and waits for every output.
struct MadeElsewhere<Input: Sendable, Output: Sendable> {
  private let maker: Maker
  private var pending: [Input] = []
  static var batchSize: Int { 512 }

  init(_ make: @escaping @Sendable (Input) -> Output) {
    maker = Maker(make)
  }

  /// Makes the output of `input`, after those of every earlier one.
  mutating func add(_ input: Input) {
    pending.append(input)
    if pending.count == Self.batchSize { handOver() }
  }

  /// Every output so far, in order, once made.
  mutating func all() -> [Output] {
    handOver()
    return maker.all()
  }

  private mutating func handOver() {
    maker.add(pending)
    pending = []
  }

  /// The queue that makes them, and what it made.
  private final class Maker: Sendable {
    private let make: @Sendable (Input) -> Output
    private let queue = DispatchQueue(label: "spatial-replay.report-strings", qos: .userInitiated)
    private let made = Mutex<[Output]>([])

    init(_ make: @escaping @Sendable (Input) -> Output) { self.make = make }

    func add(_ inputs: [Input]) {
      guard !inputs.isEmpty else { return }
      queue.async { [self] in
        let outputs = inputs.map(make)
        made.withLock { $0.append(contentsOf: outputs) }
      }
    }

    func all() -> [Output] {
      queue.sync {}
      return made.withLock { $0 }
    }
  }
}
