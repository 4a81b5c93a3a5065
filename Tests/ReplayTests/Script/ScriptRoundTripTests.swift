import Journal
import Projection
import Testing

@testable import TestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// `script` then `record` gives every recording the model made back, byte for byte.
@Suite struct ScriptRoundTripTests {
  /// Every bundled recording: Journals/*.ndjson and Journals/bisect/*.ndjson.
  static let bundled: [String] = {
    var paths: [String] = []
    for directory in [Repository.journals, Repository.journals + "/bisect"] {
      guard let dir = opendir(directory) else { continue }
      while let entry = readdir(dir) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
          String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
        }
        if name.hasSuffix(".ndjson") { paths.append(directory + "/" + name) }
      }
      closedir(dir)
    }
    return paths.sorted()
  }()

  /// Builds 08 to 12 of the bisect demo are no recording of the model: the app lost the
  /// compose modal's cleanup (two events taken out, the rest numbered again).
  static func isLeakyBuild(_ path: String) -> Bool {
    ["08", "09", "10", "11", "12"].contains { path.hasSuffix("/build-\($0).ndjson") }
  }

  /// The journal `record` writes for a script, named after the header's scenario.
  static func record(_ script: JournalScript, in directory: TemporaryDirectory) throws -> [UInt8] {
    let path = directory.file((script.scenarioName ?? "sim") + ".scenario")
    let navigator = try ScenarioCompiler.record(Array(script.text.utf8), script: path, profile: script.profile)
    return navigator.journal
  }

  @Test func everyBundledRecordingComesBackByteForByte() throws {
    try #require(Self.bundled.count >= 20, "\(Self.bundled)")
    let directory = try TemporaryDirectory()
    for path in Self.bundled where !Self.isLeakyBuild(path) {
      let bytes = try directory.read(path)
      let (records, diagnostics) = JournalReader.readAll(bytes: bytes)
      #expect(diagnostics.isEmpty, "\(path)")
      let script = JournalScript(records)
      #expect(script.reproduces, "\(path): \(script.notes) \(script.firstDifference ?? 0)")
      let again = try Self.record(script, in: directory)
      #expect(again == bytes, "\(path)")
      // Inputs only: no callback is a command, and every pan, programmatic move and mark is one.
      let pans = records.count { if case .pan = $0.event { true } else { false } }
      let marks = records.count { if case .mark = $0.event { true } else { false } }
      #expect(script.commands.count { if case .pan = $0 { true } else { false } } == pans, "\(path)")
      #expect(script.commands.count { if case .mark = $0 { true } else { false } } == marks, "\(path)")
    }
  }

  /// The leaky builds say the same inputs as the model's runs: recorded, they give the journal
  /// plus the two cleanup events the app lost (times and events; seqs are numbered again).
  @Test func theLeakyBuildsGiveTheSameInputs() throws {
    let directory = try TemporaryDirectory()
    let leaky = Self.bundled.filter(Self.isLeakyBuild)
    try #require(leaky.count == 5)
    for path in leaky {
      let (records, _) = JournalReader.readAll(bytes: try directory.read(path))
      let script = JournalScript(records)
      #expect(!script.reproduces, "\(path)")
      #expect(script.notes.isEmpty, "\(path): \(script.notes)")
      let (again, _) = JournalReader.readAll(bytes: try Self.record(script, in: directory))
      let lost = again.filter { record in
        switch record.event {
        case .unlink(from: "notes", direction: .down), .dealloc(controller: "compose"): false
        default: true
        }
      }
      #expect(again.count == records.count + 2, "\(path)")
      #expect(lost.map(\.time) == records.map(\.time), "\(path)")
      #expect(lost.map(\.event) == records.map(\.event), "\(path)")
    }
  }

  /// Simulated sessions of both shapes and both profiles, many seeds: the same events, times
  /// included; the header differs only by the `scenario` that `record` adds (a simulation has none).
  @Test(arguments: [Profile.intended, .legacy])
  func simulatedSessionsComeBack(profile: Profile) throws {
    let directory = try TemporaryDirectory()
    var checked = 0
    for seed in UInt64(1)...120 {
      let churn = seed % 3 == 0
      let simulation = Simulation(
        events: churn ? 3000 : 600 + Int(seed % 7) * 200, seed: seed, controllers: churn ? 40 : 8, profile: profile,
        app: seed % 2 == 0 ? "Sim App" : nil, build: seed % 5 == 0 ? "1.0 (7)" : nil,
        start: seed % 4 == 0 ? Timestamp.modelEpoch.adding(milliseconds: Int64(seed) * 3_600_123) : .modelEpoch,
        shape: churn ? .churn : .simple)
      let bytes = Simulator.journal(simulation)
      let (records, diagnostics) = JournalReader.readAll(bytes: bytes)
      #expect(diagnostics.isEmpty)
      let script = JournalScript(records)
      #expect(script.profile == profile)
      #expect(script.reproduces, "seed \(seed): \(script.notes) first difference \(script.firstDifference ?? 0)")
      let (again, _) = JournalReader.readAll(bytes: try Self.record(script, in: directory))
      guard case .session(var header) = again.first?.event else {
        Issue.record("seed \(seed): no header")
        continue
      }
      #expect(header.scenario == "sim")
      header.scenario = nil
      #expect(Record(seq: 0, time: again[0].time, event: .session(header)) == records[0], "seed \(seed)")
      #expect(Array(again.dropFirst()) == Array(records.dropFirst()), "seed \(seed)")
      checked += 1
    }
    #expect(checked == 120)
  }

  /// A script that uses what the simulations rarely do: a start with a zone offset and
  /// microseconds, thresholds above and below the default, refused, cancelled and flung pans,
  /// nested non-animated modals, goToRoot both ways, waits longer than one `wait` takes, a
  /// second root, unlink, dealloc (also of a controller never displayed) and marks with options.
  static let oddScript = """
    session id=ODD app="A #1" start=2026-05-01T10:00:00.123456+02:00
    controller a A
    controller b B
    controller c C
    controller d D
    root a
    link a right b
    link b right c
    link c down d
    threshold b 10
    threshold c 200
    pan right distance=20
    pan right distance=150
    pan right distance=250 velocity=100
    touches c down 3
    pan down distance=100 touches=2
    pan down distance=100 touches=3 cancel
    pan down distance=100 touches=3
    modal m1 M left animated=false
    modal m2 M up
    modal m3 M right animated=false
    move left
    move left animated=false
    goToRoot
    wait 1000000000000
    wait 1000000000000
    wait 5
    move right
    move right
    move right
    modal m4 M up
    move down
    goToRoot animated=false
    unlink c down
    root b
    controller e E
    link e up a
    dealloc e
    mark "x y" k="a b" z=
    wait 0
    mark end

    """

  @Test(arguments: [Profile.intended, .legacy])
  func anOddScriptComesBack(profile: Profile) throws {
    let directory = try TemporaryDirectory()
    let journal = try ScenarioCompiler.record(
      Array(Self.oddScript.utf8), script: directory.file("odd.scenario"), profile: profile
    ).journal
    let script = JournalScript(JournalReader.readAll(bytes: journal).records)
    #expect(script.reproduces, "\(script.notes) \(script.firstDifference ?? 0)\n\(script.text)")
    #expect(try Self.record(script, in: directory) == journal, "\(script.text)")
    #expect(script.commands.count { if case .wait = $0 { true } else { false } } >= 3)
    #expect(script.commands.contains(.threshold("b", points: 0)), "\(script.text)")
  }

  /// Through the command line: `script` then `record` of the bundled legacy notes session.
  @Test func theCommandsRoundTrip() throws {
    let directory = try TemporaryDirectory()
    let journal = Repository.journals + "/notes.legacy.ndjson"
    let script = directory.file("notes.scenario")
    let made = try Binary.run(["script", journal, "-o", script])
    #expect(made.status == 0, "\(made)")
    #expect(made.stderr.isEmpty, "\(made)")
    let recorded = try Binary.run(["record", "--profile", "legacy", script])
    #expect(recorded.status == 0, "\(recorded)")
    #expect(recorded.stdoutBytes == (try directory.read(journal)))
    // Standard input, and standard output.
    let piped = try Binary.run(["script", "-"], stdin: try directory.read(journal))
    #expect(piped.status == 0, "\(piped)")
    #expect(piped.stdoutBytes == (try directory.read(script)))
  }
}
