import Synchronization
import Testing

@testable import Journal

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// Stand-ins for what the sample in docs/recording.md takes from UIKit and the app.

/// UIKit's view controller, reduced to the callbacks the sample overrides.
@MainActor class UIViewController {
  init() {}
  func viewDidLoad() {}
  func viewWillAppear(_ animated: Bool) {}
  func viewDidAppear(_ animated: Bool) {}
  func viewWillDisappear(_ animated: Bool) {}
  func viewDidDisappear(_ animated: Bool) {}
}

/// UIKit's application delegate protocol, reduced to the two events the sample handles.
@MainActor protocol UIApplicationDelegate: AnyObject {
  func applicationDidEnterBackground()
  func applicationWillTerminate()
}

/// Where the app keeps its journal (a test directory here).
nonisolated(unsafe) var sampleJournalPath = ""
func journalPath() -> String { sampleJournalPath }
/// The app's id for this launch.
let sessionID = "3F2A9C1E"

// BEGIN docs/recording.md sample (after its `import Journal`)
/// The app's one recorder, opened at launch.
enum Journaling {
  static let recorder = Recorder(
    path: journalPath(), header: SessionHeader(session: sessionID, app: "Notes", build: "2.1 (88)"))

  /// Ids unique to one instance for the whole session, never reused.
  private static let counter = Mutex(0)
  static func newID(for type: AnyObject.Type) -> ControllerID {
    let n = counter.withLock { n in
      n += 1
      return n
    }
    return ControllerID("\(type)#\(n)")
  }
}

/// Every controller of the spatial map inherits from this class: one line per callback.
class SpatialViewController: UIViewController {
  let journalID: ControllerID
  private var recorder: Recorder { Journaling.recorder }

  override init() {
    journalID = Journaling.newID(for: Self.self)
    super.init()
    recorder.alloc(journalID, className: String(describing: type(of: self)))
  }

  deinit { Journaling.recorder.dealloc(journalID) }

  override func viewDidLoad() {
    super.viewDidLoad()
    recorder.didLoad(journalID)
  }
  override func viewWillAppear(_ animated: Bool) {
    super.viewWillAppear(animated)
    recorder.willAppear(journalID)
  }
  override func viewDidAppear(_ animated: Bool) {
    super.viewDidAppear(animated)
    recorder.didAppear(journalID)
  }
  override func viewWillDisappear(_ animated: Bool) {
    super.viewWillDisappear(animated)
    recorder.willDisappear(journalID)
  }
  override func viewDidDisappear(_ animated: Bool) {
    super.viewDidDisappear(animated)
    recorder.didDisappear(journalID)
  }

  /// The neighbours: setting one journals the link (or the unlink).
  var right: SpatialViewController? {
    didSet {
      if let right { recorder.link(journalID, .right, to: right.journalID) } else { recorder.unlink(journalID, .right) }
    }
  }

  /// Called by the map's navigator when it commits a move away from this controller.
  func didCommitMove(to next: SpatialViewController, direction: Direction, trigger: MoveTrigger, animated: Bool) {
    recorder.move(from: journalID, to: next.journalID, direction: direction, trigger: trigger, animated: animated)
  }

  /// Called by the pan gesture's handler when a pan ends, however it ends.
  func didFinishPan(direction: Direction, touches: Int, distance: Double, velocity: Double, outcome: PanOutcome) {
    recorder.pan(
      journalID, direction: direction, touches: touches, distance: distance, velocity: velocity, outcome: outcome)
  }

  /// Presents `modal` over this controller.
  func presentModal(_ modal: SpatialViewController) {
    recorder.modal(modal.journalID, presenter: journalID)
  }
}

/// The app delegate writes the journal out when the app may be suspended or end.
final class AppDelegate: UIApplicationDelegate {
  func applicationDidEnterBackground() { Journaling.recorder.flush() }
  func applicationWillTerminate() { Journaling.recorder.close() }
}
// END docs/recording.md sample

/// The sample of docs/recording.md compiles (above) and records what it says.
@Suite(.serialized) struct RecordingSampleTests {
  @MainActor @Test func theBaseClassJournalsItsCallbacksMovesPansModalsAndDeinit() throws {
    sampleJournalPath = try temporaryDirectory() + "/sample.ndjson"
    var home: SpatialViewController? = SpatialViewController()
    let notes = SpatialViewController()
    let compose = SpatialViewController()
    home?.viewDidLoad()
    home?.viewWillAppear(false)
    home?.viewDidAppear(false)
    home?.right = notes
    home?.didFinishPan(direction: .right, touches: 1, distance: 120, velocity: 300, outcome: .committed)
    if let home { home.didCommitMove(to: notes, direction: .right, trigger: .pan, animated: true) }
    notes.presentModal(compose)
    let homeID = home!.journalID
    home = nil
    let delegate = AppDelegate()
    delegate.applicationDidEnterBackground()
    delegate.applicationWillTerminate()

    let records = try cleanRecords(sampleJournalPath)
    let n = ControllerID("SpatialViewController#2")
    let c = ControllerID("SpatialViewController#3")
    #expect(homeID == "SpatialViewController#1")
    #expect(
      records.map(\.event) == [
        .session(SessionHeader(session: "3F2A9C1E", app: "Notes", build: "2.1 (88)")),
        .alloc(controller: homeID, className: "SpatialViewController"),
        .alloc(controller: n, className: "SpatialViewController"),
        .alloc(controller: c, className: "SpatialViewController"),
        .lifecycle(controller: homeID, callback: .didLoad), .lifecycle(controller: homeID, callback: .willAppear),
        .lifecycle(controller: homeID, callback: .didAppear), .link(from: homeID, direction: .right, to: n),
        .pan(Pan(controller: homeID, direction: .right, touches: 1, distance: 120, velocity: 300, outcome: .committed)),
        .move(Move(from: homeID, to: n, direction: .right, trigger: .pan, animated: true)),
        .modal(controller: c, presenter: n), .dealloc(controller: homeID),
      ])
    #expect(Journaling.recorder.status.state == .closed)
  }

  @Test func theDocumentShowsTheSampleThatCompiles() throws {
    // The repository's root: above the `Tests` folder, however deep this file is in it.
    var root = String(#filePath)
    while !root.hasSuffix("/Tests") { root = String(root[..<root.lastIndex(of: "/")!]) }
    root.removeLast("/Tests".count)
    let test = String(decoding: try contents(String(#filePath)), as: UTF8.self)
    let doc = String(decoding: try contents(root + "/docs/recording.md"), as: UTF8.self)
    let begin = try #require(test.range(of: "// BEGIN docs/recording.md sample (after its `import Journal`)\n"))
    let end = try #require(test.range(of: "// END docs/recording.md sample"))
    let sample = test[begin.upperBound..<end.lowerBound]
    #expect(
      doc.contains("```swift\nimport Journal\n\n" + sample + "```\n"),
      "docs/recording.md shows the sample of this file, verbatim")
  }
}
