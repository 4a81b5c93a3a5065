import Journal
import Projection
import Rendering
import Testing

@testable import TestSupport

/// A bad script and the exact error `record` prints for it.
struct BadScript: CustomTestStringConvertible, Sendable {
  let name: String
  let bytes: [UInt8]
  let error: String
  var testDescription: String { name }

  init(_ name: String, _ script: String, _ error: String) {
    self.name = name
    self.bytes = Array(script.utf8)
    self.error = error
  }

  init(_ name: String, bytes: [UInt8], _ error: String) {
    self.name = name
    self.bytes = bytes
    self.error = error
  }
}

private let homeAndNotes = "controller home HomeViewController\ncontroller notes NotesViewController\nroot home\n"
private let longID = String(repeating: "x", count: 257)

private let badScripts: [BadScript] = [
  // Syntax.
  BadScript("unknown command", "lnik a left b", "t.scenario:1: unknown command 'lnik' (did you mean 'link'?)"),
  BadScript("an option where the command goes", "a=b", "t.scenario:1: expected a command, found 'a=b'"),
  BadScript("session not first", "controller a A\nsession id=x", "t.scenario:2: session must be the first command"),
  BadScript("a second session", "session\nsession", "t.scenario:2: session must be the first command"),
  BadScript(
    "session takes no positionals", "session x",
    "t.scenario:1: too many arguments: expected 'session [id=S] [app=S] [build=S] [device=S] [start=RFC3339]'"),
  BadScript("empty session id", "session id=", "t.scenario:1: empty session id"),
  BadScript(
    "start finer than a microsecond", "session start=2026-01-01T00:00:00.0000001Z",
    "t.scenario:1: start: digits finer than a microsecond, got '2026-01-01T00:00:00.0000001Z'"),
  BadScript(
    "start without a zone", "session start=2026-01-01T00:00:00",
    "t.scenario:1: start: expected 'Z' or a zone offset at the end of the time, got '2026-01-01T00:00:00'"),
  BadScript("empty id", "controller \"\" A", "t.scenario:1: empty controller id"),
  BadScript("empty class", "controller a \"\"", "t.scenario:1: empty class"),
  BadScript("empty modal class", homeAndNotes + "modal m \"\" down", "t.scenario:4: empty class"),
  BadScript(
    "id over 256 bytes", "controller \(longID) A",
    "t.scenario:1: controller id '\(String(repeating: "x", count: 64))…' is longer than 256 bytes"),
  BadScript("missing arguments", "link a left", "t.scenario:1: missing arguments: expected 'link FROM DIRECTION TO'"),
  BadScript("too many arguments", "root a b", "t.scenario:1: too many arguments: expected 'root ID'"),
  BadScript(
    "a positional after an option", homeAndNotes + "move left animated=false now",
    "t.scenario:4: argument 'now' after the options (options come after all positional arguments)"),
  BadScript(
    "unknown option", "move left speed=3",
    "t.scenario:1: unknown option 'speed': expected 'move DIRECTION [animated=true|false]'"),
  BadScript("an option twice", "move left animated=true animated=false", "t.scenario:1: option 'animated' given twice"),
  BadScript("animated not a bool", "goToRoot animated=yes", "t.scenario:1: animated must be true or false, got 'yes'"),
  BadScript(
    "unknown direction", homeAndNotes + "link home lft notes",
    "t.scenario:4: unknown direction 'lft' (expected left, right, up or down)"),
  BadScript("pan without distance", "pan left velocity=3", "t.scenario:1: pan needs distance=N"),
  BadScript("negative distance", "pan left distance=-1", "t.scenario:1: distance needs a number ≥ 0, got '-1'"),
  BadScript("distance not a number", "pan left distance=.5", "t.scenario:1: distance needs a number ≥ 0, got '.5'"),
  BadScript(
    "velocity not a number", "pan left distance=1 velocity=fast",
    "t.scenario:1: velocity needs a number ≥ 0, got 'fast'"),
  BadScript(
    "pan touches not whole", "pan left distance=1 touches=1.5",
    "t.scenario:1: touches needs a whole number ≥ 1, got '1.5'"),
  BadScript("touches below 1", "touches a left 0", "t.scenario:1: touches needs a whole number ≥ 1, got '0'"),
  BadScript("negative wait", "wait -5", "t.scenario:1: wait needs whole milliseconds ≥ 0, got '-5'"),
  BadScript("fractional wait", "wait 1.5", "t.scenario:1: wait needs whole milliseconds ≥ 0, got '1.5'"),
  BadScript(
    "a wait too long for the clock", "wait 1000000000001",
    "t.scenario:1: wait is longer than 1000000000000 milliseconds"),
  BadScript("negative threshold", "threshold a -1", "t.scenario:1: threshold needs a number ≥ 0, got '-1'"),
  BadScript("mark without label", "mark", "t.scenario:1: missing arguments: expected 'mark LABEL [KEY=VALUE ...]'"),
  BadScript(
    "mark with a reserved key", "mark step seq=3",
    "t.scenario:1: mark key 'seq' is reserved (seq, time, type and label are)"),
  BadScript(
    "mark with label as a key", "mark step label=x",
    "t.scenario:1: mark key 'label' is reserved (seq, time, type and label are)"),
  BadScript("mark key twice", "mark step a=1 b=2 a=3", "t.scenario:1: mark key 'a' given twice"),
  BadScript("mark with an empty key", "mark step =3", "t.scenario:1: empty mark key"),
  BadScript("unterminated quote", "mark \"step one", "t.scenario:1: unterminated quote"),
  BadScript(
    "unknown escape in quotes", #"mark "a\nb""#,
    #"t.scenario:1: unknown escape '\n' in quotes (only \" and \\ are escapes)"#),
  BadScript("control character", "mark a\u{1}b", "t.scenario:1: control character U+0001 outside quotes"),
  BadScript("a carriage return inside a line", "mark a\rb\n", "t.scenario:1: control character U+000D outside quotes"),
  BadScript("invalid UTF-8", bytes: Array("mark ok\nmark ".utf8) + [0xFF], "t.scenario:2: invalid UTF-8"),
  // Model (errors the navigator throws).
  BadScript(
    "a misspelt id", homeAndNotes + "link hme left notes",
    "t.scenario:4: unknown controller 'hme' (did you mean 'home'?)"),
  BadScript(
    "a tie goes to the first declared", "controller ab A\ncontroller ac B\nroot aa",
    "t.scenario:3: unknown controller 'aa' (did you mean 'ab'?)"),
  BadScript(
    "only alive ids are suggested", "controller home H\ncontroller homer R\nroot homer\ndealloc home\nroot hom",
    "t.scenario:5: unknown controller 'hom' (did you mean 'homer'?)"),
  BadScript(
    "no suggestion when nothing is close", homeAndNotes + "root settings", "t.scenario:4: unknown controller 'settings'"
  ),
  BadScript(
    "a deallocated id", homeAndNotes + "dealloc notes\nlink home left notes",
    "t.scenario:5: controller 'notes' was deallocated"),
  BadScript("an id used twice", "controller a A\ncontroller a B", "t.scenario:2: controller 'a' already exists"),
  BadScript(
    "an id used again after dealloc", homeAndNotes + "dealloc notes\ncontroller notes N",
    "t.scenario:5: controller id 'notes' was used by a deallocated controller; ids are never reused"),
  BadScript(
    "a modal id used twice", homeAndNotes + "modal notes N down",
    "t.scenario:4: controller 'notes' already exists"),
  BadScript("a link to itself", homeAndNotes + "link notes up notes", "t.scenario:4: cannot link 'notes' to itself"),
  BadScript("move before any root", "controller a A\nmove left", "t.scenario:2: move before any root"),
  BadScript("pan before any root", "pan left distance=3", "t.scenario:1: pan before any root"),
  BadScript("modal before any root", "modal m M down", "t.scenario:1: modal before any root"),
  BadScript("goToRoot before any root", "goToRoot", "t.scenario:1: goToRoot before any root"),
  BadScript(
    "a modal into an occupied slot", homeAndNotes + "link home left notes\nmodal m ModalViewController left",
    "t.scenario:5: cannot present 'm': the left slot of 'home' holds 'notes'"),
  BadScript(
    "root naming a modal", homeAndNotes + "modal m ModalViewController left\nroot m",
    "t.scenario:5: a modal cannot be the root: 'm'"),
  BadScript(
    "dealloc of the root", homeAndNotes + "dealloc home", "t.scenario:4: cannot deallocate 'home': it is the root"),
  BadScript(
    "dealloc of the focus", homeAndNotes + "link home left notes\nmove left\ndealloc notes",
    "t.scenario:6: cannot deallocate 'notes': it is the focus"),
  BadScript(
    "dealloc of a presenter whose modal is alive",
    homeAndNotes + "link home left notes\nmove left\nmodal m M up\nlink m right home\nmove right\ndealloc notes",
    "t.scenario:9: cannot deallocate 'notes': it is the presenter of 'm', which is still alive"),
  BadScript(
    "goToRoot with an unreachable root", homeAndNotes + "link home left notes\nmove left\nunlink notes right\ngoToRoot",
    "t.scenario:7: goToRoot: the root 'home' is not reachable from 'notes'"),
  BadScript("touches on an unknown id", "touches a left 2", "t.scenario:1: unknown controller 'a'"),
  BadScript(
    "threshold on an unknown id", "controller abc A\nthreshold abd 10",
    "t.scenario:2: unknown controller 'abd' (did you mean 'abc'?)"),
  // Reporting.
  BadScript("the first error stops", "lnik\nfoo", "t.scenario:1: unknown command 'lnik' (did you mean 'link'?)"),
  BadScript(
    "lines count comments, blank lines and CRLF ends", "# a comment\r\n\r\n \t\r\nroot x\r\n",
    "t.scenario:4: unknown controller 'x'"),
]

@Suite struct ScenarioErrorTests {
  @Test(arguments: badScripts)
  func refused(_ bad: BadScript) {
    for profile in Profile.allCases {
      #expect(throws: ScenarioError.self) {
        _ = try ScenarioCompiler.record(bad.bytes, script: "t.scenario", profile: profile)
      }
      do {
        _ = try ScenarioCompiler.record(bad.bytes, script: "t.scenario", profile: profile)
      } catch {
        #expect(error.description == bad.error, "\(profile)")
      }
    }
  }

  @Test func idsUpTo256BytesAreAccepted() throws {
    let id = String(repeating: "é", count: 128)  // 256 bytes
    let nav = try navigator("controller \(id) A\nroot \(id)")
    #expect(nav.state.root == ControllerID(id))
  }
}
