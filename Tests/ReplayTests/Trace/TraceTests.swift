import Foundation
import Journal
import Testing

@testable import Projection
@testable import Rendering
@testable import TestSupport

/// The structure of both trace formats (docs/trace.md) on every bundled
/// journal and on simulated ones of both profiles: slices that nest on each
/// thread, visits that are the `visits` table's, findings that are `check`'s.
/// The real consumers (DevTools' trace model, OpenTelemetry's protobuf
/// definitions) read the same traces in CI: `.ci/trace_interop.sh`.
@Suite struct TraceTests {
  /// A journal to trace, by name.
  struct Journal: CustomTestStringConvertible, Sendable {
    var name: String
    var bytes: [UInt8]
    var testDescription: String { name }
  }

  static let journals: [Journal] = {
    var list: [Journal] = []
    let names = ((try? FileManager.default.contentsOfDirectory(atPath: Repository.journals)) ?? []).sorted()
    for name in names where name.hasSuffix(".ndjson") {
      if let data = FileManager.default.contents(atPath: Repository.journals + "/" + name) {
        list.append(Journal(name: name, bytes: Array(data)))
      }
    }
    // An id and a class at the format's 256-byte limit with every byte escaped (1,312 and 1,500
    // bytes written): the longest pieces an event copies into its room.
    if let data = FileManager.default.contents(atPath: Repository.journals + "/notes.intended.ndjson") {
      let id = String(repeating: #"\u0001"#, count: 200) + String(repeating: #"\""#, count: 56)
      let className = String(repeating: #"\u0002"#, count: 250)
      let text = String(decoding: data, as: UTF8.self)
        .replacingOccurrences(of: #""editor""#, with: "\"\(id)\"")
        .replacingOccurrences(of: #""NoteEditorViewController""#, with: "\"\(className)\"")
      list.append(Journal(name: "notes.intended, escaped ids at the length limit", bytes: Array(text.utf8)))
    }
    // Times OTLP cannot carry (1600 and 1969 before its 1970, 2300 and 9999 past its 2554): a quarter
    // of notes.intended's events in each year.
    if let data = FileManager.default.contents(atPath: Repository.journals + "/notes.intended.ndjson") {
      let lines = String(decoding: data, as: UTF8.self).split(separator: "\n")
      let moved = lines.indices.map { i in
        lines[i].replacingOccurrences(of: #""time":"2026"#, with: #""time":""# + Self.extremeYears[i * 4 / lines.count])
      }
      list.append(Journal(name: Self.extremeTimes, bytes: Array((moved.joined(separator: "\n") + "\n").utf8)))
    }
    for profile in [Profile.intended, .legacy] {
      list.append(
        Journal(
          name: "simulated \(profile)",
          bytes: Simulator.journal(Simulation(events: 4000, seed: 5, controllers: 40, profile: profile))))
    }
    // A real app's shape (`simulate --shape churn --profile legacy`): many controllers, many incomplete visits.
    list.append(
      Journal(
        name: "simulated churn legacy",
        bytes: Simulator.journal(Simulation(events: 4000, seed: 5, profile: .legacy, shape: .churn))))
    return list
  }()

  static let extremeTimes = "notes.intended, times in 1600, 1969, 2300 and 9999"
  static let extremeYears = ["1600", "1969", "2300", "9999"]

  /// A time as OTLP carries it: nanoseconds since 1970 in 64 unsigned bits, a time outside at the nearest end.
  static func otlpNanos(_ time: Timestamp) -> String {
    String(UInt64(min(max(time.microseconds, 0), Int64(UInt64.max / 1000))) * 1000)
  }

  static func items(_ journal: Journal) -> [JournalItem] {
    let reader = JournalReader(bytes: journal.bytes, name: journal.name)
    var items: [JournalItem] = []
    while let item = reader.next() { items.append(item) }
    return items
  }

  static func chrome(_ journal: Journal, selection: TraceSelection = .all) throws -> [[String: Any]] {
    let bytes = TraceWriter.document(
      format: .chrome, runs: [(journal.name, items(journal))], selection: selection)
    let document = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
    return try #require(document["traceEvents"] as? [[String: Any]])
  }

  /// The `visits` table's rows: every visit, an incomplete one (its didAppear never came) too.
  static func visits(_ journal: Journal) -> [Visit] {
    var tracker = VisitTracker()
    var visits: [Visit] = []
    var last: Timestamp?
    for item in items(journal) {
      guard case .record(let record, _, _) = item else { continue }
      last = record.time
      if let visit = tracker.consume(record) { visits.append(visit) }
    }
    return visits + tracker.finish(lastTime: last)
  }

  static func firstTime(_ journal: Journal) -> Int64 {
    for item in items(journal) { if case .record(let record, _, _) = item { return record.time.microseconds } }
    return 0
  }

  @Test(arguments: journals)
  func chromeSlicesNestOnEveryThreadAndFlowsHaveBothEnds(_ journal: Journal) throws {
    let events = try Self.chrome(journal)
    var stacks: [String: [(name: String, ts: Int)]] = [:]
    var lastEnd: [String: Int] = [:]
    var starts: [Int: Int] = [:]
    var ends: [Int: Int] = [:]
    for event in events {
      let ph = try #require(event["ph"] as? String)
      let thread = "\(event["pid"]!)/\(event["tid"]!)"
      let ts = try #require(event["ts"] as? Int, "ts is an integer: \(event)")
      #expect(event["name"] is String && event["cat"] is String, "\(event)")
      switch ph {
      case "B": stacks[thread, default: []].append((event["name"] as! String, ts))
      case "E":
        let popped = stacks[thread]?.popLast()
        let open = try #require(popped, "E without B on \(thread)")
        #expect(open.name == event["name"] as? String && open.ts <= ts, "\(thread): \(open) closed by \(event)")
      case "X":
        let dur = try #require(event["dur"] as? Int)
        #expect(dur >= 0 && ts >= lastEnd[thread, default: 0], "X slices overlap on \(thread): \(event)")
        lastEnd[thread] = ts + dur
      case "i": #expect(event["s"] as? String == "t")
      case "s": starts[try #require(event["id"] as? Int)] = ts
      case "f": ends[try #require(event["id"] as? Int)] = ts
      case "M": #expect(event["args"] is [String: Any])
      default: Issue.record("unexpected phase \(ph)")
      }
    }
    for (thread, stack) in stacks { #expect(stack.isEmpty, "\(thread) ends with open slices \(stack)") }
    #expect(Set(starts.keys) == Set(ends.keys))
    for (id, start) in starts { #expect(ends[id]! >= start) }
  }

  @Test(arguments: journals)
  func chromeVisitSlicesAreTheVisitsTable(_ journal: Journal) throws {
    let events = try Self.chrome(journal)
    let origin = Self.firstTime(journal)
    var begun: [(ts: Int, seq: Int, number: Int, complete: Bool)] = []
    var ended: [Int] = []
    for event in events where event["cat"] as? String == "visit" {
      let args = event["args"] as? [String: Any]
      switch event["ph"] as? String {
      case "B":
        let args = try #require(args)
        begun.append((event["ts"] as! Int, args["seq"] as! Int, args["visit"] as! Int, true))
      case "X":
        // An incomplete visit, whole: from its willAppear, saying what is missing.
        let args = try #require(args)
        #expect(event["name"] as? String == "visit (no didAppear)")
        #expect(args["incomplete"] as? String == "no didAppear")
        begun.append((event["ts"] as! Int, args["seq"] as! Int, args["visit"] as! Int, false))
        ended.append(event["ts"] as! Int + (event["dur"] as! Int))
      default:
        ended.append(event["ts"] as! Int)
      }
    }
    let visits = Self.visits(journal)
    #expect(begun.count == visits.count)
    #expect(ended.count == visits.count)
    // The table's rows come at their ends; the slices by their starts.
    let expected = visits.sorted { $0.startSeq < $1.startSeq }
    begun.sort { $0.seq < $1.seq }
    #expect(begun.map(\.seq) == expected.map(\.startSeq))
    #expect(begun.map(\.ts) == expected.map { Int($0.startTime.microseconds - origin) })
    #expect(begun.map(\.number) == expected.map(\.number))
    #expect(begun.map(\.complete) == expected.map(\.isComplete))
    #expect(ended.sorted() == visits.map { Int($0.endTime.microseconds - origin) }.sorted())
  }

  /// A visit slice, complete (`B`) or not (`X`).
  static func beginsVisit(_ event: [String: Any]) -> Bool {
    event["cat"] as? String == "visit" && (event["ph"] as? String == "B" || event["ph"] as? String == "X")
  }

  @Test(arguments: journals)
  func chromeFindingsAreCheckFindings(_ journal: Journal) throws {
    let events = try Self.chrome(journal)
    var check = JournalCheck()
    var findings: [CheckFinding] = []
    for item in Self.items(journal) { check.consume(item, into: &findings) }
    check.finish(into: &findings)
    let drawn = events.filter { $0["cat"] as? String == "finding" }.map { event in
      let args = event["args"] as! [String: Any]
      return "\(args["line"]!) \(args["rule"]!) \(args["message"]!)"
    }
    #expect(drawn == findings.map { "\($0.line) \($0.rule) \($0.message)" })
    #expect(drawn.allSatisfy { _ in true })
    if !findings.isEmpty {
      let names = events.filter { $0["name"] as? String == "thread_name" }.compactMap {
        ($0["args"] as? [String: Any])?["name"] as? String
      }
      #expect(names.contains("findings"))
    }
  }

  /// `trace` reads batches that a ``CheckerPass`` checked on another thread, the report item by
  /// item: both give the same bytes, wherever the batches begin and end (the report's
  /// "download trace" is `trace`'s output).
  @Test(arguments: journals)
  func batchesGiveTheBytesOfItemByItem(_ journal: Journal) throws {
    let items = Self.items(journal)
    for format in TraceFormat.allCases {
      let whole = TraceWriter.document(format: format, runs: [(journal.name, items)], version: "test")
      for size in [1, 7, 300, items.count + 1] {
        var trace = TraceWriter(format: format, version: "test")
        var pass = CheckerPass(facts: true)
        trace.beginRun(file: journal.name)
        for start in stride(from: 0, to: items.count, by: size) {
          var batch = JournalBatch(Array(items[start..<min(items.count, start + size)]))
          let checked = pass.check(&batch)
          trace.consume(&batch, checked: checked)
        }
        trace.endRun(checked: pass.finish())
        trace.finish()
        var bytes: [UInt8] = []
        trace.drain { bytes.append(contentsOf: $0) }
        let same = bytes == whole
        #expect(same, "\(format), batches of \(size): \(bytes.count) bytes, item by item \(whole.count)")
      }
    }
  }

  /// The longest pieces an event copies (ids and classes at the format's limit, every byte
  /// escaped) come out whole, where the controller's thread, moves and spans name them.
  @Test func idsAtTheLengthLimitAreWrittenWhole() throws {
    let journal = try #require(Self.journals.first { $0.name.hasPrefix("notes.intended, escaped") })
    let id = String(repeating: "\u{1}", count: 200) + String(repeating: "\"", count: 56)
    let className = String(repeating: "\u{2}", count: 250)
    let events = try Self.chrome(journal)
    let threads = events.filter { $0["ph"] as? String == "M" && $0["name"] as? String == "thread_name" }
      .compactMap { ($0["args"] as? [String: Any])?["name"] as? String }
    #expect(threads.contains(id + " (" + className + ")"))
    let moves = events.filter { $0["ph"] as? String == "i" && $0["name"] as? String == "move" }
    #expect(moves.contains { ($0["args"] as? [String: Any])?["to"] as? String == id })
    let spans = try Self.spans(journal)
    let named = spans.filter { Self.attributes($0)["screen.name"] as? String == id }
    #expect(!named.isEmpty)
    #expect(named.allSatisfy { Self.attributes($0)["screen.class"] as? String == className })
  }

  /// The format allows any finite distance and velocity: a pan's slice never ends before it starts.
  @Test func panSlicesHaveNonNegativeDurationsWhateverTheNumbers() throws {
    var lines = [
      #"{"seq":0,"time":"2026-01-01T00:00:00.000000Z","type":"session","v":1,"session":"P"}"#,
      #"{"seq":1,"time":"2026-01-01T00:00:00.001000Z","type":"alloc","controller":"a","class":"A"}"#,
    ]
    let numbers: [(Double, Double)] = [(-5000, 1000), (5000, -1000), (-1, -1), (0, 1), (1e300, 1e-300), (100, 1000)]
    for (k, (distance, velocity)) in numbers.enumerated() {
      lines.append(
        #"{"seq":\#(k + 2),"time":"2026-01-01T00:00:0\#(k + 1).000000Z","type":"pan","controller":"a","direction":"left","touches":1,"distance":\#(distance),"velocity":\#(velocity),"outcome":"blocked"}"#
      )
    }
    let journal = Journal(name: "pans.ndjson", bytes: Array((lines.joined(separator: "\n") + "\n").utf8))
    let slices = try Self.chrome(journal).filter { $0["ph"] as? String == "X" && $0["name"] as? String != nil }
    let pans = slices.filter { ($0["args"] as? [String: Any])?["distance"] != nil }
    #expect(pans.count == numbers.count, "\(slices)")
    for slice in pans {
      let dur = try #require(slice["dur"] as? NSNumber).doubleValue
      #expect(dur >= 0, "\(slice)")
    }
  }

  @Test func chromeHeaderComesFirstAndTheRootThreadSortsFirst() throws {
    let journal = try #require(Self.journals.first { $0.name == "notes.intended.ndjson" })
    let bytes = TraceWriter.document(format: .chrome, runs: [(journal.name, Self.items(journal))])
    let text = String(decoding: bytes, as: UTF8.self)
    #expect(
      text.hasPrefix(#"{"displayTimeUnit":"ms","otherData":{"generator":"spatial-replay trace"},"traceEvents":["#))
    let events = try Self.chrome(journal)
    let process = events.first { $0["name"] as? String == "process_name" }
    #expect((process?["args"] as? [String: Any])?["name"] as? String == "session NOTES-7F3A, Notes, build 3.2 (41)")
    var names: [Int: String] = [:]
    var order: [Int: Int] = [:]
    for event in events where event["ph"] as? String == "M" {
      let args = event["args"] as! [String: Any]
      if let name = args["name"] as? String, event["name"] as? String == "thread_name" {
        names[event["tid"] as! Int] = name
      }
      if let index = args["sort_index"] as? Int, event["name"] as? String == "thread_sort_index" {
        order[event["tid"] as! Int] = index
      }
    }
    let first = try #require(order.min { $0.value < $1.value }?.key)
    #expect(names[first] == "list (NotesListViewController)")
    #expect(Set(names.values).contains("pans"))
    // Every key is ASCII.
    for event in events { #expect(event.keys.allSatisfy { $0.allSatisfy(\.isASCII) }) }
  }

  @Test func chromeDrawsTwoRunsAsTwoProcesses() throws {
    let a = try #require(Self.journals.first { $0.name == "cycle.intended.ndjson" })
    let b = try #require(Self.journals.first { $0.name == "cycle.legacy.ndjson" })
    let bytes = TraceWriter.document(format: .chrome, runs: [(a.name, Self.items(a)), (b.name, Self.items(b))])
    let document = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
    let events = try #require(document["traceEvents"] as? [[String: Any]])
    let pids = Set(events.compactMap { $0["pid"] as? Int })
    #expect(pids == [1, 2])
    let aVisits = events.filter { $0["pid"] as? Int == 1 && Self.beginsVisit($0) }
    let bVisits = events.filter { $0["pid"] as? Int == 2 && Self.beginsVisit($0) }
    #expect(aVisits.count == Self.visits(a).count)
    #expect(bVisits.count == Self.visits(b).count)
  }

  @Test func chromeSelectionDrawsOnlyTheControllersAsked() throws {
    let journal = try #require(Self.journals.first { $0.name == "notes.legacy.ndjson" })
    let events = try Self.chrome(journal, selection: TraceSelection(controllers: ["compose"]))
    let threads = events.filter { $0["name"] as? String == "thread_name" }.compactMap {
      ($0["args"] as? [String: Any])?["name"] as? String
    }
    #expect(threads.contains("compose (ComposeViewController)"))
    #expect(!threads.contains { $0.hasPrefix("list ") })
    let visits = events.filter(Self.beginsVisit)
    #expect(visits.count == Self.visits(journal).filter { $0.controller == "compose" }.count)
  }

  // MARK: OTLP

  static func spans(_ journal: Journal) throws -> [[String: Any]] {
    let bytes = TraceWriter.document(format: .otlp, runs: [(journal.name, items(journal))], version: "test")
    var spans: [[String: Any]] = []
    for line in bytes.split(separator: UInt8(ascii: "\n")) {
      let data = try #require(try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any])
      for resource in data["resourceSpans"] as! [[String: Any]] {
        for scope in resource["scopeSpans"] as! [[String: Any]] { spans += scope["spans"] as! [[String: Any]] }
      }
    }
    return spans
  }

  static func attributes(_ span: [String: Any]) -> [String: Any] {
    var out: [String: Any] = [:]
    for attribute in span["attributes"] as? [[String: Any]] ?? [] {
      out[attribute["key"] as! String] = (attribute["value"] as! [String: Any]).values.first
    }
    return out
  }

  @Test(arguments: journals)
  func otlpVisitSpansAreTheVisitsTable(_ journal: Journal) throws {
    let spans = try Self.spans(journal)
    let roots = spans.filter { $0["parentSpanId"] == nil }
    #expect(roots.count == 1)
    let root = try #require(roots.first)
    #expect(root["name"] as? String == "session")
    let visits = spans.filter { $0["parentSpanId"] != nil }
    #expect(visits.allSatisfy { $0["parentSpanId"] as? String == root["spanId"] as? String })
    #expect(Set(spans.map { $0["traceId"] as! String }).count == 1)
    #expect(Set(spans.map { $0["spanId"] as! String }).count == spans.count)
    let table = Self.visits(journal)
    #expect(visits.count == table.count)
    var byVisit: [String: [String: Any]] = [:]
    for span in visits {
      let a = Self.attributes(span)
      byVisit["\(a["screen.name"]!) \(a["visit.number"]!)"] = span
    }
    for visit in table {
      let span = try #require(byVisit["\(visit.controller) \(visit.number)"])
      #expect(span["startTimeUnixNano"] as? String == Self.otlpNanos(visit.startTime))
      #expect(span["endTimeUnixNano"] as? String == Self.otlpNanos(visit.endTime))
      #expect(Self.attributes(span)["screen.class"] as? String == visit.className)
      #expect(Self.attributes(span)["visit.complete"] as? Bool == visit.isComplete)
      #expect(span["kind"] as? Int == 1)
      // An incomplete visit's span is an error that says what is missing.
      if !visit.isComplete {
        let status = try #require(span["status"] as? [String: Any], "\(span)")
        #expect(status["code"] as? Int == 2)
        let message = try #require(status["message"] as? String)
        #expect(message.hasPrefix("incomplete visit: no didAppear after the willAppear at seq \(visit.startSeq)"))
      }
    }
  }

  /// A visit's span holds the willDisappear that ended it (and the didDisappear after): they are not
  /// left for the controller's next visit, nor for the root.
  @Test(arguments: journals)
  func otlpVisitSpansHoldTheWillDisappearThatEndedThem(_ journal: Journal) throws {
    var willDisappears: Set<Int> = []
    for item in Self.items(journal) {
      if case .record(let record, _, _) = item, case .lifecycle(_, .willDisappear) = record.event {
        willDisappears.insert(record.seq)
      }
    }
    var checked = 0
    for span in try Self.spans(journal) where span["parentSpanId"] != nil && span["droppedEventsCount"] == nil {
      guard let end = (Self.attributes(span)["visit.end_seq"] as? String).flatMap(Int.init),
        willDisappears.contains(end)
      else { continue }
      let seqs = (span["events"] as? [[String: Any]] ?? []).compactMap {
        (Self.attributes($0)["journal.seq"] as? String).flatMap(Int.init)
      }
      #expect(seqs.contains(end), "\(span["name"]!) ended at seq \(end) without its willDisappear: \(seqs)")
      checked += 1
    }
    #expect(checked > 0 || willDisappears.isEmpty)
  }

  /// A span that keeps 128 events says which it dropped (`dropped.events`, as many as `droppedEventsCount`).
  @Test(arguments: journals)
  func otlpDroppedEventsAreNamed(_ journal: Journal) throws {
    for span in try Self.spans(journal) {
      let named = Self.attributes(span)["dropped.events"] as? String
      guard let dropped = span["droppedEventsCount"] as? Int else {
        #expect(named == nil)
        continue
      }
      let text = try #require(named, "\(span["name"]!) drops \(dropped) events without naming them")
      let counts = text.split(separator: ", ").map { Int($0.split(separator: " ")[0])! }
      #expect(counts.reduce(0, +) == dropped, "\(text)")
    }
  }

  /// Past 128 events a span drops the rest, and says which: a visit of 200 pans keeps 126 of them, the root
  /// 128 of the 200 pans of a controller never visited.
  @Test func otlpDroppedEventsAreNamedWhereTheyWereDropped() throws {
    var events: [Event] = [.alloc(controller: "a", className: "A"), .alloc(controller: "z", className: "Z")]
    events += [.lifecycle(controller: "a", callback: .willAppear), .lifecycle(controller: "a", callback: .didAppear)]
    let pan = { (id: ControllerID) in
      Event.pan(Pan(controller: id, direction: .left, touches: 1, distance: 10, velocity: 100, outcome: .snapBack))
    }
    events += Array(repeating: pan("a"), count: 200) + Array(repeating: pan("z"), count: 200)
    let items = events.enumerated().map { seq, event in
      JournalItem.record(
        Record(seq: seq, time: Timestamp(microseconds: Timestamp.modelEpoch.microseconds + Int64(seq)), event: event),
        line: seq + 1, offset: 0)
    }
    var spans: [[String: Any]] = []
    for line in try Self.otlpLines(items) {
      for resource in line["resourceSpans"] as! [[String: Any]] {
        for scope in resource["scopeSpans"] as! [[String: Any]] { spans += scope["spans"] as! [[String: Any]] }
      }
    }
    let visit = try #require(spans.first { $0["name"] as? String == "A" })
    #expect(visit["droppedEventsCount"] as? Int == 76)
    #expect(Self.attributes(visit)["dropped.events"] as? String == "76 pan")
    let root = try #require(spans.first { $0["name"] as? String == "session" })
    #expect(root["droppedEventsCount"] as? Int == 72)
    #expect(Self.attributes(root)["dropped.events"] as? String == "72 pan")
  }

  @Test(arguments: journals)
  func otlpFindingsSetTheirSpansStatusToError(_ journal: Journal) throws {
    let spans = try Self.spans(journal)
    var findings = 0
    for span in spans {
      let events = span["events"] as? [[String: Any]] ?? []
      let own = events.filter { $0["name"] as? String == "finding" }
      findings += own.count
      let status = span["status"] as? [String: Any]
      let incomplete = Self.attributes(span)["visit.complete"] as? Bool == false
      #expect(
        (status?["code"] as? Int == 2) == (!own.isEmpty || incomplete) || (span["droppedEventsCount"] != nil),
        "\(span)")
      #expect(events.count <= OTLPTraceEncoder.eventLimit)
    }
    var check = JournalCheck()
    var all: [CheckFinding] = []
    for item in Self.items(journal) { check.consume(item, into: &all) }
    check.finish(into: &all)
    // Every finding is an event unless a span's limit dropped it.
    let dropped = spans.reduce(0) { $0 + ($1["droppedEventsCount"] as? Int ?? 0) }
    #expect(findings <= all.count && findings + dropped >= all.count)
  }

  /// A time before 1970 or after 2554 is written as the nearest end of OTLP's range, never trapped
  /// on (a time after 2262 overflowed) nor negative (which OTLP's parser refuses); in range, exact.
  @Test func otlpTimesOutsideItsRangeAreItsEnds() throws {
    let journal = try #require(Self.journals.first { $0.name == Self.extremeTimes })
    let spans = try Self.spans(journal)
    let root = try #require(spans.first { $0["parentSpanId"] == nil })
    #expect(root["startTimeUnixNano"] as? String == "0")
    #expect(root["endTimeUnixNano"] as? String == "18446744073709551000")
    var times: [String] = []
    for span in spans {
      times += [span["startTimeUnixNano"] as! String, span["endTimeUnixNano"] as! String]
      times += (span["events"] as? [[String: Any]] ?? []).map { $0["timeUnixNano"] as! String }
    }
    #expect(times.allSatisfy { !$0.hasPrefix("-") && UInt64($0) != nil }, "\(times)")
    // 1969 (before the range), 2300 (in it: 10,442,509,200 seconds and more) and 9999 (past it) all appear.
    #expect(times.contains("0"))
    #expect(times.contains { $0.hasPrefix("1044250") && $0.count == 20 })
    #expect(times.contains("18446744073709551000"))
  }

  @Test func otlpTraceIDIsDerivedFromTheSessionID() throws {
    let journal = try #require(Self.journals.first { $0.name == "notes.legacy.ndjson" })
    let digest = SHA256.hash(Array("session\u{0}NOTES-7F3A".utf8))
    let hex = digest[0..<16].map {
      String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16)
    }
    let spans = try Self.spans(journal)
    #expect(spans.allSatisfy { $0["traceId"] as? String == hex.joined() })
    #expect(spans.allSatisfy { ($0["spanId"] as! String).count == 16 })
    // Stable: the same journal gives the same bytes.
    let again = try Self.spans(journal)
    #expect(again.map { $0["spanId"] as! String } == spans.map { $0["spanId"] as! String })
  }

  /// Two controllers taking turns on screen, `visits` visits in all, with the session header
  /// after the record at `headerAt` (or first).
  static func turns(visits: Int, headerAt: Int = -1) -> [JournalItem] {
    let header = Event.session(SessionHeader(session: "turns", app: "Turns", build: "42", device: "Phone"))
    var events: [Event] = [.alloc(controller: "a", className: "A"), .alloc(controller: "b", className: "B")]
    for k in 0..<visits {
      let (shown, hidden): (ControllerID, ControllerID) = k % 2 == 0 ? ("a", "b") : ("b", "a")
      if k > 0 {
        events.append(.lifecycle(controller: hidden, callback: .willDisappear))
        events.append(.lifecycle(controller: hidden, callback: .didDisappear))
      }
      events.append(.lifecycle(controller: shown, callback: .willAppear))
      events.append(.lifecycle(controller: shown, callback: .didAppear))
    }
    events.insert(header, at: headerAt + 1)
    return events.enumerated().map { seq, event in
      let time = Timestamp(microseconds: Timestamp.modelEpoch.microseconds + Int64(seq) * 1000)
      return .record(Record(seq: seq, time: time, event: event), line: seq + 1, offset: 0)
    }
  }

  /// The OTLP lines of `items`, each a JSON object.
  static func otlpLines(_ items: [JournalItem]) throws -> [[String: Any]] {
    let bytes = TraceWriter.document(format: .otlp, runs: [("turns.ndjson", items)], version: "test")
    #expect(bytes.last == UInt8(ascii: "\n"))
    return try bytes.split(separator: UInt8(ascii: "\n")).map {
      try #require(try JSONSerialization.jsonObject(with: Data($0)) as? [String: Any])
    }
  }

  /// The resource attributes of a `TracesData` line, and the spans it holds.
  static func resourceAndSpans(_ line: [String: Any]) throws -> (resource: [String: Any], spans: Int) {
    let resources = try #require(line["resourceSpans"] as? [[String: Any]])
    #expect(resources.count == 1)
    let resource = Self.attributes(try #require(resources.first?["resource"] as? [String: Any]))
    let scopes = try #require(resources.first?["scopeSpans"] as? [[String: Any]])
    return (resource, scopes.reduce(0) { $0 + (($1["spans"] as? [Any])?.count ?? 0) })
  }

  @Test(arguments: [-1, 40])
  func otlpLinesOfManySpansEachCarryTheSessionsResource(headerAt: Int) throws {
    // 1,300 visits and the root: three lines of at most 512 spans; the header first, or after
    // the first visits' spans were gathered (the line they are in still names the session).
    let lines = try Self.otlpLines(Self.turns(visits: 1300, headerAt: headerAt))
    #expect(lines.count == 3)
    var spans = 0
    for line in lines {
      let (resource, count) = try Self.resourceAndSpans(line)
      #expect(resource["service.name"] as? String == "Turns")
      #expect(resource["service.version"] as? String == "42")
      #expect(resource["session.id"] as? String == "turns")
      #expect(count <= 512)
      spans += count
    }
    #expect(spans == 1301)
  }
}

/// The command line of `trace`: its options, its output, its statuses.
@Suite struct TraceCLITests {
  @Test func needsAFormatAndRefusesTypes() throws {
    let journal = Repository.journals + "/notes.intended.ndjson"
    let results = try Binary.runAll([
      (["trace", journal], []), (["trace", "--format", "chrome", "--type", "move", journal], []),
      (["trace", "--format", "chrome", journal, journal, journal], []),
    ])
    #expect(results[0].status == 64 && results[0].stderr.contains("trace needs --format"), "\(results[0])")
    #expect(results[1].status == 64 && results[1].stderr.contains("--type"), "\(results[1])")
    #expect(results[2].status == 64, "\(results[2])")
  }

  @Test func writesTheFileGivenAndMatchesTheExportedVisits() throws {
    let directory = try TemporaryDirectory()
    let journal = Repository.journals + "/demo.intended.ndjson"
    let out = directory.path + "/spans.jsonl"
    let results = try Binary.runAll([
      (["trace", "--format", "otlp", journal, "-o", out], []),
      (["export", "--table", "visits", journal], []),
      (["trace", "--format", "otlp", "--controller", "home", journal], []),
      (["export", "--table", "visits", "--controller", "home", journal], []),
      (["trace", "--format", "chrome", "--controller", "hom", journal], []),
    ])
    #expect(results[0].status == 0 && results[0].stdout.isEmpty, "\(results[0])")
    let text = try directory.text(out)
    func spanCount(_ text: String) -> Int { text.components(separatedBy: #""key":"screen.name""#).count - 1 }
    #expect(spanCount(text) == results[1].stdout.split(separator: "\n").count)
    #expect(spanCount(results[2].stdout) == results[3].stdout.split(separator: "\n").count)
    #expect(spanCount(results[2].stdout) > 0)
    #expect(results[4].status == 64 && results[4].stderr.contains("did you mean home?"), "\(results[4])")
  }

  /// A storm of one rule (1,500 blank lines) draws 1,000 of its findings and one instant for the
  /// 500 others: a gzip of 22 kB holding 20M blank lines made a 3.7 GB trace.
  @Test func aStormOfOneRuleIsCountedNotDrawn() throws {
    let lines = try String(contentsOfFile: Repository.journals + "/notes.intended.ndjson", encoding: .utf8)
      .split(separator: "\n", omittingEmptySubsequences: false)
    let storm =
      lines.prefix(5).joined(separator: "\n") + String(repeating: "\n", count: 1_501)
      + lines.dropFirst(5).joined(separator: "\n")
    let result = try Binary.run(["trace", "--format", "chrome", "-"], stdin: storm)
    #expect(result.status == 0, "\(result.stderr)")
    let object = try JSONSerialization.jsonObject(with: Data(result.stdoutBytes)) as? [String: Any]
    let events = try #require(object?["traceEvents"] as? [[String: Any]])
    let drawn = events.filter { $0["cat"] as? String == "finding" && $0["name"] as? String == "blank-line" }
    #expect(drawn.count == 1_000)
    let rest = events.filter { ($0["name"] as? String)?.hasSuffix("findings not drawn") == true }
    #expect(rest.count == 1)
    #expect(rest.first?["name"] as? String == "500 more blank-line findings not drawn")
    #expect((rest.first?["args"] as? [String: Any])?["omitted"] as? Int == 500)
  }

  /// `-o` writes the bytes of standard output, synced (`--durable`) or not, over a file that was
  /// there; `--durable` without `-o` is a usage error.
  @Test(arguments: ["chrome", "otlp"])
  func theFileIsWhatStandardOutputGetsDurableOrNot(format: String) throws {
    let directory = try TemporaryDirectory()
    // Churn: a few megabytes of trace, several of the writing thread's chunks.
    let journal = directory.file("churn.ndjson")
    let made = try Binary.run(["simulate", "--shape", "churn", "--events", "20000", "--seed", "5", "-o", journal])
    #expect(made.status == 0, "\(made)")
    let plain = directory.file("plain.json")
    let durable = try directory.write("durable.json", "an older trace\n")
    let results = try Binary.runAll([
      (["trace", "--format", format, journal], []),
      (["trace", "--format", format, journal, "-o", plain], []),
      (["trace", "--format", format, "--durable", journal, "-o", durable], []),
      (["trace", "--format", format, "--durable", journal], []),
    ])
    for k in 0..<3 { #expect(results[k].status == 0, "\(results[k])") }
    #expect(results[0].stdoutBytes.count > 2 << 20)
    #expect(try directory.read(plain) == results[0].stdoutBytes)
    #expect(try directory.read(durable) == results[0].stdoutBytes)
    #expect(results[3].status == 64 && results[3].stderr.contains("--durable"), "\(results[3])")
    let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    #expect(names == ["churn.ndjson", "durable.json", "plain.json"])
  }
}
