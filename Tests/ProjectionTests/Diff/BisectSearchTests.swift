import Journal
import Projection
import Testing

@testable import TestSupport

/// A series length and where its first bad run is (nil: all good).
struct BisectCase: CustomTestStringConvertible, Sendable {
  let runs: Int
  let firstBad: Int?
  var testDescription: String { "\(runs) runs, first bad \(firstBad.map(String.init) ?? "none")" }

  /// Every series of 1 to 33 runs, with the first bad run at every position and none.
  static let all: [BisectCase] = (1...33).flatMap { n in
    [BisectCase(runs: n, firstBad: nil)] + (1..<n).map { BisectCase(runs: n, firstBad: $0) }
  }
}

@Suite struct BisectSearchTests {
  static func ceilLog2(_ n: Int) -> Int {
    var k = 0
    while (1 << k) < n { k += 1 }
    return k
  }

  @Test(arguments: BisectCase.all)
  func findsTheFirstBadRunInLogarithmicProbes(_ c: BisectCase) {
    var asked: [Int] = []
    let result = Bisect.search(runs: c.runs) { i in
      asked.append(i)
      return c.firstBad.map { i >= $0 } ?? false
    }
    #expect(result.firstBad == c.firstBad)
    #expect(result.lastGood == (c.firstBad.map { $0 - 1 } ?? c.runs - 1))
    #expect(result.probes.map(\.run) == asked)
    #expect(asked.count <= Self.ceilLog2(c.runs))
    #expect(asked.allSatisfy { $0 >= 1 && $0 < c.runs })
    #expect(Set(asked).count == asked.count)
    #expect(Bisect.maxProbes(runs: c.runs) == Self.ceilLog2(c.runs))
  }

  /// The same search over real runs: the fixture journal, with a regression
  /// from one run on; a probe is a comparison with the first run and the
  /// final diff one more.
  @Test(arguments: [1, 2, 3, 5, 8, 12, 17, 33])
  func findsTheFirstRegressedRunOfASeries(runs: Int) throws {
    let base = try DiffFixture.base()
    for firstBad in [nil] + Array(1..<runs) as [Int?] {
      let series: [NormalizedRun] = (0..<runs).map { i in
        // Every run has its own timings; from firstBad on notes.willAppear comes twice.
        let shifted = base.map { Record(seq: $0.seq, time: $0.time.adding(milliseconds: Int64(i)), event: $0.event) }
        let records = firstBad.map { i >= $0 } ?? false ? shifted.duplicating(seq: 28) : shifted
        return DiffFixture.run(records)
      }
      var comparisons = 0
      let result = Bisect.search(runs: runs) { i in
        comparisons += 1
        let (a, b) = series[0].unified(with: series[i])
        return a.tokens != b.tokens
      }
      #expect(result.firstBad == firstBad)
      if let bad = result.firstBad {
        let report = DiffReport(series[result.lastGood], series[bad])
        comparisons += 1
        #expect(DiffFixture.seqHunks(report) == ["duplicated[b] A [] B [29]"])
      }
      #expect(comparisons <= Self.ceilLog2(runs) + 1)
    }
  }

  @Test func errorsOfThePredicateEndTheSearch() {
    struct Unreadable: Error, Equatable { let run: Int }
    #expect(throws: Unreadable(run: 4)) {
      try Bisect.search(runs: 9) { (i: Int) throws(Unreadable) -> Bool in
        if i == 4 { throw Unreadable(run: i) }
        return false
      }
    }
  }
}
