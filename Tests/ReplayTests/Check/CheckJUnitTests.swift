import Journal
import Projection
import Testing

@testable import TestSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `check --format junit` as CI dashboards count it: a journal is a test
/// suite, each error finding a failing test case of its own, and a clean
/// journal one passing case (a suite is never empty).
@Suite struct CheckJUnitTests {
  static let python: String? = ["/usr/bin/python3", "/usr/local/bin/python3"].first { access($0, X_OK) == 0 }

  @Test func eachErrorFindingIsAFailingTestCaseOfItsOwn() throws {
    let dir = try TemporaryDirectory()
    let path = try CheckCLITests.write(CheckCLITests.legacyMove, .legacy, in: dir)
    let result = try Binary.run(["check", "--format", "junit", path])
    #expect(result.status == 1, "\(result)")
    func failing(_ rule: String, _ line: Int, _ message: String) -> String {
      """
          <testcase classname="\(path)" name="\(rule) at line \(line)">
            <failure type="\(rule)" message="\(message)">\(path):\(line): error: \(message) [\(rule)]</failure>
          </testcase>

      """
    }
    let expected =
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <testsuites name="spatial-replay check" tests="5" failures="4" errors="0">
        <testsuite name="\(path)" tests="5" failures="4" errors="0" skipped="0">
          <testcase classname="\(path)" name="journal reads"/>

      """
      + failing(
        "incomplete-transition", 7,
        "missing home willAppear, home didAppear when the next move starts (in initial display at seq 3: home)")
      + failing("appear-before-load", 8, "home: willDisappear before didLoad (in move at seq 6: home → notes)")
      + failing("will-repeated", 11, "notes: willAppear while already appearing (in move at seq 6: home → notes)")
      + failing(
        "incomplete-transition", 11,
        "missing notes didAppear at the end of the journal (in move at seq 6: home → notes)")
        + """
          </testsuite>
        </testsuites>

        """
    #expect(result.stdout == expected)
  }

  @Test func everyJournalIsASuiteAndACleanOneHasOnePassingCase() throws {
    let dir = try TemporaryDirectory()
    let legacy = try CheckCLITests.write(CheckCLITests.legacyMove, .legacy, in: dir, "legacy.ndjson")
    let intended = try CheckCLITests.write(CheckCLITests.legacyMove, .intended, in: dir, "intended.ndjson")
    let crlf = try dir.write(
      "crlf.ndjson", #"{"seq":0,"time":"2026-01-01T00:00:00.000000Z","type":"session","v":1,"session":"S"}"# + "\r\n")
    let missing = dir.file("missing.ndjson")
    let result = try Binary.run(["check", "--format", "junit", intended, legacy, crlf, missing])
    #expect(result.status == 2, "\(result)")
    let xml = result.stdout
    #expect(xml.contains(#"<testsuites name="spatial-replay check" tests="8" failures="4" errors="1">"#), "\(xml)")
    for (path, tests, failures, errors) in [
      (intended, 1, 0, 0), (legacy, 5, 4, 0), (crlf, 1, 0, 0), (missing, 1, 0, 1),
    ] {
      #expect(
        xml.contains(
          "  <testsuite name=\"\(path)\" tests=\"\(tests)\" failures=\"\(failures)\" errors=\"\(errors)\" skipped=\"0\">\n"
            + "    <testcase classname=\"\(path)\" name=\"journal reads\""), "\(path)\n\(xml)")
    }
    #expect(xml.components(separatedBy: "<testsuite ").count == 5, "a suite per journal")
    #expect(xml.components(separatedBy: "<testcase ").count == 9, "a case per error finding, one per journal")
    #expect(xml.contains("    <testcase classname=\"\(intended)\" name=\"journal reads\"/>\n  </testsuite>\n"))
    // Warnings are no test: they go with the journal's passing case.
    #expect(xml.contains("line ends with \\r\\n instead of \\n [crlf]</system-out>"), "\(xml)")
    #expect(xml.contains("<error type=\"unreadable\" message=\"cannot open: No such file or directory\"/>"))

    // Well-formed XML whose counts agree with its cases, as a parser reads it.
    guard let python = Self.python else { return }
    let file = try dir.write("check.xml", xml)
    let script = """
      import sys, xml.etree.ElementTree as E
      root = E.parse(sys.argv[1]).getroot()
      for s in root:
          cases = s.findall('testcase')
          ok = int(s.get('tests')) == len(cases) and int(s.get('failures')) == sum(len(c.findall('failure')) for c in cases)
          print(s.get('name').rsplit('/', 1)[-1], len(cases), ok)
      """
    let parsed = try Shell.run([python, "-c", script, file])
    #expect(parsed == "intended.ndjson 1 True\nlegacy.ndjson 5 True\ncrlf.ndjson 1 True\nmissing.ndjson 1 True\n")
  }

  /// A line feed in a file name is a character reference in the attributes that name it: an XML
  /// parser turns a literal one into a space, and the name read back would be another file's.
  @Test func aLineFeedInAFileNameSurvivesTheAttributes() throws {
    let dir = try TemporaryDirectory()
    let path = try dir.write(
      "a\nb.ndjson", try String(contentsOfFile: CheckJournals.directory + "/notes.legacy.ndjson", encoding: .utf8))
    let result = try Binary.run(["check", "--format", "junit", path])
    #expect(result.status == 1, "\(result.stderr)")
    let escaped = path.replacingOccurrences(of: "\n", with: "&#10;")
    #expect(result.stdout.contains("<testsuite name=\"\(escaped)\""), "\(result.stdout.prefix(400))")
    #expect(result.stdout.contains("classname=\"\(escaped)\""))
    #expect(!result.stdout.contains("name=\"\(path)"), "no attribute holds the line feed itself")
  }
}
