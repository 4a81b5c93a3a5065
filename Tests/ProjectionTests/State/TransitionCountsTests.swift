import Foundation
import Testing

@testable import Journal
@testable import Projection
@testable import TestSupport

/// ``Transition/arrivalCount`` and ``Transition/missingExpectedBits`` (what the
/// report reads after every event) say what the lists say: the count of
/// ``Transition/arrivals``, and bit k for `expected[k]` among ``Transition/missing``.
@Suite struct TransitionCountsTests {
  static func listed(_ transition: Transition) -> (count: Int, bits: Int) {
    let expected = transition.expected
    var bits = 0
    for arrival in transition.missing {
      if let k = expected.firstIndex(of: arrival) { bits |= 1 << k }
    }
    return (transition.arrivals.count, bits)
  }

  @Test func everyBundledJournalAfterEveryEvent() throws {
    let names = try FileManager.default.contentsOfDirectory(atPath: Repository.journals).filter {
      $0.hasSuffix(".ndjson")
    }
    var checked = 0
    for name in names.sorted() {
      let reader = try JournalReader(path: Repository.journals + "/" + name)
      var state = State()
      while let item = reader.next() {
        guard case .record(let record, _, _) = item else { continue }
        _ = reduce(into: &state, record)
        guard let transition = state.transition else { continue }
        let (count, bits) = Self.listed(transition)
        #expect(transition.arrivalCount == count, "\(name) seq \(record.seq)")
        #expect(transition.missingExpectedBits == bits, "\(name) seq \(record.seq)")
        checked += 1
      }
    }
    #expect(checked > 1000)
  }

  @Test(arguments: [Transition.Kind.initialDisplay, .move], [false, true])
  func everySubsetOfCallbacksAndEnds(_ kind: Transition.Kind, _ hasFrom: Bool) {
    let from: ControllerID? = kind == .move && hasFrom ? ControllerID("home") : nil
    let ends = ["home", "notes", "other"].map { ControllerID($0) }
    // Every sequence of up to three arrivals out of the callbacks on either end (and on neither).
    let arrivals = ends.flatMap { end in Callback.allCases.map { Arrival(end, $0) } }
    var sequences: [[Arrival]] = [[]]
    var longest: [[Arrival]] = [[]]
    for _ in 0..<3 {
      longest = longest.flatMap { s in arrivals.map { s + [$0] } }
      sequences += longest
    }
    for sequence in sequences {
      var transition = Transition(
        kind: kind, seq: 1, from: from, to: ControllerID("notes"), direction: kind == .move ? .left : nil,
        trigger: kind == .move ? .pan : nil, animated: false)
      for arrival in sequence { transition.arrive(arrival) }
      let (count, bits) = Self.listed(transition)
      #expect(transition.arrivalCount == count, "\(sequence)")
      #expect(transition.missingExpectedBits == bits, "\(kind) from \(String(describing: from)) \(sequence)")
    }
  }
}
