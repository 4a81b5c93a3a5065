import Foundation
import Journal
import Testing

@testable import TestSupport

/// Texts that differ only by Unicode normalization are different texts: the format says an id
/// is its bytes, and `check`, the tables and DuckDB keep them apart. Every command that groups
/// (sessions, screens, header values, partition folders) does too.
@Suite struct CanonicalEquivalenceTests {
  /// Two sessions, `K` (U+004B) and the KELVIN SIGN (U+212A), of builds `é` (U+00E9) and `e`+U+0301,
  /// whose root's class is `Café` spelled those two ways.
  static func journals(in dir: TemporaryDirectory) throws -> [String] {
    let spellings = [("K", "\u{E9}"), ("\u{212A}", "e\u{301}")]
    var paths: [String] = []
    for (k, (session, e)) in spellings.enumerated() {
      func line(_ seq: Int, _ body: String) -> String {
        #"{"seq":\#(seq),"time":"2026-01-01T00:00:0\#(seq).000000Z",\#(body)}"#
      }
      let lines = [
        line(0, #""type":"session","v":1,"session":"\#(session)","build":"\#(e)""#),
        line(1, #""type":"alloc","controller":"a","class":"Caf\#(e)""#),
        line(2, #""type":"alloc","controller":"b","class":"B""#),
        line(3, #""type":"root","controller":"a""#),
        line(4, #""type":"lifecycle","controller":"a","callback":"didLoad""#),
        line(5, #""type":"lifecycle","controller":"a","callback":"willAppear""#),
        line(6, #""type":"lifecycle","controller":"a","callback":"didAppear""#),
        line(7, #""type":"link","from":"a","direction":"left","to":"b""#),
        line(8, #""type":"lifecycle","controller":"b","callback":"didLoad""#),
        line(9, #""type":"move","from":"a","to":"b","direction":"left","trigger":"programmatic","animated":false"#),
      ]
      paths.append(try dir.write("j\(k).ndjson", lines.joined(separator: "\n") + "\n"))
    }
    return paths
  }

  static func json(_ arguments: [String]) throws -> [String: Any] {
    let result = try Binary.run(arguments)
    #expect(result.status == 0, "\(arguments): \(result)")
    return try #require(try JSONSerialization.jsonObject(with: Data(result.stdoutBytes)) as? [String: Any])
  }

  @Test func everyGroupingCommandKeepsThemApart() throws {
    let dir = try TemporaryDirectory()
    let paths = try Self.journals(in: dir)
    let funnel = try Self.json(["funnel", "--json", "--steps", "Caf\u{E9},B"] + paths)
    #expect(funnel["sessions"] as? Int == 2, "\(funnel)")
    let steps = try #require(funnel["steps"] as? [[String: Any]])
    #expect(steps.first?["sessions"] as? Int == 1, "only one session reached Café spelled U+00E9: \(steps)")
    let pathsOut = try Self.json(["paths", "--json", "--steps", "2"] + paths)
    let list = try #require(pathsOut["paths"] as? [[String: Any]])
    #expect(list.count == 2, "two paths: Café spelled two ways, then B: \(list)")
    let latency = try Self.json(["latency", "--json"] + paths)
    let screens = try #require(latency["screens"] as? [[String: Any]]).compactMap { $0["screen"] as? String }
    #expect(screens.filter { $0.hasPrefix("Caf") }.count == 2, "\(screens)")
    let stats = try Self.json(["stats", "--by", "build", "--json"] + paths)
    #expect((stats["groups"] as? [[String: Any]])?.count == 2, "\(stats)")
    let lake = dir.file("lake")
    let export = try Binary.run(["export", "--table", "events", "--partition", "session", "-o", lake] + paths)
    #expect(export.status == 0, "\(export)")
    let folders = try FileManager.default.contentsOfDirectory(atPath: lake).map { Array($0.utf8) }
    #expect(Set(folders).count == 2, "two folders, one per session: \(folders)")
  }
}
