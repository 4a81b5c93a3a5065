import Testing

@testable import TestSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The report's pages in a real browser: headless Chromium driven over the
/// DevTools protocol by `.ci/report_browser.py` (Python's standard library
/// only). For every bundled journal the DOM is held to `at --json` at the end
/// and at several `#seq=N`, the findings rows to `check --json`; the keys and
/// the fragment move the cursor; a hostile journal injects nothing; `report A
/// B` on the bisect series' builds 07 and 08 shows `diff --json`'s divergence
/// and hunks; and no page logs an error, throws, opens a dialog or makes a
/// network request. `.ci/run` installs Chromium, so CI always runs it.
/// With `SPATIAL_REPLAY_SCREENSHOTS=1` the screenshots are written into `docs/`.
@Suite struct ReportBrowserTests {
  static let chromium: String? = ["/usr/lib/chromium/chromium", "/usr/bin/chromium"].first { access($0, X_OK) == 0 }
  static let python: String? = ["/usr/bin/python3", "/usr/local/bin/python3"].first { access($0, X_OK) == 0 }

  /// The repository's root, above this file.
  static let root = Repository.root

  @Test(.enabled(if: chromium != nil && python != nil, "chromium or python3 is not installed"))
  func pagesInHeadlessChromium() throws {
    let directory = try TemporaryDirectory()
    let shots =
      getenv("SPATIAL_REPLAY_SCREENSHOTS").map { String(cString: $0) } == "1" ? Self.root + "/docs" : directory.path
    let output = try Shell.run([
      try #require(Self.python), Self.root + "/.ci/report_browser.py", "test", Binary.path, directory.path, shots,
    ])
    #expect(output.hasSuffix(" checks, 0 failures\n"), "\(output)")
    #expect(!output.contains("FAIL"), "\(output)")
  }
}
