import Foundation
import Journal
import Projection
import Testing

@testable import TestSupport

/// `at --controller` and `at --alive`: on a long session the list of every
/// controller ever allocated is thousands of lines of deallocated ones; these
/// list the few asked for, in text and JSON, and the rest of the state stays whole.
@Suite struct CLIAtListingTests {
  /// A churn session: controllers come and go, so most of those allocated are deallocated at the end.
  static func churn(_ directory: TemporaryDirectory) throws -> String {
    let path = directory.file("churn.ndjson")
    let made = try Binary.run(["simulate", "--events", "3000", "--seed", "3", "--shape", "churn", "-o", path])
    try #require(made.status == 0, "\(made)")
    return path
  }

  /// The controller lines of `at`'s text: the indented lines between `controllers:` and the map.
  static func controllerLines(_ text: String) -> [Substring] {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    guard let start = lines.firstIndex(where: { $0.hasPrefix("controllers: ") }) else { return [] }
    return Array(lines[(start + 1)...].prefix { $0.hasPrefix("  ") })
  }

  static func json(_ text: String) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
  }

  @Test func aliveListsOnlyTheLivingAndSaysHowMany() throws {
    let directory = try TemporaryDirectory()
    let path = try Self.churn(directory)
    let whole = try Binary.run(["at", path, "2999"])
    let alive = try Binary.run(["at", "--alive", path, "2999"])
    #expect(alive.status == 0 && alive.stderr.isEmpty, "\(alive)")
    let all = Self.controllerLines(whole.stdout)
    let living = Self.controllerLines(alive.stdout)
    #expect(all.contains { $0.contains("deallocated at seq") }, "the churn session deallocates controllers")
    #expect(!living.isEmpty && !living.contains { $0.contains("deallocated at seq") }, "\(alive.stdout)")
    #expect(living == all.filter { !$0.contains("deallocated at seq") }, "the same lines, the dead left out")
    #expect(alive.stdout.contains("controllers: \(all.count) (\(living.count) alive), \(living.count) listed\n"))
    // The state's other lines and the map are the whole state's.
    #expect(alive.stdout.hasPrefix(whole.stdout.components(separatedBy: "controllers: ")[0]))
    #expect(alive.stdout.hasSuffix(whole.stdout.components(separatedBy: "\nmap:\n").last ?? ""))

    let json = try Self.json(try Binary.run(["at", "--json", "--alive", path, "2999"]).stdout)
    let controllers = try #require(json["controllers"] as? [[String: Any]])
    #expect(controllers.count == living.count)
    #expect(controllers.allSatisfy { $0["alive"] as? Bool == true })
    #expect(json["map"] != nil && json["focus"] != nil)
  }

  @Test func controllerListsTheIDsGivenCommaSeparatedOrRepeated() throws {
    let directory = try TemporaryDirectory()
    let path = try Self.churn(directory)
    let given = ["ComposeViewController#1", "HomeViewController#1"]
    let comma = try Binary.run(["at", "--controller", given.joined(separator: ","), path, "2999"])
    let repeated = try Binary.run(["at", "--controller", given[1], "--controller", given[0], path, "2999"])
    #expect(comma.status == 0 && comma.stderr.isEmpty, "\(comma)")
    #expect(repeated.stdout == comma.stdout)
    let lines = Self.controllerLines(comma.stdout)
    #expect(lines.map { $0.split(separator: ":")[0].trimmingCharacters(in: .whitespaces) }.sorted() == given)
    #expect(comma.stdout.contains(", 2 listed\n"), "\(comma.stdout)")
    // Both: the ids given that are alive (ComposeViewController#1 was deallocated at seq 812).
    let both = try Binary.run(["at", "--alive", "--controller", given.joined(separator: ","), path, "2999"])
    #expect(Self.controllerLines(both.stdout).map { $0.hasPrefix("  HomeViewController#1: ") } == [true])

    let json = try Self.json(
      try Binary.run(["at", "--json", "--controller", given.joined(separator: ","), path, "2999"]).stdout)
    let ids = try #require(json["controllers"] as? [[String: Any]]).compactMap { $0["id"] as? String }
    #expect(ids.sorted() == given)
  }

  @Test func anIDTheJournalNeverAllocatesIsAUsageErrorWithASuggestion() throws {
    let notes = Repository.journals + "/notes.legacy.ndjson"
    let typo = try Binary.run(["at", "--controller", "compse", notes, "60"])
    #expect(typo.status == 64 && typo.stdout.isEmpty, "\(typo)")
    #expect(
      typo.stderr.hasPrefix(
        "spatial-replay: error: --controller: \(notes) allocates no controller 'compse' (did you mean compose?)\n"),
      "\(typo)")
    let nobody = try Binary.run(["at", "--json", "--alive", "--controller", "list,nobody", notes, "60"])
    #expect(nobody.status == 64 && nobody.stderr.contains("allocates no controller 'nobody'\n"), "\(nobody)")
    let aClass = try Binary.run(["at", "--controller", "NoteEditorViewController", notes, "60"])
    #expect(aClass.status == 64, "\(aClass)")
    #expect(aClass.stderr.contains("(a class; did you mean its controller editor?)"), "\(aClass)")
  }

  @Test func anIDAllocatedAfterTheEventIsNotAllocatedYet() throws {
    let notes = Repository.journals + "/notes.legacy.ndjson"
    let text = try Binary.run(["at", "--controller", "compose,list", notes, "5"])
    #expect(text.status == 0 && text.stderr.isEmpty, "\(text)")
    #expect(text.stdout.contains("\n  compose: not allocated yet (allocated at seq 29)\n"), "\(text.stdout)")
    let json = try Binary.run(["at", "--json", "--controller", "compose", notes, "5"])
    #expect(json.status == 0, "\(json)")
    #expect(try #require(try Self.json(json.stdout)["controllers"] as? [Any]).isEmpty)
    #expect(
      json.stderr
        == "spatial-replay: warning: --controller: 'compose' is not allocated yet after seq 5 (it is at seq 29)\n")
  }
}
