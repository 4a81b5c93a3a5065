import Journal
import Projection
import Testing

@testable import TestSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The fleet page (`report DIR`): builds in version order, every number of its
/// charts in `data-` attributes, nothing from a journal that becomes markup,
/// and in headless Chromium (`.ci/fleet_page_browser.py`) the numbers of
/// `stats --by build`, `paths` and `latency --group build`.
@Suite struct FleetPageTests {
  @Test func buildsAreInVersionOrder() {
    let builds: [String?] = ["10.0", nil, "9.10", "9.2", "9.0", "1.10b", "1.9b", "1.10a"]
    let sorted = builds.sorted { VersionOrder.precedes($0, $1) }
    #expect(sorted == ["1.9b", "1.10a", "1.10b", "9.0", "9.2", "9.10", "10.0", nil])
    #expect(!VersionOrder.precedes("9.2", "9.2"))
    #expect(VersionOrder.precedes("9.02", "9.2") != VersionOrder.precedes("9.2", "9.02"), "a strict order")
  }

  @Test func aFolderGivesTheFleetPageWithNothingFromAJournalAsMarkup() throws {
    let dir = try TemporaryDirectory()
    for (i, build) in ["9.10", "<script>alert(1)</script>", "9.2"].enumerated() {
      var simulation = Simulation(events: 1500, seed: UInt64(i + 1), profile: i == 1 ? .legacy : .intended)
      simulation.build = build
      _ = try dir.write("j\(i).ndjson", Simulator.journal(simulation))
    }
    let out = dir.file("fleet.html")
    let result = try Binary.run(["report", dir.path, "-o", out])
    #expect(result.status == 0, "\(result)")
    let page = try dir.text(out)
    #expect(page.contains("Content-Security-Policy") && page.contains("default-src 'none'"))
    #expect(!page.contains("<script"), "no script at all, and the build's text is escaped")
    #expect(page.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
    let order = ["data-build-item=\"9.2\"", "data-build-item=\"9.10\"", "data-build-item=\"&lt;script"]
    let positions = order.map { page.range(of: $0)?.lowerBound }
    #expect(positions.allSatisfy { $0 != nil })
    #expect(positions.compactMap { $0 } == positions.compactMap { $0 }.sorted())
    #expect(page.contains("data-rule-count"), "the legacy journal's findings")
    let filtered = try Binary.run(["report", dir.path, "--from", "3", "-o", out])
    #expect(filtered.status == 64 && filtered.stderr.contains("takes no filter"))
  }

  static let chromium: String? = ["/usr/lib/chromium/chromium", "/usr/bin/chromium"].first { access($0, X_OK) == 0 }
  static let python: String? = ["/usr/bin/python3", "/usr/local/bin/python3"].first { access($0, X_OK) == 0 }

  @Test(.enabled(if: chromium != nil && python != nil, "chromium or python3 is not installed"))
  func theFleetPageInHeadlessChromiumShowsTheCommandsNumbers() throws {
    let directory = try TemporaryDirectory()
    let output = try Shell.run([
      try #require(Self.python), Repository.root + "/.ci/fleet_page_browser.py", Binary.path, directory.path,
    ])
    #expect(output.hasSuffix(" passed, 0 failed\n"), "\(output)")
    #expect(!output.contains("FAIL"), "\(output)")
  }
}
