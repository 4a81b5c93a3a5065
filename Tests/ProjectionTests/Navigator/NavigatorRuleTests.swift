import Journal
import Projection
import Testing

@testable import TestSupport

/// One rule of the spec: a setup, an action, and the exact events each profile writes
/// for the action (`+MS` = milliseconds since a mark written right before it).
struct RuleCase: CustomTestStringConvertible, Sendable {
  let name: String
  let setup: String
  let action: String
  let intended: [String]
  let legacy: [String]
  var testDescription: String { name }

  init(_ name: String, setup: String, action: String, intended: [String], legacy: [String]? = nil) {
    self.name = name
    self.setup = setup
    self.action = action
    self.intended = intended
    self.legacy = legacy ?? intended
  }
}

/// A home screen with neighbours left, right and up.
private let home = """
  controller home HomeViewController
  controller notes NotesViewController
  controller settings SettingsViewController
  controller top TopViewController
  root home
  link home left notes
  link home right settings
  link home up top
  """

private let threeControllers = """
  controller a AViewController
  controller b BViewController
  controller c CViewController
  root c
  """

/// r at the top left; f reachable in two steps through a (up from f) or b (left from f).
private let grid = """
  controller r RootViewController
  controller a AViewController
  controller b BViewController
  controller f FViewController
  root r
  link r right a
  link a down f
  link r down b
  link b right f
  move right
  move down
  """

/// f -> p -> m (a modal of p) -> r is the shortest path; p -> q -> s -> r the other one.
private let replan = """
  controller r RootViewController
  controller s SViewController
  controller q QViewController
  controller p PViewController
  controller f FViewController
  root r
  link r up s
  link s up q
  link q left p
  move up
  move up
  move left
  modal m ModalViewController down
  link m right r
  link m left f
  move left
  unlink f right
  link f down p
  """

private let moveLeft = [
  "+1 move home>notes left programmatic animated", "+1 home.W-", "+1 notes.W+", "+251 home.D-",
]

private let rules: [RuleCase] = [
  // Rule 1, L2: didLoad.
  RuleCase(
    "didLoad: a link of two new controllers loads B, then A (legacy: B only)",
    setup: threeControllers, action: "link a left b",
    intended: ["+1 link a left b", "+1 b.L", "+1 a.L"],
    legacy: ["+1 link a left b", "+1 b.L"]),
  RuleCase(
    "didLoad: once per instance (legacy: on every effective link)",
    setup: threeControllers + "\nlink a left b\nunlink a left", action: "link a left b",
    intended: ["+1 link a left b"],
    legacy: ["+1 link a left b", "+1 b.L"]),
  RuleCase(
    "didLoad: only the new end of a link (legacy: never the A end)",
    setup: "controller a AViewController\ncontroller b BViewController\nroot b", action: "link a left b",
    intended: ["+1 link a left b", "+1 a.L"],
    legacy: ["+1 link a left b", "+1 b.L"]),
  RuleCase(
    "a link that is already there writes nothing and keeps the clock",
    setup: home, action: "link home left notes\nlink notes right home\nunlink home down\nmark after",
    intended: ["+1 mark after"]),
  // Rule 2, L1: initial display and later roots.
  RuleCase(
    "initial display: root, didLoad, willAppear, didAppear (legacy: root only)",
    setup: "controller home HomeViewController", action: "root home",
    intended: ["+1 root home", "+1 home.L", "+1 home.W+", "+1 home.D+"],
    legacy: ["+1 root home"]),
  RuleCase(
    "initial display of a controller a link already loaded",
    setup: "controller home HomeViewController\ncontroller notes NotesViewController\nlink home left notes",
    action: "root home",
    intended: ["+1 root home", "+1 home.W+", "+1 home.D+"],
    legacy: ["+1 root home"]),
  RuleCase(
    "a later root writes its didLoad if needed, no appearance; the same root again writes nothing",
    setup: home + "\ncontroller other OtherViewController", action: "root other\nroot other\nroot notes",
    intended: ["+1 root other", "+1 other.L", "+2 root notes"],
    legacy: ["+1 root other", "+2 root notes"]),
  // Rule 3, L3: moves and their timing.
  RuleCase(
    "animated move: W-, W+, then 250 ms later D-, D+ (legacy: D-, W+ again)",
    setup: home, action: "move left\nmark after",
    intended: moveLeft + ["+251 notes.D+", "+252 mark after"],
    legacy: moveLeft + ["+251 notes.W+", "+252 mark after"]),
  RuleCase(
    "move without animation: every callback at one time, in both profiles",
    setup: home, action: "move left animated=false\nmark after",
    intended: [
      "+1 move home>notes left programmatic instant", "+1 home.W-", "+1 notes.W+", "+1 home.D-", "+1 notes.D+",
      "+2 mark after",
    ]),
  RuleCase(
    "a blocked programmatic move writes nothing and keeps the clock",
    setup: home, action: "move down\nmove down animated=false\nmark after",
    intended: ["+1 mark after"]),
  // Rule 4: modal present.
  RuleCase(
    "modal present: alloc, modal, link, didLoad, then an animated move (legacy: L3 move)",
    setup: home, action: "modal compose ComposeViewController down",
    intended: [
      "+1 alloc compose ComposeViewController", "+1 modal compose presenter home", "+1 link home down compose",
      "+1 compose.L", "+1 move home>compose down programmatic animated", "+1 home.W-", "+1 compose.W+",
      "+251 home.D-", "+251 compose.D+",
    ],
    legacy: [
      "+1 alloc compose ComposeViewController", "+1 modal compose presenter home", "+1 link home down compose",
      "+1 compose.L", "+1 move home>compose down programmatic animated", "+1 home.W-", "+1 compose.W+",
      "+251 home.D-", "+251 compose.W+",
    ]),
  RuleCase(
    "modal present without animation",
    setup: home, action: "modal compose ComposeViewController down animated=false",
    intended: [
      "+1 alloc compose ComposeViewController", "+1 modal compose presenter home", "+1 link home down compose",
      "+1 compose.L", "+1 move home>compose down programmatic instant", "+1 home.W-", "+1 compose.W+",
      "+1 home.D-", "+1 compose.D+",
    ]),
  // Rule 5, L4: modal cleanup.
  RuleCase(
    "modal cleanup right after the presenter's didAppear (legacy: the modal leaks)",
    setup: home + "\nmodal compose ComposeViewController down", action: "move up",
    intended: [
      "+1 move compose>home up programmatic animated", "+1 compose.W-", "+1 home.W+", "+251 compose.D-",
      "+251 home.D+", "+251 unlink home down", "+251 dealloc compose",
    ],
    legacy: [
      "+1 move compose>home up programmatic animated", "+1 compose.W-", "+1 home.W+", "+251 compose.D-",
      "+251 home.W+",
    ]),
  RuleCase(
    "modal cleanup: presenter slot, then the modal's other links in slot order",
    setup: home + """

      controller extra ExtraViewController
      modal compose ComposeViewController down
      link compose down extra
      link compose left extra
      """,
    action: "move up",
    intended: [
      "+1 move compose>home up programmatic animated", "+1 compose.W-", "+1 home.W+", "+251 compose.D-",
      "+251 home.D+", "+251 unlink home down", "+251 unlink compose left", "+251 unlink compose down",
      "+251 dealloc compose",
    ],
    legacy: [
      "+1 move compose>home up programmatic animated", "+1 compose.W-", "+1 home.W+", "+251 compose.D-",
      "+251 home.W+",
    ]),
  RuleCase(
    "modal cleanup: a modal in two presenter slots is unlinked from the first in slot order",
    setup: """
      controller home HomeViewController
      controller notes NotesViewController
      root home
      link home left notes
      modal compose ComposeViewController down
      link home right compose
      """,
    action: "move up animated=false",
    intended: [
      "+1 move compose>home up programmatic instant", "+1 compose.W-", "+1 home.W+", "+1 compose.D-",
      "+1 home.D+", "+1 unlink home right", "+1 unlink compose up", "+1 dealloc compose",
    ],
    legacy: [
      "+1 move compose>home up programmatic instant", "+1 compose.W-", "+1 home.W+", "+1 compose.D-",
      "+1 home.D+",
    ]),
  RuleCase(
    "modal cleanup: nested modals first, depth first, in slot order",
    setup: """
      controller home HomeViewController
      controller notes NotesViewController
      root home
      link home left notes
      modal m1 FirstModalViewController down
      modal m2 SecondModalViewController down
      modal m3 ThirdModalViewController right
      link m3 down home
      """,
    action: "move down",
    intended: [
      "+1 move m3>home down programmatic animated", "+1 m3.W-", "+1 home.W+", "+251 m3.D-", "+251 home.D+",
      "+251 unlink m2 right", "+251 unlink m3 down", "+251 dealloc m3", "+251 unlink m1 down", "+251 dealloc m2",
      "+251 unlink home down", "+251 dealloc m1",
    ],
    legacy: ["+1 move m3>home down programmatic animated", "+1 m3.W-", "+1 home.W+", "+251 m3.D-", "+251 home.W+"]),
  RuleCase(
    "modal cleanup: nested modals no longer linked go in presentation order, with no presenter slot",
    setup: """
      controller home HomeViewController
      controller notes NotesViewController
      controller x XViewController
      controller y YViewController
      root home
      link home left notes
      modal m1 FirstModalViewController down
      link m1 left x
      modal m2 SecondModalViewController right
      unlink m2 left
      link m2 down x
      move down
      move right
      modal m3 ThirdModalViewController right
      unlink m3 left
      link m3 down y
      move down
      link y down home
      """,
    action: "move down",
    intended: [
      "+1 move y>home down programmatic animated", "+1 y.W-", "+1 home.W+", "+251 y.D-", "+251 home.D+",
      "+251 unlink m2 down", "+251 dealloc m2", "+251 unlink m3 down", "+251 dealloc m3", "+251 unlink home down",
      "+251 unlink m1 left", "+251 dealloc m1",
    ],
    legacy: ["+1 move y>home down programmatic animated", "+1 y.W-", "+1 home.W+", "+251 y.D-", "+251 home.W+"]),
  // Rule 7: touches.
  RuleCase(
    "touches: one event sets both ends; nothing when neither would change; minimums stay with controllers",
    setup: home + "\ncontroller other OtherViewController",
    action: """
      touches home left 2
      touches notes right 2
      touches home down 3
      touches home down 3
      unlink home left
      link home left other
      touches home left 2
      """,
    intended: [
      "+1 touches home left 2", "+2 touches home down 3", "+3 unlink home left", "+4 link home left other",
      "+4 other.L", "+5 touches home left 2",
    ]),
  // Rule 8, L6: goToRoot.
  RuleCase(
    "goToRoot: shortest path, up before left on a tie, each step at the previous didAppear (legacy: L6)",
    setup: grid, action: "goToRoot",
    intended: [
      "+1 move f>a up goToRoot animated", "+1 f.W-", "+1 a.W+", "+251 f.D-", "+251 a.D+",
      "+251 move a>r left goToRoot animated", "+251 a.W-", "+251 r.W+", "+501 a.D-", "+501 r.D+",
    ],
    legacy: [
      "+1 move f>a up goToRoot animated", "+1 f.W-", "+1 a.W+", "+1 move a>r left goToRoot animated", "+1 a.W-",
      "+1 r.W+", "+251 f.D-", "+251 a.W+", "+251 a.D-", "+251 r.W+",
    ]),
  RuleCase(
    "goToRoot: a shorter path wins over the walk order",
    setup: grid + "\nlink f right r", action: "goToRoot",
    intended: ["+1 move f>r right goToRoot animated", "+1 f.W-", "+1 r.W+", "+251 f.D-", "+251 r.D+"],
    legacy: ["+1 move f>r right goToRoot animated", "+1 f.W-", "+1 r.W+", "+251 f.D-", "+251 r.W+"]),
  RuleCase(
    "goToRoot without animation: complete steps in both profiles",
    setup: grid, action: "goToRoot animated=false",
    intended: [
      "+1 move f>a up goToRoot instant", "+1 f.W-", "+1 a.W+", "+1 f.D-", "+1 a.D+",
      "+1 move a>r left goToRoot instant", "+1 a.W-", "+1 r.W+", "+1 a.D-", "+1 r.D+",
    ]),
  RuleCase(
    "goToRoot on the root writes nothing",
    setup: grid + "\nmove up\nmove left", action: "goToRoot\nmark after",
    intended: ["+1 mark after"]),
  RuleCase(
    "goToRoot: a cleanup that removes a path controller replans from there (legacy: no cleanup, no replan)",
    setup: replan, action: "goToRoot",
    intended: [
      "+1 move f>p down goToRoot animated", "+1 f.W-", "+1 p.W+", "+251 f.D-", "+251 p.D+", "+251 unlink p down",
      "+251 unlink m right", "+251 dealloc m", "+251 move p>q right goToRoot animated", "+251 p.W-", "+251 q.W+",
      "+501 p.D-", "+501 q.D+", "+501 move q>s down goToRoot animated", "+501 q.W-", "+501 s.W+", "+751 q.D-",
      "+751 s.D+", "+751 move s>r down goToRoot animated", "+751 s.W-", "+751 r.W+", "+1001 s.D-", "+1001 r.D+",
    ],
    legacy: [
      "+1 move f>p down goToRoot animated", "+1 f.W-", "+1 p.W+", "+1 move p>m down goToRoot animated", "+1 p.W-",
      "+1 m.W+", "+1 move m>r right goToRoot animated", "+1 m.W-", "+1 r.W+", "+251 f.D-", "+251 p.W+",
      "+251 p.D-", "+251 m.W+", "+251 m.D-", "+251 r.W+",
    ]),
  // Rule 9: dealloc.
  RuleCase(
    "dealloc: unlink every slot in slot order, then dealloc",
    setup: home
      + "\ncontroller extra ExtraViewController\ncontroller lonely LonelyViewController\nlink extra right top",
    action: "dealloc top\ndealloc lonely",
    intended: ["+1 unlink top left", "+1 unlink top down", "+1 dealloc top", "+2 dealloc lonely"]),
  // Graph rules.
  RuleCase(
    "a link that replaces two links is one event",
    setup: """
      controller a AViewController
      controller b BViewController
      controller c CViewController
      controller d DViewController
      root a
      link a left c
      link d left b
      """,
    action: "link a left b",
    intended: ["+1 link a left b"], legacy: ["+1 link a left b", "+1 b.L"]),
  RuleCase(
    "a cycle: moving around it comes back, goToRoot takes up before left",
    setup: """
      controller a AViewController
      controller b BViewController
      controller c CViewController
      controller d DViewController
      root a
      link a right b
      link b down c
      link c left d
      link d up a
      """,
    action: """
      move right animated=false
      move down animated=false
      move left animated=false
      move up animated=false
      move right animated=false
      move down animated=false
      goToRoot animated=false
      """,
    intended: [
      "+1 move a>b right programmatic instant", "+1 a.W-", "+1 b.W+", "+1 a.D-", "+1 b.D+",
      "+2 move b>c down programmatic instant", "+2 b.W-", "+2 c.W+", "+2 b.D-", "+2 c.D+",
      "+3 move c>d left programmatic instant", "+3 c.W-", "+3 d.W+", "+3 c.D-", "+3 d.D+",
      "+4 move d>a up programmatic instant", "+4 d.W-", "+4 a.W+", "+4 d.D-", "+4 a.D+",
      "+5 move a>b right programmatic instant", "+5 a.W-", "+5 b.W+", "+5 a.D-", "+5 b.D+",
      "+6 move b>c down programmatic instant", "+6 b.W-", "+6 c.W+", "+6 b.D-", "+6 c.D+",
      "+7 move c>b up goToRoot instant", "+7 c.W-", "+7 b.W+", "+7 c.D-", "+7 b.D+",
      "+7 move b>a left goToRoot instant", "+7 b.W-", "+7 a.W+", "+7 b.D-", "+7 a.D+",
    ]),
  // Rule 10: time.
  RuleCase(
    "wait moves the clock by exactly its milliseconds; threshold writes nothing",
    setup: home, action: "wait 1500\nthreshold notes 10\nwait 0\nmark after\nwait 2\nmark again key=value",
    intended: ["+1501 mark after", "+1504 mark again key=\"value\""]),
]

/// Pans on a home screen: notes left (threshold 50), settings right (threshold 80),
/// top up (2 fingers), nothing down (2 fingers).
private let panSetup =
  home + """

    threshold settings 80
    touches home up 2
    touches home down 2
    """

private func committed(_ target: String, _ direction: String, _ trigger: String, touches: Int = 1) -> [String] {
  [
    "+1 pan home \(direction) touches=\(touches) committed", "+1 move home>\(target) \(direction) \(trigger) animated",
    "+1 home.W-", "+1 \(target).W+", "+251 home.D-", "+251 \(target).D+",
  ]
}

private func legacyCommitted(_ target: String, _ direction: String, _ trigger: String, touches: Int = 1) -> [String] {
  Array(committed(target, direction, trigger, touches: touches).dropLast()) + ["+251 \(target).W+"]
}

private let pans: [RuleCase] = [
  RuleCase(
    "refused: fewer touches than the focus needs (legacy L5: never refused)",
    setup: panSetup, action: "pan up distance=100",
    intended: ["+1 pan home up touches=1 refused"], legacy: legacyCommitted("top", "up", "pan")),
  RuleCase(
    "enough touches commit", setup: panSetup, action: "pan up distance=100 touches=2",
    intended: committed("top", "up", "pan", touches: 2), legacy: legacyCommitted("top", "up", "pan", touches: 2)),
  RuleCase(
    "refused comes before blocked", setup: panSetup, action: "pan down distance=100",
    intended: ["+1 pan home down touches=1 refused"], legacy: ["+1 pan home down touches=1 blocked"]),
  RuleCase(
    "blocked: no neighbour", setup: panSetup, action: "pan down distance=100 touches=3",
    intended: ["+1 pan home down touches=3 blocked"]),
  RuleCase(
    "blocked comes before cancelled", setup: panSetup, action: "pan down distance=100 touches=2 cancel",
    intended: ["+1 pan home down touches=2 blocked"]),
  RuleCase(
    "cancelled", setup: panSetup, action: "pan left distance=100 cancel",
    intended: ["+1 pan home left touches=1 cancelled"]),
  RuleCase(
    "cancelled comes before a fling", setup: panSetup, action: "pan left cancel distance=5 velocity=900",
    intended: ["+1 pan home left touches=1 cancelled"]),
  RuleCase(
    "fling: velocity over 650 commits whatever the distance", setup: panSetup,
    action: "pan left distance=5 velocity=650.5",
    intended: committed("notes", "left", "fling"), legacy: legacyCommitted("notes", "left", "fling")),
  RuleCase(
    "velocity exactly 650 is no fling", setup: panSetup, action: "pan left distance=5 velocity=650\nmark after",
    intended: ["+1 pan home left touches=1 snapBack", "+2 mark after"]),
  RuleCase(
    "pan: distance over the default threshold 50", setup: panSetup, action: "pan left distance=50.5",
    intended: committed("notes", "left", "pan"), legacy: legacyCommitted("notes", "left", "pan")),
  RuleCase(
    "snapBack: distance exactly at the threshold", setup: panSetup, action: "pan left distance=50",
    intended: ["+1 pan home left touches=1 snapBack"]),
  RuleCase(
    "the target's own threshold decides", setup: panSetup, action: "pan right distance=80\npan right distance=60",
    intended: ["+1 pan home right touches=1 snapBack", "+2 pan home right touches=1 snapBack"]),
  RuleCase(
    "over the target's own threshold", setup: panSetup, action: "pan right distance=80.001",
    intended: committed("settings", "right", "pan"), legacy: legacyCommitted("settings", "right", "pan")),
]

@Suite struct NavigatorRuleTests {
  @Test(arguments: rules + pans)
  func intended(_ rule: RuleCase) throws {
    let actual = try recordAction(rule.setup, rule.action, profile: .intended)
    #expect(actual == rule.intended, "\(lineDiff(expected: rule.intended, actual: actual))")
  }

  @Test(arguments: rules + pans)
  func legacy(_ rule: RuleCase) throws {
    let actual = try recordAction(rule.setup, rule.action, profile: .legacy)
    #expect(actual == rule.legacy, "\(lineDiff(expected: rule.legacy, actual: actual))")
  }
}
