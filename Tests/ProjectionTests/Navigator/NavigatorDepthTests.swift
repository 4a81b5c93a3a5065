import Journal
import Projection
import Testing

/// Inputs whose size decides how deep or how long the model works: a chain of modals each
/// presented by the one before (removed depth first, without recursing once per modal) and
/// a goToRoot over a long line (planned once, not once per step).
@Suite struct NavigatorDepthTests {
  /// `home`, then `count` modals each presented upwards from the one before, the last linked
  /// back to `home` and the walk up to it: home's didAppear removes the whole chain.
  static func chain(_ count: Int) -> String {
    var lines = ["controller home Home", "root home"]
    for i in 1...count { lines.append("modal m\(i) M up animated=false") }
    lines.append("link m\(count) up home")
    lines.append("move up animated=false")
    return lines.joined(separator: "\n") + "\n"
  }

  @Test func aChainOfTenThousandModalsIsRemovedDepthFirst() throws {
    let count = 10_000
    let nav = try ScenarioCompiler.record(Array(Self.chain(count).utf8), script: "chain.scenario", profile: .intended)
    let deallocs = nav.records.compactMap { record -> String? in
      guard case .dealloc(let id) = record.event else { return nil }
      return id.rawValue
    }
    // The deepest first: m10000, m9999, ..., m1 (each after the modals it presented).
    #expect(deallocs == (1...count).reversed().map { "m\($0)" })
    #expect(Checker.check(nav.records).isEmpty, "the model's own recording checks clean")
    let state = State(folding: nav.records)
    #expect(state.focus == "home")
    #expect(state.controllers.filter(\.isAlive).map(\.id) == ["home"])
  }

  @Test func theRemovalOfASmallChainIsTheDocumentedOrder() throws {
    let nav = try ScenarioCompiler.record(Array(Self.chain(2).utf8), script: "chain.scenario", profile: .intended)
    let tail = nav.records.suffix(6).map { record -> String in
      switch record.event {
      case .unlink(let from, let direction): "unlink \(from) \(direction)"
      case .dealloc(let id): "dealloc \(id)"
      case .lifecycle(let id, let callback): "\(id) \(callback)"
      default: record.event.kind.map { "\($0)" } ?? "other"
      }
    }
    // home's didAppear; m1's own modal m2 first (m1's slot, then m2's link to home), then m1.
    #expect(
      tail == ["home didAppear", "unlink m1 up", "unlink m2 up", "dealloc m2", "unlink home up", "dealloc m1"])
  }

  @Test func goToRootOverALongLineWalksEveryStep() throws {
    let count = 5_000
    var lines = ["controller c0 C", "root c0"]
    for i in 1...count { lines += ["controller c\(i) C", "link c\(i - 1) right c\(i)"] }
    lines += Array(repeating: "move right animated=false", count: count)
    lines.append("goToRoot animated=false")
    let nav = try ScenarioCompiler.record(
      Array((lines.joined(separator: "\n") + "\n").utf8), script: "line.scenario", profile: .intended)
    let walk = nav.records.compactMap { record -> Move? in
      guard case .move(let move) = record.event, move.trigger == .goToRoot else { return nil }
      return move
    }
    #expect(walk.count == count)
    #expect(walk.first?.from == ControllerID("c\(count)") && walk.last?.to == "c0")
    #expect(State(folding: nav.records).focus == "c0")
  }
}
