import Journal
import Projection
import Testing

@testable import TestSupport
@testable import spatial_replay

#if canImport(Glibc)
  import Glibc
#endif

/// `spatial-replay record`, run as a process.
@Suite struct ScenarioRecordCommandTests {
  static let script = """
    session app=Notes
    controller home HomeViewController
    controller notes NotesViewController
    root home
    link home left notes
    pan left distance=120 velocity=300
    modal compose ComposeViewController down
    move up
    goToRoot
    """

  @Test func writesTheJournalOnStandardOutput() throws {
    let dir = try TemporaryDirectory()
    let path = try dir.write("notes.scenario", Self.script)
    for profile in Profile.allCases {
      let result = try Binary.run(["record", path, "--profile", profile.rawValue])
      #expect(result.status == 0, "\(result)")
      #expect(result.stderr == "")
      let expected = try ScenarioCompiler.record(Array(Self.script.utf8), script: path, profile: profile).journal
      #expect(result.stdoutBytes == expected)
      #expect(
        result.stdout.hasPrefix(#"{"seq":0,"time":"2026-01-01T00:00:00.000000Z","type":"session","v":1,"session":""#))
      #expect(result.stdout.contains(#""app":"Notes","profile":"\#(profile)","scenario":"notes"}"#))
    }
  }

  @Test func theDefaultProfileIsIntended() throws {
    let dir = try TemporaryDirectory()
    let path = try dir.write("notes.scenario", Self.script)
    let a = try Binary.run(["record", path])
    let b = try Binary.run(["record", "--profile=intended", path])
    #expect(a.status == 0 && b.status == 0)
    #expect(a.stdoutBytes == b.stdoutBytes)
  }

  @Test func writesAFileAtomically() throws {
    let dir = try TemporaryDirectory()
    let path = try dir.write("notes.scenario", Self.script)
    let out = dir.file("notes.legacy.ndjson")
    let result = try Binary.run(["record", path, "--profile", "legacy", "-o", out])
    #expect(result.status == 0, "\(result)")
    #expect(result.stdout == "" && result.stderr == "")
    let expected = try ScenarioCompiler.record(Array(Self.script.utf8), script: path, profile: .legacy).journal
    #expect(try dir.read(out) == expected)
    // No temporary file is left beside it.
    let again = try Binary.run(["record", path, "--output", out])
    #expect(again.status == 0)
    #expect(try dir.read(out) != expected)
    #expect(directoryEntries(dir.path) == ["notes.legacy.ndjson", "notes.scenario"])
  }

  @Test func aScriptErrorWritesNothing() throws {
    let dir = try TemporaryDirectory()
    let path = try dir.write("bad.scenario", "controller home H\nroot hme\n")
    let out = try dir.write("kept.ndjson", "old\n")
    let result = try Binary.run(["record", path, "-o", out])
    #expect(result.status == 2)
    #expect(result.stdout == "")
    #expect(result.stderr == "\(path):2: unknown controller 'hme' (did you mean 'home'?)\n")
    #expect(try dir.text(out) == "old\n")
    let toStdout = try Binary.run(["record", path])
    #expect(toStdout.status == 2 && toStdout.stdout == "")
  }

  /// An error after the writing thread has already written part of the
  /// journal (some 18,000 events, several chunks) still leaves the output as it was.
  @Test func aScriptErrorLateInALongScriptWritesNothing() throws {
    let dir = try TemporaryDirectory()
    var script = "controller a A\ncontroller b B\nroot a\nlink a right b\n"
    for _ in 0..<1_500 { script += "pan right distance=120\npan left distance=120\n" }
    script += "dealloc nobody\n"
    let path = try dir.write("late.scenario", script)
    let out = try dir.write("kept.ndjson", "old\n")
    let result = try Binary.run(["record", path, "-o", out])
    #expect(result.status == 2)
    #expect(result.stdout == "")
    #expect(result.stderr.hasPrefix("\(path):3005: "), "\(result.stderr)")
    #expect(try dir.text(out) == "old\n")
    #expect(directoryEntries(dir.path) == ["kept.ndjson", "late.scenario"], "no temporary file left")
    let toStdout = try Binary.run(["record", path])
    #expect(toStdout.status == 2 && toStdout.stdout == "")
    let fresh = try Binary.run(["record", path, "-o", dir.file("new.ndjson")])
    #expect(fresh.status == 2 && access(dir.file("new.ndjson"), F_OK) != 0, "no journal made")
  }

  /// `record` parses a long script a piece at a time while the navigator runs the pieces before
  /// (``ScenarioParser/Pieces``): the journal is the one of the script parsed at once, and a
  /// parse error anywhere is the error reported, even after a command the navigator refused
  /// earlier (as when the whole script was parsed first), with nothing written.
  @Test func aLongScriptIsParsedAheadWithTheErrorsOfAScriptParsedFirst() throws {
    let dir = try TemporaryDirectory()
    var script = "session app=Long\ncontroller a A\ncontroller b B\nroot a\nlink a right b\n"
    for k in 0..<(3 * RecordCommand.piece) {
      script += k % 500 == 0 ? "# step \(k)\n\n" : "pan right distance=120\npan left distance=120 velocity=300\n"
    }
    let path = try dir.write("long.scenario", script)
    let whole = try ScenarioCompiler.record(Array(script.utf8), script: path, profile: .legacy).journal
    let result = try Binary.run(["record", path, "--profile", "legacy"])
    #expect(result.status == 0 && result.stderr == "", "\(result.stderr)")
    #expect(result.stdoutBytes == whole)

    // The navigator refuses line 6 (b is gone); the parser refuses the line after the script's last, pieces later.
    let lines = script.split(separator: "\n", omittingEmptySubsequences: false).count  // the last is empty
    let refusedEarly = script.replacingOccurrences(of: "link a right b\n", with: "dealloc b\ndealloc b\n")
    let both = try dir.write("both.scenario", refusedEarly + "pan sideways distance=1\n")
    let out = try dir.write("kept.ndjson", "old\n")
    let failed = try Binary.run(["record", both, "-o", out])
    #expect(failed.status == 2 && failed.stdout == "")
    #expect(failed.stderr.hasPrefix("\(both):\(lines + 1): unknown direction 'sideways'"), "\(failed.stderr)")
    #expect(try dir.text(out) == "old\n")
    // Without the parse error, the navigator's error is the one.
    let early = try dir.write("early.scenario", refusedEarly)
    let refused = try Binary.run(["record", early])
    #expect(refused.status == 2 && refused.stdout == "")
    #expect(refused.stderr.hasPrefix("\(early):6: controller 'b' was deallocated"), "\(refused.stderr)")
    // A script whose first command comes after a piece of comments still names its session.
    let late = String(repeating: "# nothing yet\n\n", count: RecordCommand.piece) + script
    let latePath = try dir.write("late-session.scenario", late)
    let lateResult = try Binary.run(["record", latePath])
    #expect(lateResult.status == 0, "\(lateResult.stderr)")
    let lateWhole = try ScenarioCompiler.record(Array(late.utf8), script: latePath, profile: .intended)
    #expect(lateResult.stdoutBytes == lateWhole.journal)
    #expect(lateResult.stdout.contains(#""app":"Long""#))
    // A session line after the first piece is still not the first command.
    let second = try dir.write("second.scenario", script + "session app=Again\n")
    let again = try Binary.run(["record", second])
    #expect(again.stderr == "\(second):\(lines): session must be the first command\n", "\(again.stderr)")
  }

  /// Standard output that is a file gets the journal as it is made (no spool) and, on a script
  /// error, is cut back to what it held: empty after `>`, its old lines after `>>`.
  @Test func aFileOnStandardOutputIsWrittenAsTheJournalIsMadeAndPutBackOnAnError() throws {
    let dir = try TemporaryDirectory()
    var script = "controller a A\ncontroller b B\nroot a\nlink a right b\n"
    for _ in 0..<1_500 { script += "pan right distance=120\npan left distance=120\n" }
    let good = try dir.write("good.scenario", script)
    let late = try dir.write("late.scenario", script + "dealloc nobody\n")
    let expected = try Binary.run(["record", good, "-o", dir.file("good.ndjson")])
    #expect(expected.status == 0)
    let journal = try dir.read(dir.file("good.ndjson"))
    #expect(journal.count > 1 << 19, "several of the writer's chunks")

    // Standard output is a regular file here (the child's output goes to an unnamed file).
    let direct = try Subprocess.run(["record", good])
    #expect(direct.exitStatus == 0 && direct.stdout == journal)
    let failed = try Subprocess.run(["record", late])
    #expect(failed.exitStatus == 2 && failed.stdout.isEmpty, "\(failed)")
    #expect(failed.stderrText.hasPrefix("\(late):3005: "), "\(failed)")

    // Appending: the lines already there stay, the partial journal goes.
    let kept = try dir.write("kept.ndjson", "old\n")
    let append = #"exec "$0" record "$1" >> "$2""#
    let appended = try Subprocess.run(["-c", append, Binary.path, late, kept], executable: "/bin/sh")
    #expect(appended.exitStatus == 2 && appended.stdout.isEmpty, "\(appended)")
    #expect(try dir.text(kept) == "old\n")
    let whole = try Subprocess.run(["-c", append, Binary.path, good, kept], executable: "/bin/sh")
    #expect(whole.exitStatus == 0, "\(whole)")
    #expect(try dir.read(kept) == Array("old\n".utf8) + journal)
  }

  @Test func readsTheScriptFromStandardInput() throws {
    let result = try Binary.run(["record", "-"], stdin: "controller home H\nroot home\n")
    #expect(result.status == 0, "\(result)")
    let lines = result.stdout.split(separator: "\n")
    #expect(lines.count == 6)
    #expect(lines[0].hasSuffix(#""profile":"intended","scenario":"stdin"}"#))
    #expect(
      lines[5]
        == #"{"seq":5,"time":"2026-01-01T00:00:00.002000Z","type":"lifecycle","controller":"home","callback":"didAppear"}"#
    )
  }

  @Test func usageErrors() throws {
    let dir = try TemporaryDirectory()
    let path = try dir.write("s.scenario", Self.script)
    let badProfile = try Binary.run(["record", path, "--profile", "buggy"])
    #expect(badProfile.status == 64)
    #expect(badProfile.stderr.contains("--profile takes one of intended, legacy, got 'buggy'"))
    let noScript = try Binary.run(["record"])
    #expect(noScript.status == 64)
    let missing = try Binary.run(["record", dir.file("missing.scenario")])
    #expect(missing.status == 2)
    #expect(missing.stderr.contains("cannot read '\(dir.file("missing.scenario"))': No such file or directory"))
  }

  @Test func helpHasExamples() throws {
    let result = try Binary.run(["record", "--help"])
    #expect(result.status == 0)
    #expect(result.stdout.hasPrefix("usage: spatial-replay record [options] SCRIPT"))
    #expect(result.stdout.contains("  --profile NAME         intended (the documented behaviour, default) or legacy"))
    #expect(result.stdout.contains("examples:"))
  }
}
