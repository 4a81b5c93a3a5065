import Foundation
import Journal
import Testing

@testable import Projection
@testable import Rendering

/// `stats --by`: journals grouped by header fields, a missing field as the null group.
@Suite struct StatsGroupsTests {
  /// A journal's stats with these header fields, `events` events and one controller's dwell.
  static func session(
    build: String?, device: String? = nil, events: Int, dwellMs: Int64, rule: String? = nil
  ) -> SessionStats {
    var s = SessionStats()
    s.build = build
    s.device = device
    s.events = events
    s.eventsByType = ["session": 1, "lifecycle": events - 1]
    s.controllers = [
      .init(controller: "home", className: "Home", visits: 1, dwellMicroseconds: dwellMs * 1000, openVisits: 0)
    ]
    if let rule {
      s.findingsByRule[rule] = 1
      s.errors = 1
    }
    return s
  }

  static var fleet: StatsGroups {
    var groups = StatsGroups(by: [.build, .device])
    groups.add(session(build: "3.2 (41)", device: "iPad", events: 10, dwellMs: 5))
    groups.add(session(build: nil, device: "iPad", events: 20, dwellMs: 7, rule: "modal-leak"))
    groups.add(session(build: "3.10 (9)", device: nil, events: 30, dwellMs: 11))
    groups.add(session(build: "3.2 (41)", device: "iPad", events: 40, dwellMs: 13, rule: "modal-leak"))
    groups.add(session(build: "3.2 (41)", device: "Pixel", events: 50, dwellMs: 17))
    return groups
  }

  @Test func groupsAreSortedByTheirValuesInVersionOrderWithNullLast() {
    let groups = Self.fleet.groups
    #expect(groups.map(\.key) == [["3.2 (41)", "Pixel"], ["3.2 (41)", "iPad"], ["3.10 (9)", nil], [nil, "iPad"]])
    #expect(groups.map(\.stats.journals) == [1, 2, 1, 1])
    #expect(groups.map(\.stats.events) == [50, 50, 30, 20])
    #expect(groups.map { $0.stats.controllers.map(\.dwellMicroseconds) } == [[17000], [18000], [11000], [7000]])
    #expect(groups.map { $0.stats.findingsByRule["modal-leak"] ?? 0 } == [0, 1, 0, 1])
    #expect(Self.fleet.overall.journals == 5 && Self.fleet.overall.events == 150)
  }

  @Test func jsonHasTheKeysTheGroupsWithTheOverallFieldsAndTheOverall() throws {
    let json = Self.fleet.json
    #expect(json.hasPrefix(#"{"by":["build","device"],"groups":[{"key":{"build":"3.2 (41)","device":"Pixel"},"#))
    #expect(json.contains(#"{"key":{"build":null,"device":"iPad"},"file":null,"session":null,"#))
    let overallStart = try #require(json.range(of: #"],"overall":"#))
    let overallText = json[overallStart.upperBound...].dropLast()
    #expect(overallText.hasPrefix(#"{"file":null,"session":null,"app":null,"build":null,"device":null,"#))
    #expect(overallText.contains(#""journals":5,"events":150,"#))
    #expect(
      overallText.contains(
        #""controllers":[{"controller":"home","class":"Home","visits":5,"dwellMs":53.0,"openVisits":0,"incompleteVisits":0}]"#
      ))
  }

  @Test func csvIsOneRowPerGroupMeasureAndItemWithNullAsAnEmptyField() {
    var bytes: [UInt8] = []
    Self.fleet.writeCSV(to: &bytes)
    let lines = String(decoding: bytes, as: UTF8.self).components(separatedBy: "\r\n")
    #expect(lines[0] == "build,device,measure,item,value")
    #expect(lines[1] == "3.2 (41),Pixel,journals,,1")
    #expect(lines.contains("3.10 (9),,journals,,1"))
    #expect(lines.contains("3.2 (41),iPad,dwell_ms,home,18.0"))
    #expect(lines.contains("3.2 (41),iPad,findings_by_rule,modal-leak,1"))
    #expect(lines.contains(",iPad,events,,20"))
    #expect(lines.last == "", "every row ends with CRLF")
    let rows = Self.fleet.groups.map { StatsGroups.measures($0.stats).count }.reduce(0, +)
    #expect(lines.count == 1 + rows + 1, "the header, the rows, the empty string after the last CRLF")
  }

  /// Builds in the order `sort -V` gives them, not as bytes (`10.0` before `9.0`).
  @Test func buildsSortAsVersions() {
    var groups = StatsGroups(by: [.build])
    for build in ["10.0", "9.10", "9.0", "9.2"] { groups.add(Self.session(build: build, events: 2, dwellMs: 1)) }
    #expect(groups.groups.map(\.key) == [["9.0"], ["9.2"], ["9.10"], ["10.0"]])
  }

  @Test func versionOrderIsSortV() {
    let sorted = [
      "build-10.0.ndjson", "build-9.10.ndjson", "build-9.0.ndjson", "build-9.2.ndjson", "2.1 (88)", "2.1 (9)",
      "v1.0", "v1.0.1", "a", "b10", "b9", "01", "1",
    ].sorted { VersionOrder.precedes($0, $1) }
    #expect(
      sorted == [
        "01", "1", "2.1 (9)", "2.1 (88)", "a", "b9", "b10", "build-9.0.ndjson", "build-9.2.ndjson",
        "build-9.10.ndjson", "build-10.0.ndjson", "v1.0", "v1.0.1",
      ])
  }
}
