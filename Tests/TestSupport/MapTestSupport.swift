import Foundation
import Journal
import Projection
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Builds journals from `Record` values for the map, timeline, describe and
/// `at`/`map`/`log` tests: `seq` counts from 0, time advances 1 ms per record
/// unless told otherwise.
struct FixtureJournal {
  private(set) var records: [Record] = []
  var time = Timestamp.modelEpoch

  init(session: String = "FIXTURE", profile: String? = "intended") {
    add(.session(SessionHeader(session: session, profile: profile, scenario: "fixture")))
  }

  mutating func add(_ event: Event, after milliseconds: Int64 = 1) {
    if !records.isEmpty { time = time.adding(milliseconds: milliseconds) }
    records.append(Record(seq: records.count, time: time, event: event))
  }

  /// `alloc` for each id, class `<Id>ViewController`.
  mutating func alloc(_ ids: ControllerID...) {
    for id in ids {
      add(
        .alloc(
          controller: id, className: id.rawValue.prefix(1).uppercased() + id.rawValue.dropFirst() + "ViewController"))
    }
  }

  mutating func root(_ id: ControllerID) { add(.root(controller: id)) }
  mutating func link(_ a: ControllerID, _ d: Direction, _ b: ControllerID) { add(.link(from: a, direction: d, to: b)) }
  mutating func unlink(_ a: ControllerID, _ d: Direction) { add(.unlink(from: a, direction: d)) }
  mutating func modal(_ m: ControllerID, by p: ControllerID) { add(.modal(controller: m, presenter: p)) }
  mutating func touches(_ a: ControllerID, _ d: Direction, _ n: Int) {
    add(.touches(controller: a, direction: d, min: n))
  }
  mutating func callback(_ a: ControllerID, _ c: Callback, after milliseconds: Int64 = 0) {
    add(.lifecycle(controller: a, callback: c), after: milliseconds)
  }
  mutating func dealloc(_ a: ControllerID) { add(.dealloc(controller: a)) }

  /// The initial display of `id`: root, didLoad, willAppear, didAppear.
  mutating func show(_ id: ControllerID) {
    root(id)
    callback(id, .didLoad)
    callback(id, .willAppear)
    callback(id, .didAppear)
  }

  /// A complete animated move with its four callbacks (250 ms between W and D).
  mutating func go(_ from: ControllerID, _ d: Direction, _ to: ControllerID, trigger: MoveTrigger = .programmatic) {
    add(.move(Move(from: from, to: to, direction: d, trigger: trigger, animated: true)))
    callback(from, .willDisappear)
    callback(to, .willAppear)
    callback(from, .didDisappear, after: 250)
    callback(to, .didAppear)
  }

  /// a down b, b right c, c up d puts d at (1,0), where a's right neighbour e already is:
  /// two controllers on one cell, the focus on a.
  static var sharedCell: FixtureJournal {
    var j = FixtureJournal()
    j.alloc("a", "b", "c", "d", "e")
    j.show("a")
    j.link("a", .down, "b")
    j.link("b", .right, "c")
    j.link("c", .up, "d")
    j.link("a", .right, "e")
    return j
  }

  /// The journal as NDJSON bytes, one line per record.
  var bytes: [UInt8] { Record.journal(records) }

  /// The state after every record.
  var state: State { State(folding: records) }

  /// The notes app used by the golden files: home in the middle, notes to its
  /// left with a compose modal above it (the focus), settings below home behind
  /// a two-finger edge, profile to the right of settings, and a detached help.
  static var notesApp: FixtureJournal {
    var j = FixtureJournal(session: "NOTES")
    j.alloc("home", "notes", "settings", "profile", "help")
    j.show("home")
    j.link("home", .left, "notes")
    j.callback("notes", .didLoad)
    j.link("home", .down, "settings")
    j.callback("settings", .didLoad)
    j.link("settings", .right, "profile")
    j.callback("profile", .didLoad)
    j.touches("home", .down, 2)
    j.add(
      .pan(Pan(controller: "home", direction: .left, touches: 1, distance: 120, velocity: 300, outcome: .committed)))
    j.go("home", .left, "notes", trigger: .pan)
    j.alloc("compose")
    j.modal("compose", by: "notes")
    j.link("notes", .up, "compose")
    j.callback("compose", .didLoad)
    j.go("notes", .up, "compose")
    j.add(.mark(label: "composing", fields: [.string("draft", "groceries")]))
    return j
  }

  /// The seed's demo map: 17 controllers on one path from the root
  /// (L, D, D, D, R, R, U, U, U, U, U, R, D, D, R, R), named n00 to n16.
  static func demoPath(focusLast: Bool) -> FixtureJournal {
    var j = FixtureJournal(session: "DEMO")
    let ids = (0..<17).map { ControllerID("n" + ($0 < 10 ? "0" : "") + String($0)) }
    for id in ids { j.alloc(id) }
    j.show(ids[0])
    for (i, d) in demoSteps.enumerated() {
      j.link(ids[i], d, ids[i + 1])
      j.callback(ids[i + 1], .didLoad)
    }
    if focusLast {
      for (i, d) in demoSteps.enumerated() { j.go(ids[i], d, ids[i + 1]) }
    }
    return j
  }

  static let demoSteps: [Direction] = [
    .left, .down, .down, .down, .right, .right, .up, .up, .up, .up, .up, .right, .down, .down, .right, .right,
  ]
}

/// Compares rendered text with a file under `Tests/ReplayTests/Golden/`;
/// `SPATIAL_REPLAY_RECORD=1` writes the file instead.
enum GoldenFile {
  static let directory = Repository.tests + "/Golden/"

  static var recording: Bool { getenv("SPATIAL_REPLAY_RECORD").map { String(cString: $0) == "1" } ?? false }

  static func check(_ actual: String, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) {
    let path = directory + name
    if recording {
      #expect(
        TemporaryFiles.write(Array(actual.utf8), to: path), "cannot write \(path)", sourceLocation: sourceLocation)
      return
    }
    guard let expected = TemporaryFiles.read(path) else {
      Issue.record("missing golden file \(path); run with SPATIAL_REPLAY_RECORD=1", sourceLocation: sourceLocation)
      return
    }
    let expectedText = String(decoding: expected, as: UTF8.self)
    if expectedText != actual {
      let difference = lineDifference(expected: expectedText, actual: actual)
      Issue.record("\(name) differs from the golden file:\n\(difference)", sourceLocation: sourceLocation)
    }
  }

  /// The first lines that differ, `-` expected, `+` actual.
  static func lineDifference(expected: String, actual: String) -> String {
    let a = expected.split(separator: "\n", omittingEmptySubsequences: false)
    let b = actual.split(separator: "\n", omittingEmptySubsequences: false)
    var out: [String] = []
    for i in 0..<max(a.count, b.count) {
      let x = i < a.count ? String(a[i]) : "<none>"
      let y = i < b.count ? String(b[i]) : "<none>"
      if x != y {
        out.append("line \(i + 1):\n- \(x)\n+ \(y)")
        if out.count == 5 { break }
      }
    }
    return out.joined(separator: "\n")
  }
}

/// The simulator's seeded generator (SplitMix64), for reproducible random journals.
typealias SeededRandom = SplitMix64
