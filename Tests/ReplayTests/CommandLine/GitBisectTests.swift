import Testing

@testable import TestSupport

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

  /// docs/bisect.md's worked example, as written (`.ci/worked_example.awk` takes its commands out, as
  /// CI's install step does), on a machine where git was never set up: a fresh HOME, no system
  /// configuration, no identity, and none guessed from the host's name. It failed there with
  /// "Author identity unknown" at each of its twelve commits, then on the empty branch.
  @Test(.enabled(if: git != nil, "needs git"))
  func theWorkedExampleRunsOnAFreshMachine() throws {
    let script = #"""
      set -e
      root="$1"; bin="$2"; work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
      mkdir "$work/home" "$work/bin" "$work/tmp"
      ln -s "$bin" "$work/bin/spatial-replay"
      awk -f "$root/.ci/worked_example.awk" "$root/docs/bisect.md" >"$work/example.sh"
      test -s "$work/example.sh"
      unset GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL GIT_COMMITTER_NAME GIT_COMMITTER_EMAIL EMAIL GIT_CONFIG_GLOBAL         GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE
      export HOME="$work/home" TMPDIR="$work/tmp" PATH="$work/bin:$PATH" GIT_CONFIG_NOSYSTEM=1
      export GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=user.useConfigOnly GIT_CONFIG_VALUE_0=true
      cd "$root"
      bash -e "$work/example.sh" 2>&1
      """#
    let outcome = try Subprocess.run(
      ["-c", script, "sh", Repository.root, Binary.path], executable: "/bin/sh", timeout: .seconds(120))
    #expect(outcome.exitStatus == 0, "\(outcome)")
    let lines = outcome.stdoutText.split(separator: "\n")
    #expect(lines.contains { $0.hasSuffix(" is the first bad commit") }, "\(outcome)")
    #expect(lines.contains { $0.trimmingPrefix(while: { $0 == " " }) == "build 08" }, "\(outcome)")
    #expect(!outcome.stdoutText.contains("Author identity unknown"), "\(outcome)")
  }

  @Test func anEmptyOrCorruptCandidateAnswers125AndABaselineAborts() throws {
    let directory = try TemporaryDirectory()
    let good = CheckJournals.directory + "/bisect/build-01.ndjson"
    let empty = try directory.write("empty.ndjson", "")
    let corrupt = try directory.write("corrupt.ndjson", "{\"seq\":0,\"ti\n")
    let missing = directory.path + "/missing.ndjson"
    for side in [empty, corrupt, missing] {
      let candidate = try Binary.run(["diff", "-q", "--git-bisect", good, side])
      #expect(candidate.status == 125, "B = \(side): \(candidate)")
      let baseline = try Binary.run(["diff", "-q", "--git-bisect", side, good])
      #expect((128...255).contains(baseline.status), "A = \(side): \(baseline)")
      #expect(baseline.stderr.contains("the baseline A is unusable: stopping the bisection"), "\(baseline)")
      for pair in [[good, side], [side, good]] {
        let plain = try Binary.run(["diff", "-q"] + pair)
        #expect(plain.status == 2, "\(pair): \(plain)")
      }
    }
  }

  /// A typo in the baseline's path stops `git bisect run` at once with the message, rather
  /// than skipping every commit until "We cannot bisect more!".
  @Test(.enabled(if: git != nil, "needs git"))
  func aMissingBaselineStopsTheBisection() throws {
    let script = #"""
      bin="$1"; journals="$2"; work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
      mkdir "$work/repo"; cd "$work/repo"
      git init -q; git config user.email ci@example.invalid; git config user.name ci
      for i in 1 2 3 4 5; do
        cp "$journals/bisect/build-0$i.ndjson" run.ndjson
        git add run.ndjson; git commit -q -m "build $i"
      done
      git bisect start HEAD "$(git rev-list --max-parents=0 HEAD)" >/dev/null
      git bisect run sh -c "\"$bin\" diff -q --git-bisect ../goood.ndjson run.ndjson" >"$work/out" 2>&1
      echo "status $?"
      git bisect log | grep -c '^# skip' || true
      cat "$work/out"
      """#
    let outcome = try Subprocess.run(
      ["-c", script, "sh", Binary.path, CheckJournals.directory], executable: "/bin/sh", timeout: .seconds(120))
    let lines = outcome.stdoutText.split(separator: "\n").map(String.init)
    #expect(lines.first != "status 0", "\(outcome)")
    #expect(lines.dropFirst().first == "0", "no commit is skipped: \(outcome)")
    #expect(outcome.stdoutText.contains("the baseline A is unusable"), "\(outcome)")
    #expect(!outcome.stdoutText.contains("We cannot bisect more"), "\(outcome)")
  }
}
