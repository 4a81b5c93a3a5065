import Foundation
import Journal
import Testing

@testable import Projection
@testable import Rendering
@testable import TestSupport

/// `paths` and `funnel --by build,device`: the results split by header fields
/// as `stats --by` splits its stats; `latency --percentiles`: the percentiles
/// asked, by nearest rank.
@Suite struct NavigationGroupsTests {
  /// Seven sessions: builds 3.1 and 3.10 on two devices, and one without build and device.
  static func fleet() throws -> (directory: TemporaryDirectory, journals: [(key: [String?], path: String)]) {
    let directory = try TemporaryDirectory()
    var journals: [(key: [String?], path: String)] = []
    let headers: [(String?, String?)] = [
      ("3.10", "Phone"), ("3.1", "Phone"), ("3.10", "Pad"), ("3.1", "Pad"), ("3.1", "Phone"), ("3.10", "Phone"),
      (nil, nil),
    ]
    for (i, (build, device)) in headers.enumerated() {
      let bytes = Simulator.journal(
        Simulation(events: 600, seed: UInt64(i + 1), session: "S\(i)", build: build, device: device))
      journals.append(([build, device], try directory.write("j\(i).ndjson", bytes)))
    }
    return (directory, journals)
  }

  /// A JSON value, written with sorted keys: two equal values are equal text.
  static func canonical(_ value: Any) throws -> String {
    let data = try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed])
    return String(decoding: data, as: UTF8.self)
  }

  static func object(_ result: Binary.Result) throws -> [String: Any] {
    #expect(result.status == 0, "\(result)")
    return try #require(try JSONSerialization.jsonObject(with: Data(result.stdoutBytes)) as? [String: Any])
  }

  /// Each group's results are those of the command run on the group's journals alone, in version
  /// order of the builds (3.1 before 3.10), the journal without the fields last; overall is the
  /// command on every journal.
  @Test(arguments: ["paths", "funnel"])
  func groupsAreTheResultsOfTheirJournalsAlone(_ command: String) throws {
    let (directory, journals) = try Self.fleet()
    // Screens that every group's journals hold: a step that none of a run's journals holds is a usage error.
    let options =
      command == "paths"
      ? ["--steps", "2", "--top", "0"] : ["--steps", "InboxViewController,MapViewController"]
    let field = command == "paths" ? "paths" : "steps"
    let keys: [[String?]] = [["3.1", "Pad"], ["3.1", "Phone"], ["3.10", "Pad"], ["3.10", "Phone"], [nil, nil]]
    var runs: [(arguments: [String], stdin: [UInt8])] = [
      ([command, "--by", "build,device", "--json"] + options + [directory.path], []),
      ([command, "--json"] + options + [directory.path], []),
    ]
    for key in keys {
      runs.append(([command, "--json"] + options + journals.filter { $0.key == key }.map(\.path), []))
    }
    let results = try Binary.runAll(runs)
    let grouped = try Self.object(results[0])
    #expect(grouped["by"] as? [String] == ["build", "device"])
    let groups = try #require(grouped["groups"] as? [[String: Any]], "\(results[0])")
    #expect(groups.count == keys.count)
    for (k, key) in keys.enumerated() where k < groups.count {
      let alone = try Self.object(results[2 + k])
      let groupKey = try #require(groups[k]["key"] as? [String: Any])
      #expect(groupKey["build"] as? String == key[0] && groupKey["device"] as? String == key[1], "\(groupKey)")
      #expect(try Self.canonical(groups[k][field]!) == Self.canonical(alone[field]!), "group \(key)")
      #expect(groups[k]["sessions"] as? Int == journals.filter { $0.key == key }.count)
    }
    let overall = try #require(grouped["overall"] as? [String: Any])
    let all = try Self.object(results[1])
    #expect(try Self.canonical(overall[field]!) == Self.canonical(all[field]!))
    #expect(overall["sessions"] as? Int == journals.count)
  }

  /// The text and CSV show the same groups: a block per group titled as `stats --by` titles its
  /// groups, then overall; CSV rows lead with the fields' values.
  @Test func textAndCSVAreSplitByTheFields() throws {
    let (directory, _) = try Self.fleet()
    let results = try Binary.runAll([
      (["paths", "--by", "build", "--steps", "2", "--top", "1", directory.path], []),
      (["paths", "--by", "device,controller", "--steps", "2", "--top", "1", "--format", "csv", directory.path], []),
      (["funnel", "--by", "device", "--steps", "HomeViewController", directory.path], []),
    ])
    #expect(results.allSatisfy { $0.status == 0 }, "\(results)")
    let titles = results[0].stdout.split(separator: "\n").filter {
      $0.contains(": ") && ($0.hasSuffix(" session") || $0.hasSuffix(" sessions"))
    }
    #expect(
      titles == ["build 3.1: 3 sessions", "build 3.10: 3 sessions", "build (none): 1 session", "overall: 7 sessions"],
      "\(results[0].stdout)")
    let csv = results[1].stdout.split(separator: "\r\n")
    #expect(csv.first == "device,count,sessions,step_1,step_2")
    #expect(
      csv.dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false)[0] } == ["Pad", "Phone", ""])
    let funnel = results[2].stdout.split(separator: "\n").filter { $0.hasSuffix("sessions") || $0.hasSuffix("session") }
    #expect(
      funnel == [
        "device Pad: 2 sessions", "device Phone: 4 sessions", "device (none): 1 session", "overall: 7 sessions",
      ])
  }

  @Test func byNamesAScreenOneWayAndEachFieldOnce() throws {
    let journal = Repository.journals + "/notes.intended.ndjson"
    let results = try Binary.runAll([
      (["paths", "--by", "class,controller", journal], []),
      (["funnel", "--by", "build,build", "--steps", "A", journal], []),
      (["latency", "--group", "build", "--by", "build", journal], []),
      (["paths", "--by", "bild", journal], []),
    ])
    #expect(results[0].status == 64 && results[0].stderr.contains("--by names a screen one way"), "\(results[0])")
    #expect(results[1].status == 64 && results[1].stderr.contains("--by names build twice"), "\(results[1])")
    #expect(results[2].status == 64 && results[2].stderr.contains("--group and --by both name build"), "\(results[2])")
    #expect(results[3].status == 64 && results[3].stderr.contains("did you mean build?"), "\(results[3])")
  }

  /// `latency --percentiles 50,95,99`: a column per percentile asked, by nearest rank of the values, and
  /// max, in text, JSON and CSV; without it, p50, p90, p99 and max as before.
  @Test func latencyShowsThePercentilesAsked() throws {
    let (directory, journals) = try Self.fleet()
    let results = try Binary.runAll([
      (["latency", "--percentiles", "50,95,99", "--json", directory.path], []),
      (["latency", "--percentiles", "50,95,99", "--format", "csv", directory.path], []),
      (["latency", "--percentiles", "50,95,99", directory.path], []),
      (["latency", "--format", "csv", directory.path], []),
      (["latency", "--percentiles", "99.9,0,100", "--json", directory.path], []),
      (["latency", "--percentiles", "101", directory.path], []),
      (["latency", "--percentiles", "95,95", directory.path], []),
    ])
    // The dwell of every visit of each class, from the journals, by nearest rank.
    var dwell: [String: [Int64]] = [:]
    for journal in journals {
      var builder = LatencyBuilder(key: .class)
      let reader = try JournalReader(path: journal.path)
      while let item = reader.next() { if case .record(let record, _, _) = item { builder.consume(record) } }
      builder.finish()
      for (screen, values) in builder.screens { dwell[screen.text, default: []] += values.dwell.values }
    }
    func nearestRank(_ values: [Int64], _ p: Double) -> String {
      let sorted = values.sorted()
      let rank = max(1, Int((Double(sorted.count) * p / 100).rounded(.up)))
      return Distribution.milliseconds(sorted[rank - 1])
    }
    let json = try Self.object(results[0])
    let screens = try #require(json["screens"] as? [[String: Any]])
    #expect(!screens.isEmpty)
    for screen in screens {
      let name = try #require(screen["screen"] as? String)
      let measure = try #require(screen["dwell"] as? [String: Any])
      #expect(measure.keys.sorted() == ["count", "max", "p50", "p95", "p99"])
      let values = try #require(dwell[name])
      for p in [50.0, 95, 99] {
        let got = try #require(measure["p\(Int(p))"] as? NSNumber)
        #expect(
          Distribution.milliseconds(Int64((got.doubleValue * 1000).rounded())) == nearestRank(values, p),
          "\(name) p\(p)")
      }
    }
    #expect(results[1].stdout.hasPrefix("screen,measure,count,p50_ms,p95_ms,p99_ms,max_ms\r\n"), "\(results[1])")
    #expect(results[2].stdout.contains("  p95 ") && !results[2].stdout.contains("  p90 "), "\(results[2])")
    #expect(results[3].stdout.hasPrefix("screen,measure,count,p50_ms,p90_ms,p99_ms,max_ms\r\n"), "\(results[3])")
    let extremes = try #require(try Self.object(results[4])["screens"] as? [[String: Any]])
    for screen in extremes {
      let measure = try #require(screen["dwell"] as? [String: Any])
      let values = try #require(dwell[screen["screen"] as! String]).sorted()
      let p0 = try #require(measure["p0"] as? NSNumber)
      let p100 = try #require(measure["p100"] as? NSNumber)
      #expect(Int64((p0.doubleValue * 1000).rounded()) == values.first)
      #expect(Int64((p100.doubleValue * 1000).rounded()) == values.last)
      #expect(measure["p99.9"] != nil)
    }
    #expect(results[5].status == 64 && results[5].stderr.contains("--percentiles takes numbers from 0 to 100"))
    #expect(results[6].status == 64 && results[6].stderr.contains("--percentiles names 95 twice"))
  }

  /// Percentiles in thousandths: 99.9 % of 1,000 values is the 999th (`Double` arithmetic made it the 1,000th).
  @Test func percentileRanksAreExact() throws {
    let values = Distribution((1...1000).map(Int64.init).reversed())
    let asked = try ["0", "50", "99.9", "99.95", "100", "12.5"].map { try #require(Percentile($0)) }
    let got = values.values(at: asked)
    #expect(got.percentiles == [1, 500, 999, 1000, 1000, 125])
    #expect(got.max == 1000 && got.count == 1000)
    #expect(asked.map(\.description) == ["0", "50", "99.9", "99.95", "100", "12.5"])
    for bad in ["", "-1", "100.001", "1e2", "50.", ".5", "99.9999", "abc", "1000"] {
      #expect(Percentile(bad) == nil, "\(bad)")
    }
    #expect(Distribution().values(at: asked).percentiles.allSatisfy { $0 == nil })
  }
}
