import Journal
import Projection
import Recording
import Synchronization
import Testing

@testable import TestSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The production recorder: rotation and retention, segments read as one session, the flight
/// recorder and its on-device trigger, call sites, redaction and sampling.
@Suite struct SessionRecorderTests {
  /// Three screens, then `moves` moves between two of them; at move `bugAt` the destination's
  /// willAppear is left out (a did-without-will).
  static func drive(_ recorder: SessionRecorder, moves: Int, bugAt: Int? = nil) {
    recorder.alloc("List#1", className: "ListViewController")
    recorder.alloc("Editor#2", className: "EditorViewController")
    recorder.root("List#1")
    recorder.didLoad("List#1")
    recorder.willAppear("List#1")
    recorder.didAppear("List#1")
    recorder.link("List#1", .right, to: "Editor#2")
    recorder.didLoad("Editor#2")
    recorder.mark("opened", fields: [.string("note", "groceries")])
    var here: ControllerID = "List#1"
    for i in 0..<moves {
      let there: ControllerID = here == "List#1" ? "Editor#2" : "List#1"
      recorder.move(from: here, to: there, direction: here == "List#1" ? .right : .left, trigger: .pan, animated: true)
      recorder.willDisappear(here)
      if i != bugAt { recorder.willAppear(there) }
      recorder.didDisappear(here)
      recorder.didAppear(there)
      here = there
    }
  }

  /// The journal files of a folder, sorted.
  static func journals(in folder: String) -> [String] {
    directoryEntries(folder).filter { $0.hasSuffix(".ndjson") || $0.hasSuffix(".ndjson.gz") }.map { folder + "/" + $0 }
  }

  /// Findings as `check` prints them, without the file's name.
  static func findings(_ result: Binary.Result) -> [String] {
    result.stdout.split(separator: "\n").compactMap { line in
      guard line.contains(": error: ") || line.contains(": warning: "), let colon = line.firstIndex(of: ":") else {
        return nil
      }
      return String(line[line.index(after: colon)...])
    }
  }

  static func records(_ path: String) throws -> [Record] {
    let reader = try JournalReader(path: path)
    var records: [Record] = []
    while let item = reader.next() {
      guard case .record(let record, _, _) = item else {
        Issue.record("\(path): \(item)")
        continue
      }
      records.append(record)
    }
    return records
  }

  @Test func rotatedSegmentsEachCheckAndTogetherGiveTheWholeSessionsFindings() throws {
    let rotated = try TemporaryDirectory()
    let whole = try TemporaryDirectory()
    for (folder, bytes) in [(rotated, 1024), (whole, 1 << 30)] {
      let recorder = SessionRecorder(
        base: folder.file("notes"), header: SessionHeader(session: "S1", app: "Notes"),
        options: SessionRecorderOptions(
          rotation: Rotation(maxSegmentBytes: bytes, maxSegmentDuration: nil, maxTotalBytes: nil)))
      Self.drive(recorder, moves: 120, bugAt: 70)
      let status = recorder.close()
      #expect(status.processed == 9 + 120 * 5 - 1)
      #expect(status.lost == 0)
    }
    let segments = Self.journals(in: rotated.path)
    #expect(segments.count > 5)
    #expect(segments.allSatisfy { $0.hasSuffix(".ndjson.gz") }, "closed segments are compressed: \(segments)")
    #expect(Self.journals(in: whole.path).count == 1)
    for (k, segment) in segments.enumerated() {
      #expect(SegmentName.parse(segment)?.index == k + 1)
      let result = try Binary.run(["check", "--format", "json", segment])
      #expect(!result.stdout.contains("\"formatErrors\":") || result.stdout.contains("\"formatErrors\":0"), "\(result)")
      let records = try Self.records(segment)
      #expect(records.first?.extra.contains { $0.key == "segment" && $0.value.text == String(k + 1) } == true)
      if k > 0 {
        #expect(
          records.contains { if case .mark(let label, _) = $0.event { label == "replayable.start" } else { false } })
      }
    }
    let together = try Binary.run(["check", rotated.path])
    let alone = try Binary.run(["check", whole.path])
    #expect(together.status == 1, "\(together)")
    #expect(!Self.findings(alone).isEmpty, "\(alone)")
    #expect(Self.findings(together) == Self.findings(alone), "\(together)\n\(alone)")
    #expect(
      together.stdout.hasSuffix(": 609 events, 1 errors, 0 warnings\n") || together.stdout.contains("609 events"),
      "\(together)")
    // The joined session is the whole one, byte for byte but for the header's `segment` and times.
    let cat = try Binary.run(["cat", rotated.path])
    let catWhole = try Binary.run(["cat", whole.path])
    let types = { (text: String) in text.split(separator: "\n").map { $0.replacing(/"time":"[^"]*"/, with: "") } }
    for (a, b) in zip(types(cat.stdout).dropFirst(), types(catWhole.stdout).dropFirst()) where a != b {
      Issue.record("joined: \(a)\nwhole: \(b)")
      break
    }
    #expect(types(cat.stdout).count == 609)
  }

  @Test func anOutputNamingASegmentReadAsPartOfASessionIsRefused() throws {
    let folder = try TemporaryDirectory()
    let recorder = SessionRecorder(
      base: folder.file("notes"), header: SessionHeader(session: "S9"),
      options: SessionRecorderOptions(
        rotation: Rotation(maxSegmentBytes: 1024, maxSegmentDuration: nil, maxTotalBytes: nil)))
    Self.drive(recorder, moves: 20)
    recorder.close()
    let segment = folder.file("notes.000002.ndjson.gz")
    let before = try folder.read(segment)
    let result = try Binary.run(["export", "--format", "csv", "--table", "events", "-o", segment, folder.path])
    #expect(result.status == 64, "\(result)")
    #expect(result.stderr.contains("is an input"), "\(result)")
    #expect(try folder.read(segment) == before)
  }

  @Test func aSegmentOpenLongerThanItsDurationIsClosedAtTheNextEventAtRest() throws {
    let folder = try TemporaryDirectory()
    let recorder = SessionRecorder(
      base: folder.file("notes"), header: SessionHeader(session: "S10"),
      options: SessionRecorderOptions(
        rotation: Rotation(maxSegmentBytes: 1 << 30, maxSegmentDuration: .milliseconds(20), maxTotalBytes: nil)))
    Self.drive(recorder, moves: 1)
    for _ in 0..<3 {
      recorder.flush()
      usleep(40_000)
      recorder.mark("later")
    }
    let status = recorder.close()
    #expect(status.segments == 4, "\(status)")
    let segments = Self.journals(in: folder.path)
    #expect(segments.count == 4)
    let result = try Binary.run(["check", folder.path])
    #expect(result.status == 0, "\(result)")
    #expect(result.stdout.contains(": 18 events, 0 errors, 0 warnings"), "\(result)")
  }

  @Test func theBoundOnWhatIsKeptRemovesTheOldestSegmentsAndTheRestStillReads() throws {
    let folder = try TemporaryDirectory()
    let recorder = SessionRecorder(
      base: folder.file("notes"), header: SessionHeader(session: "S2"),
      options: SessionRecorderOptions(
        rotation: Rotation(maxSegmentBytes: 1024, maxSegmentDuration: nil, maxTotalBytes: 4096, compress: false)))
    Self.drive(recorder, moves: 200)
    let status = recorder.close()
    let segments = Self.journals(in: folder.path)
    #expect(status.segmentsRemoved > 0)
    #expect(status.segments == status.segmentsRemoved + segments.count)
    let total = segments.reduce(0) { $0 + ((try? folder.read($1).count) ?? 0) }
    #expect(total <= 4096 + 1024 + 512, "kept \(total) bytes in \(segments)")
    #expect(SegmentName.parse(segments[0])?.index == status.segmentsRemoved + 1)
    let result = try Binary.run(["check", folder.path])
    #expect(result.status == 0, "\(result)")
    #expect(result.stdout.contains(" 0 errors, 0 warnings"), "\(result)")
  }

  @Test func aFindingOfATriggerRuleWritesTheBufferAsAJournalThatShowsIt() throws {
    let folder = try TemporaryDirectory()
    let heard = Mutex<[RecorderFinding]>([])
    let recorder = SessionRecorder(
      base: folder.file("notes"), header: SessionHeader(session: "S3"),
      options: SessionRecorderOptions(
        flightRecorder: FlightRecorder(maxBytes: 8192, triggers: [.didWithoutWill]),
        callSites: true, sampling: Sampling(session: 0, triggered: 1)),
      onFinding: { finding in heard.withLock { $0.append(finding) } })
    #expect(recorder.decision == .triggered)
    Self.drive(recorder, moves: 300, bugAt: 250)
    recorder.flush()
    recorder.capture(reason: "error handler")
    let status = recorder.close()
    let findings = heard.withLock { $0 }
    #expect(findings.map(\.finding.rule).contains(.didWithoutWill))
    let trigger = try #require(findings.first { $0.finding.rule == .didWithoutWill })
    #expect(trigger.capture == folder.file("notes.capture-1.ndjson"))
    #expect(
      trigger.source?.hasPrefix("RecordingTests/SessionRecorderTests.swift:") == true, "\(trigger.source ?? "nil")")
    #expect(status.captures == [folder.file("notes.capture-1.ndjson"), folder.file("notes.capture-2.ndjson")])
    #expect(status.bufferedBytes <= 8192)
    // Nothing else was written: the session was sampled for its triggered journals only.
    #expect(Self.journals(in: folder.path).count == 2)

    let records = try Self.records(folder.file("notes.capture-1.ndjson"))
    guard case .mark(let label, let fields) = records.last?.event else {
      Issue.record("the triggered journal does not end with a mark")
      return
    }
    #expect(label == "flight-recorder.trigger")
    #expect(fields.contains { $0.key == "rule" && $0.value.text == "\"did-without-will\"" })
    #expect(records.first?.extra.contains { $0.key == "sampled" && $0.value.text == "\"triggered\"" } == true)
    #expect(records.count < 9 + 300 * 5 / 2, "the buffer is bounded: \(records.count) lines")
    let check = try Binary.run(["check", folder.file("notes.capture-1.ndjson")])
    #expect(check.status == 1, "\(check)")
    #expect(check.stdout.contains("[did-without-will]"), "\(check)")
    #expect(check.stdout.contains(" 1 error, 0 warnings (did-without-will 1)"), "\(check)")

    let manual = try Self.records(folder.file("notes.capture-2.ndjson"))
    guard case .mark(_, let manualFields) = manual.last?.event else {
      Issue.record("the captured journal does not end with a mark")
      return
    }
    #expect(manualFields.contains { $0.key == "reason" && $0.value.text == "\"error handler\"" })
  }

  @Test func theFlightRecordersMemoryStaysWithinItsBound() throws {
    let folder = try TemporaryDirectory()
    let recorder = SessionRecorder(
      base: folder.file("notes"), header: SessionHeader(session: "S4"),
      options: SessionRecorderOptions(
        flightRecorder: FlightRecorder(maxBytes: 4096, maxEvents: 20), sampling: Sampling(session: 0, triggered: 1)))
    Self.drive(recorder, moves: 2000)
    recorder.flush()
    let status = recorder.status
    #expect(status.processed == 9 + 2000 * 5)
    #expect(status.bufferedEvents <= 20 && status.bufferedEvents > 0)
    #expect(status.bufferedBytes <= 4096)
    recorder.close()
  }

  @Test func callSitesAreTheRecordingCallsFileAndLine() throws {
    let folder = try TemporaryDirectory()
    let recorder = SessionRecorder(
      base: folder.file("notes"), header: SessionHeader(session: "S5"), options: SessionRecorderOptions(callSites: true)
    )
    recorder.alloc("a", className: "A")
    let line = #line - 1
    recorder.close()
    let records = try Self.records(folder.file("notes.000001.ndjson.gz"))
    #expect(records.count == 2)
    #expect(
      records[1].extra.contains {
        $0.key == "source" && $0.value.text == "\"RecordingTests/SessionRecorderTests.swift:\(line)\""
      }, "\(records)")
  }

  @Test func redactionHashesIDsKeepsClassesDropsPayloadsAndTheJournalStillChecksClean() throws {
    let folder = try TemporaryDirectory()
    let recorder = SessionRecorder(
      base: folder.file("notes"), header: SessionHeader(session: "S6", device: "iPhone of Anna"),
      options: SessionRecorderOptions(
        redaction: Redaction.hashingIDs(key: 42).then(.droppingMarkPayloads).then(.droppingDevice)))
    Self.drive(recorder, moves: 10)
    recorder.close()
    let path = folder.file("notes.000001.ndjson.gz")
    let text = try Binary.run(["cat", path]).stdout
    #expect(!text.contains("List#1") && !text.contains("Editor#2") && !text.contains("groceries"))
    #expect(!text.contains("Anna"))
    #expect(text.contains("\"class\":\"ListViewController\""))
    #expect(text.contains("\"label\":\"opened\""))
    let hashed = Redaction.hashingIDs(key: 42).id("List#1").rawValue
    #expect(hashed.hasPrefix("List#h") && hashed.count == "List#h".count + 16)
    #expect(text.contains("\"controller\":\"\(hashed)\""))
    #expect(hashed != Redaction.hashingIDs(key: 42).id("List#2").rawValue)
    let result = try Binary.run(["check", path])
    #expect(result.status == 0, "\(result)")
    #expect(result.stdout.hasSuffix(" 0 errors, 0 warnings\n"), "\(result)")
  }

  @Test func samplingIsDecidedAtLaunchAndWrittenInTheHeader() throws {
    let draws = Mutex([0.5, 0.5, 0.3, 0.9, 0.95])
    let random: @Sendable () -> Double = { draws.withLock { $0.removeFirst() } }
    let sampling = Sampling(session: 0.4, triggered: 0.6, random: random)
    #expect(sampling.decide() == .triggered)  // 0.5 ≥ 0.4, then 0.5 < 0.6
    #expect(sampling.decide() == .session)  // 0.3 < 0.4
    #expect(sampling.decide() == .off)  // 0.9, 0.95

    let folder = try TemporaryDirectory()
    let off = SessionRecorder(
      base: folder.file("off"), header: SessionHeader(session: "S7"),
      options: SessionRecorderOptions(
        flightRecorder: FlightRecorder(), sampling: Sampling(session: 0.5, triggered: 0.5, random: { 0.75 })))
    #expect(off.decision == .off)
    Self.drive(off, moves: 3)
    off.capture(reason: "nothing")
    #expect(off.close().accepted == 0)
    #expect(Self.journals(in: folder.path).isEmpty)

    let on = SessionRecorder(
      base: folder.file("on"), header: SessionHeader(session: "S8"),
      options: SessionRecorderOptions(sampling: Sampling(session: 0.25, triggered: 1, random: { 0.1 })))
    Self.drive(on, moves: 1)
    on.close()
    let header = try Self.records(folder.file("on.000001.ndjson.gz"))[0]
    #expect(header.extra.map(\.key) == ["sampleSession", "sampleTriggered", "sampled", "segment"])
    #expect(header.extra.map(\.value.text) == ["0.25", "1", "\"session\"", "1"])
  }

  @Test func segmentNamesRoundTrip() {
    #expect(SegmentName.path(base: "a/notes", index: 3, compressed: true) == "a/notes.000003.ndjson.gz")
    #expect(SegmentName.parse("a/notes.000003.ndjson.gz")?.base == "a/notes")
    #expect(SegmentName.parse("a/notes.1234567.ndjson")?.index == 1_234_567)
    #expect(SegmentName.parse("a/notes.12.ndjson") == nil)
    #expect(SegmentName.parse("a/notes.000000.ndjson") == nil)
    #expect(SegmentName.parse("notes.ndjson") == nil)
  }
}
