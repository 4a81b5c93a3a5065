import Synchronization
import Testing

@testable import spatial_replay

#if canImport(Glibc)
  import Glibc
#endif

/// ``FleetRunner``: results and output in input order, a bounded window in flight, spools.
@Suite struct FleetRunnerTests {
  /// Journals in flight and the most ever seen.
  final class InFlight: Sendable {
    let now = Atomic<Int>(0)
    let most = Atomic<Int>(0)
  }

  @Test(arguments: [1, 2, 3, 8])
  func resultsAndOutputComeInInputOrderWithABoundedWindow(_ jobs: Int) throws {
    let paths = (0..<40).map { "j\($0)" }
    let flight = InFlight()
    var context = Context()
    context.stdout = .spool()
    context.stderr = .spool()
    var delivered: [String] = []
    try FleetRunner(jobs: jobs).run(paths, context: &context) { path, context, _ in
      let n = flight.now.add(1, ordering: .relaxed).newValue
      _ = flight.most.max(n, ordering: .relaxed)
      // Later journals finish first: the order must come from the runner.
      usleep(UInt32(40 - Int(path.dropFirst())!) * 300)
      context.stdout.write("\(path) out\n")
      if path == "j7" {
        // Past the spool's MiB kept in memory: the rest goes to its file.
        for i in 0..<100_000 { context.stdout.write("\(path) line \(i)\n") }
        #expect(jobs == 1 || context.stdout.fd >= 0, "spilled")
      }
      context.stderr.write("\(path) err\n")
      return path
    } deliver: { path, result, _ in
      #expect(path == result)
      delivered.append(result)
      _ = flight.now.subtract(1, ordering: .relaxed)
    }
    #expect(delivered == paths)
    #expect(flight.most.load(ordering: .relaxed) <= FleetRunner(jobs: jobs).window)
    var expected = ""
    for path in paths {
      expected += "\(path) out\n"
      if path == "j7" { for i in 0..<100_000 { expected += "\(path) line \(i)\n" } }
    }
    let stdout = try Self.text(&context.stdout)
    #expect(stdout == expected)
    #expect(try Self.text(&context.stderr) == paths.map { "\($0) err\n" }.joined())
  }

  @Test func aFailingDeliveryStopsTheRunAndIsThrown() throws {
    var context = Context()
    context.stdout = .spool()
    var delivered = 0
    #expect(throws: CommandFailure.self) {
      try FleetRunner(jobs: 2).run((0..<50).map { "j\($0)" }, context: &context) { path, _, _ in
        path
      } deliver: {
        _, _, _ in
        delivered += 1
        if delivered == 3 { throw CommandFailure("disk full") }
      }
    }
    #expect(delivered == 3)
  }

  /// A spool's bytes, drained.
  static func text(_ spool: inout FileOutput) throws -> String {
    var bytes: [UInt8] = []
    try spool.drain { (chunk: ArraySlice<UInt8>) throws(CommandFailure) in bytes += chunk }
    return String(decoding: bytes, as: UTF8.self)
  }
}
