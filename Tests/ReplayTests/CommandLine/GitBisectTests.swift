import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `diff --git-bisect` as the script of a real `git bisect run` (docs/bisect.md): a build
/// that wrote an empty journal and one that wrote a corrupt journal are skipped (125),
/// never marked good or bad, and the first bad build is still found.
@Suite struct GitBisectTests {
  static var git: String? { ["/usr/bin/git", "/bin/git"].first { access($0, X_OK) == 0 } }

  @Test(.enabled(if: git != nil, "needs git"))
  func emptyAndCorruptBuildsAreSkipped() throws {
    let script = #"""
      set -e
      bin="$1"; journals="$2"; work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
      cp "$journals/bisect/build-01.ndjson" "$work/good.ndjson"
      mkdir "$work/repo"; cd "$work/repo"
      git init -q; git config user.email ci@example.invalid; git config user.name ci
      i=0
      for kind in good good good empty corrupt good bad bad; do
        i=$((i + 1))
        case $kind in
          good) cp "$journals/bisect/build-01.ndjson" run.ndjson ;;
          bad) cp "$journals/bisect/build-08.ndjson" run.ndjson ;;
          empty) : >run.ndjson ;;
          corrupt) head -c 300 "$journals/bisect/build-01.ndjson" >run.ndjson; echo 'garbage{' >>run.ndjson ;;
        esac
        git add run.ndjson; git commit -q --allow-empty -m "build $i $kind"
      done
      git bisect start HEAD "$(git rev-list --max-parents=0 HEAD)" >/dev/null
      git bisect run sh -c "\"$bin\" diff -q --git-bisect ../good.ndjson run.ndjson" >/dev/null 2>&1
      git bisect log | grep '^# ' | sed 's/\[[0-9a-f]*\] //'
      """#
    let outcome = try Subprocess.run(
      ["-c", script, "sh", Binary.path, CheckJournals.directory], executable: "/bin/sh", timeout: .seconds(120))
    #expect(outcome.exitStatus == 0, "\(outcome)")
    let log = outcome.stdoutText.split(separator: "\n").map(String.init)
    #expect(log.contains("# skip: build 4 empty"), "\(outcome)")
    #expect(log.contains("# skip: build 5 corrupt"), "\(outcome)")
    #expect(!log.contains { $0.hasPrefix("# good:") && ($0.contains("empty") || $0.contains("corrupt")) })
    #expect(!log.contains { $0.hasPrefix("# bad:") && ($0.contains("empty") || $0.contains("corrupt")) })
    #expect(log.last == "# first bad commit: build 7 bad", "\(outcome)")
  }

  @Test func anEmptyOrCorruptSideAnswers125() throws {
    let directory = try TemporaryDirectory()
    let good = CheckJournals.directory + "/bisect/build-01.ndjson"
    let empty = try directory.write("empty.ndjson", "")
    let corrupt = try directory.write("corrupt.ndjson", "{\"seq\":0,\"ti\n")
    for side in [empty, corrupt] {
      for pair in [[good, side], [side, good]] {
        let result = try Binary.run(["diff", "-q", "--git-bisect"] + pair)
        #expect(result.status == 125, "\(pair): \(result)")
        let plain = try Binary.run(["diff", "-q"] + pair)
        #expect(plain.status == 2, "\(pair): \(plain)")
      }
    }
  }
}
