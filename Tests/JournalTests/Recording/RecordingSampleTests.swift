import Synchronization
import Testing

@testable import Journal

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// Stand-ins for what the UIKit part of docs/recording.md takes from UIKit, with Apple's
// documented signatures: a subclass that gets them wrong (`override init()`, no
// `required init?(coder:)`, `applicationDidEnterBackground()` without its parameter)
// does not compile here either.

class NSCoder {}
class Bundle {}
class UIResponder {}
class UIApplication {}
class UIWindow {}
class UIScene {}

/// UIKit's view controller: its two designated initialisers and the callbacks the sample overrides.
@MainActor class UIViewController: UIResponder {
  init(nibName nibNameOrNil: String?, bundle nibBundleOrNil: Bundle?) {}
  required init?(coder: NSCoder) {}
  func viewDidLoad() {}
  func viewWillAppear(_ animated: Bool) {}
  func viewDidAppear(_ animated: Bool) {}
  func viewWillDisappear(_ animated: Bool) {}
  func viewDidDisappear(_ animated: Bool) {}
}

/// UIKit's application delegate protocol: the two methods the sample implements (optional in UIKit).
@MainActor protocol UIApplicationDelegate: AnyObject {
  func applicationDidEnterBackground(_ application: UIApplication)
  func applicationWillTerminate(_ application: UIApplication)
}

/// UIKit's scene delegate protocols, reduced to what the sample implements.
@MainActor protocol UISceneDelegate: AnyObject {
  func sceneDidEnterBackground(_ scene: UIScene)
}
@MainActor protocol UIWindowSceneDelegate: UISceneDelegate {
  var window: UIWindow? { get set }
}

/// Where the test keeps its journal.
nonisolated(unsafe) var sampleJournalPath = ""

/// The guide's `Journaling` (its `Sources/NotesApp/Journaling.swift`, built and run by
/// `.ci/recording_guide.sh`), with the journal in a test directory.
enum Journaling {
  static let recorder = Recorder(
    path: sampleJournalPath, header: SessionHeader(session: "3F2A9C1E", app: "Notes", build: "2.1 (88)"))

  private static let counter = Mutex(0)
  static func newID(for type: AnyObject.Type) -> ControllerID {
    let n = counter.withLock { n in
      n += 1
      return n
    }
    return ControllerID("\(type)#\(n)")
  }
}

// BEGIN docs/recording.md UIKit sample (inside its `#if canImport(UIKit)`, after its imports)
/// Every controller of the spatial map inherits from this class: one line per callback.
class SpatialViewController: UIViewController {
  let journalID: ControllerID
  private var recorder: Recorder { Journaling.recorder }

  override init(nibName nibNameOrNil: String?, bundle nibBundleOrNil: Bundle?) {
    journalID = Journaling.newID(for: Self.self)
    super.init(nibName: nibNameOrNil, bundle: nibBundleOrNil)
    recorder.alloc(journalID, className: String(describing: type(of: self)))
  }

  /// Controllers made by a storyboard come through here.
  required init?(coder: NSCoder) {
    journalID = Journaling.newID(for: Self.self)
    super.init(coder: coder)
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
      if let right {
        recorder.link(journalID, .right, to: right.journalID)
      } else {
        recorder.unlink(journalID, .right)
      }
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

/// The app delegate writes the journal out when the app may be suspended or end
/// (mark your app's delegate `@main`, or call these from it).
final class AppDelegate: UIResponder, UIApplicationDelegate {
  func applicationDidEnterBackground(_ application: UIApplication) { Journaling.recorder.flush() }
  func applicationWillTerminate(_ application: UIApplication) { Journaling.recorder.close() }
}

/// With scenes, UIKit calls the scene delegate instead of `applicationDidEnterBackground(_:)`.
final class SceneDelegate: UIResponder, UIWindowSceneDelegate {
  var window: UIWindow?
  func sceneDidEnterBackground(_ scene: UIScene) { Journaling.recorder.flush() }
}
// END docs/recording.md UIKit sample

/// The sample of docs/recording.md compiles (above) and records what it says.
@Suite(.serialized) struct RecordingSampleTests {
  @MainActor @Test func theBaseClassJournalsItsCallbacksMovesPansModalsAndDeinit() throws {
    sampleJournalPath = try temporaryDirectory() + "/sample.ndjson"
    var home: SpatialViewController? = SpatialViewController(nibName: nil, bundle: nil)
    let notes = try #require(SpatialViewController(coder: NSCoder()))
    let compose = SpatialViewController(nibName: nil, bundle: nil)
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
    SceneDelegate().sceneDidEnterBackground(UIScene())
    delegate.applicationDidEnterBackground(UIApplication())
    delegate.applicationWillTerminate(UIApplication())

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

  /// The guide's blocks, keyed by the path their first line names.
  static func guideFiles() throws -> [String: String] {
    // The repository's root: above the `Tests` folder, however deep this file is in it.
    var root = String(#filePath)
    while !root.hasSuffix("/Tests") { root = String(root[..<root.lastIndex(of: "/")!]) }
    root.removeLast("/Tests".count)
    let doc = String(decoding: try contents(root + "/docs/recording.md"), as: UTF8.self)
    var files: [String: String] = [:]
    for block in doc.components(separatedBy: "```swift\n").dropFirst() {
      let text = block.components(separatedBy: "```\n")[0]
      let first = text.prefix { $0 != "\n" }
      guard first.hasPrefix("// "), !first.contains(" ", after: 3) else { continue }
      files[String(first.dropFirst(3))] = String(text.dropFirst(first.count + 1))
    }
    return files
  }

  @Test func theGuideIsAPackageWhoseManifestShowsTheRealDependency() throws {
    let files = try Self.guideFiles()
    #expect(
      Set(files.keys).isSuperset(of: [
        "Package.swift", "Sources/NotesApp/Journaling.swift", "Sources/NotesApp/main.swift",
        "Sources/NotesApp/UIKit/SpatialViewController.swift",
      ]), "\(files.keys.sorted())")
    let manifest = try #require(files["Package.swift"])
    #expect(manifest.components(separatedBy: ".package(url: \"").count == 2, "one .package(url:) line")
    #expect(manifest.contains(#".product(name: "Journal", package: "spatial-replay")"#))
    #expect(try #require(files["Sources/NotesApp/Journaling.swift"]).contains("import Synchronization"))
  }

  @Test func theGuideShowsTheUIKitSampleThatCompiles() throws {
    let test = String(decoding: try contents(String(#filePath)), as: UTF8.self)
    let begin = try #require(test.range(of: "after its imports)\n"))
    let end = try #require(test.range(of: "// END docs/recording.md UIKit sample"))
    let sample = test[begin.upperBound..<end.lowerBound]
    let file = try #require(try Self.guideFiles()["Sources/NotesApp/UIKit/SpatialViewController.swift"])
    let indented = sample.split(separator: "\n", omittingEmptySubsequences: false).map { $0.isEmpty ? "" : "  " + $0 }
    let imports = "#if canImport(UIKit)\n  import Journal\n  import UIKit\n\n"
    let expected = imports + indented.joined(separator: "\n") + "#endif\n"
    #expect(
      file == expected,
      "docs/recording.md shows the sample of this file, verbatim, inside #if canImport(UIKit)")
  }
}

extension Substring {
  fileprivate func contains(_ character: Character, after offset: Int) -> Bool {
    dropFirst(offset).contains(character)
  }
}
