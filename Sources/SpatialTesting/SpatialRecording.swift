import Journal
import Projection
import Rendering

/// What a runner recorded for a script: its records, each controller's life, and what `check`
/// finds in them. Assertions compare it with the life the intended model expects
/// (``failures(exhaustive:expectsNoFindings:_:)``).
///
/// ```swift
/// let recording = try await SpatialTest.run(script, name: "modal-leak.scenario")
/// recording.lifecycle(of: "m")  // L W+ D+ W- D- dealloc
/// recording.rules               // [] on the intended model, [..., .modalLeak] on the legacy one
/// ```
public struct SpatialRecording: Sendable {
  /// The records, the header first.
  public let records: [Record]
  /// The runner that recorded them (`reference model (intended)`).
  public let runnerName: String
  /// The findings of `check` (its graph and lifecycle rules) on the records, sorted by line.
  public let findings: [Finding]
  /// The controllers of the records in order of first appearance (an `alloc` or a callback).
  public let controllers: [ControllerID]
  private let lives: [ControllerID: [LifecycleStep]]

  /// Reads a recording: each controller's callbacks and dealloc, and the checker's findings.
  public init(records: [Record], runnerName: String) {
    self.records = records
    self.runnerName = runnerName
    findings = Checker.check(records)
    var controllers: [ControllerID] = []
    var lives: [ControllerID: [LifecycleStep]] = [:]
    func note(_ id: ControllerID) {
      if lives[id] == nil {
        lives[id] = []
        controllers.append(id)
      }
    }
    for record in records {
      switch record.event {
      case .alloc(let id, _): note(id)
      case .lifecycle(let id, let callback):
        note(id)
        lives[id, default: []].append(LifecycleStep(callback))
      case .dealloc(let id):
        note(id)
        lives[id, default: []].append(.dealloc)
      default: break
      }
    }
    self.controllers = controllers
    self.lives = lives
  }

  /// The rules of ``findings``, each once, in the order first found.
  public var rules: [CheckRule] {
    var seen: Set<CheckRule> = []
    return findings.map(\.rule).filter { seen.insert($0).inserted }
  }

  /// A controller's callbacks and dealloc as recorded (empty for a controller never recorded).
  public func lifecycle(of controller: ControllerID) -> Lifecycle {
    Lifecycle(lives[controller] ?? [])
  }

  /// Compares the recording with the expected lives.
  ///
  /// - Parameters:
  ///   - exhaustive: every controller recorded must be named by an expectation (true, the
  ///     default), or only the controllers named are checked (false).
  ///   - expectsNoFindings: the recording must check clean (the default): its findings of
  ///     `check` are one failure (non-exhaustive: those naming a controller named, or none).
  ///   - expectations: one per controller, each with its tolerance.
  /// - Returns: every failure, empty when the recording is as expected.
  public func failures(
    exhaustive: Bool = true, expectsNoFindings: Bool = true, _ expectations: LifecycleExpectation...
  ) -> [LifecycleFailure] {
    failures(expectations, exhaustive: exhaustive, expectsNoFindings: expectsNoFindings)
  }

  /// ``failures(exhaustive:expectsNoFindings:_:)`` with an array.
  public func failures(
    _ expectations: [LifecycleExpectation], exhaustive: Bool = true, expectsNoFindings: Bool = true
  ) -> [LifecycleFailure] {
    var failures: [LifecycleFailure] = []
    for expectation in expectations {
      if let failure = check(expectation) { failures.append(failure) }
    }
    let named = Set(expectations.map(\.controller))
    if exhaustive {
      for controller in controllers where !named.contains(controller) {
        let rules = rules(of: controller)
        var text = Self.prefix(rules) + "controller '\(controller)' was recorded but no expectation names it"
        text += " (exhaustive: name it, or check only the controllers named with exhaustive: false)\n"
        text += "  recorded: \(describe(lifecycle(of: controller).steps))\n"
        text += context(for: controller)
        failures.append(LifecycleFailure(kind: .unexpectedController, rules: rules, controller: controller, text))
      }
    }
    // Non-exhaustive: only the findings about the controllers named (or about none in particular).
    let counted =
      exhaustive
      ? findings : findings.filter { $0.controllers.isEmpty || $0.controllers.contains(where: named.contains) }
    if expectsNoFindings && !counted.isEmpty {
      var seen: Set<CheckRule> = []
      let rules = counted.map(\.rule).filter { seen.insert($0).inserted }
      let counts = rules.map { rule in "\(rule) \(counted.count { $0.rule == rule })" }
      var text = Self.prefix(rules) + "the recording has \(counted.count) "
      text += counted.count == 1 ? "finding" : "findings"
      text += " of check (\(counts.joined(separator: ", "))); it should check clean"
      text += exhaustive ? "\n" : " (findings about the controllers named)\n"
      for finding in counted.prefix(Self.findingsShown) { text += "  " + Self.line(finding) + "\n" }
      if counted.count > Self.findingsShown { text += "  … \(counted.count - Self.findingsShown) more\n" }
      text += "  recorded by: \(runnerName)\n"
      failures.append(LifecycleFailure(kind: .findings, rules: rules, controller: nil, text))
    }
    return failures
  }

  /// Findings listed in a failure, at most.
  static let findingsShown = 10

  private func check(_ expectation: LifecycleExpectation) -> LifecycleFailure? {
    let controller = expectation.controller
    let recorded = lifecycle(of: controller).steps
    let rules = rules(of: controller)
    let head = Self.prefix(rules) + "controller '\(controller)'"
    let allowed: [Lifecycle] =
      switch expectation.tolerance {
      case .exact(let life), .subsequence(let life): [life]
      case .oneOf(let lives): lives
      }
    if let bad = allowed.first(where: { $0.invalidToken != nil }), let token = bad.invalidToken {
      let text =
        head + ": '\(token)' is not a lifecycle step (L, W+, D+, W-, D-, dealloc, or didLoad, willAppear, …)\n"
      return LifecycleFailure(kind: .invalidExpectation, rules: rules, controller: controller, text)
    }
    var text: String
    switch expectation.tolerance {
    case .exact(let life):
      guard let index = Self.firstDifference(life.steps, recorded) else { return nil }
      text = head + ": " + Self.differs(at: index, life.steps, recorded, tolerance: "exact")
      text += Self.table(life.steps, recorded, marked: index)
    case .subsequence(let life):
      guard let miss = Self.subsequenceMiss(life.steps, recorded) else { return nil }
      let step = life.steps[miss.expected]
      text = head + ": expected event \(miss.expected + 1) (\(step)) "
      text +=
        miss.after == 0
        ? "was never recorded (subsequence)\n" : "was not recorded after recorded event \(miss.after) (subsequence)\n"
      text += Self.subsequenceTable(life.steps, recorded)
    case .oneOf(let lives):
      if lives.contains(where: { Self.firstDifference($0.steps, recorded) == nil }) { return nil }
      guard
        let closest = lives.max(by: { Self.commonPrefix($0.steps, recorded) < Self.commonPrefix($1.steps, recorded) })
      else {
        text = head + ": no lifecycle is allowed (one of an empty list)\n"
        text += "  recorded: \(describe(recorded))\n"
        break
      }
      let index = Self.firstDifference(closest.steps, recorded) ?? 0
      text = head + ": matches none of the \(lives.count) allowed lifecycles (one of); the closest "
      text += Self.differs(at: index, closest.steps, recorded, tolerance: nil)
      for (i, life) in lives.enumerated() { text += "  allowed \(i + 1): \(describe(life.steps))\n" }
      text += Self.table(closest.steps, recorded, marked: index)
    }
    text += context(for: controller)
    return LifecycleFailure(kind: .lifecycle, rules: rules, controller: controller, text)
  }

  /// The rules of the findings that name `controller`, else of every finding.
  private func rules(of controller: ControllerID) -> [CheckRule] {
    var seen: Set<CheckRule> = []
    let own = findings.filter { $0.controllers.contains(controller) }.map(\.rule).filter { seen.insert($0).inserted }
    return own.isEmpty ? rules : own
  }

  /// The runner and the findings naming `controller`, after a failure's table.
  private func context(for controller: ControllerID) -> String {
    var text = "  recorded by: \(runnerName)"
    if findings.isEmpty { return text + "; check finds nothing\n" }
    let counts = rules.map { rule in "\(rule) \(findings.count { $0.rule == rule })" }
    text += "; check finds \(counts.joined(separator: ", "))\n"
    let own = findings.filter { $0.controllers.contains(controller) }
    for finding in own.prefix(Self.findingsShown) { text += "  " + Self.line(finding) + "\n" }
    if own.count > Self.findingsShown { text += "  … \(own.count - Self.findingsShown) more naming '\(controller)'\n" }
    return text
  }

  private func describe(_ steps: [LifecycleStep]) -> String {
    steps.isEmpty ? "nothing" : steps.map(\.rawValue).joined(separator: ", ")
  }

  private static func line(_ finding: Finding) -> String {
    "line \(finding.line): \(finding.message(.unicode)) [\(finding.rule)]"
  }

  private static func prefix(_ rules: [CheckRule]) -> String {
    rules.isEmpty ? "" : rules.map(\.id).joined(separator: ", ") + ": "
  }

  /// `event 6 differs (exact): expected dealloc, recorded nothing`
  private static func differs(
    at index: Int, _ expected: [LifecycleStep], _ recorded: [LifecycleStep], tolerance: String?
  )
    -> String
  {
    let want = index < expected.count ? expected[index].rawValue : "nothing"
    let got = index < recorded.count ? recorded[index].rawValue : "nothing"
    let mode = tolerance.map { " (\($0))" } ?? ""
    return "event \(index + 1) differs\(mode): expected \(want), recorded \(got)\n"
  }

  /// The first index where the two differ (a missing step counts), nil when equal.
  static func firstDifference(_ expected: [LifecycleStep], _ recorded: [LifecycleStep]) -> Int? {
    let common = commonPrefix(expected, recorded)
    return common == expected.count && common == recorded.count ? nil : common
  }

  static func commonPrefix(_ a: [LifecycleStep], _ b: [LifecycleStep]) -> Int {
    var i = 0
    while i < a.count && i < b.count && a[i] == b[i] { i += 1 }
    return i
  }

  /// The first expected step that the recorded ones do not hold in order (matched greedily),
  /// with the number of recorded steps matched before it; nil when all are there.
  static func subsequenceMiss(_ expected: [LifecycleStep], _ recorded: [LifecycleStep]) -> (
    expected: Int, after: Int
  )? {
    var r = 0
    var matchedAt = 0
    for (j, step) in expected.enumerated() {
      while r < recorded.count && recorded[r] != step { r += 1 }
      if r == recorded.count { return (j, matchedAt) }
      r += 1
      matchedAt = r
    }
    return nil
  }

  /// Expected and recorded side by side, one step a row, the first difference marked.
  static func table(_ expected: [LifecycleStep], _ recorded: [LifecycleStep], marked: Int) -> String {
    let rows = (0..<max(expected.count, recorded.count)).map { i in
      (
        i == marked, "\(i + 1)", i < expected.count ? expected[i].rawValue : "—",
        i < recorded.count ? recorded[i].rawValue : "—"
      )
    }
    return render(rows)
  }

  /// Expected steps beside the recorded steps they matched (greedily), the first miss marked.
  static func subsequenceTable(_ expected: [LifecycleStep], _ recorded: [LifecycleStep]) -> String {
    var rows: [(Bool, String, String, String)] = []
    var j = 0
    for (r, step) in recorded.enumerated() {
      if j < expected.count && expected[j] == step {
        rows.append((false, "\(r + 1)", step.rawValue, step.rawValue))
        j += 1
      } else {
        rows.append((false, "\(r + 1)", "", step.rawValue))
      }
    }
    for k in j..<expected.count { rows.append((k == j, "", expected[k].rawValue, "—")) }
    return render(rows)
  }

  private static func render(_ rows: [(marked: Bool, number: String, expected: String, recorded: String)]) -> String {
    let numberWidth = max(1, rows.map(\.number.count).max() ?? 1)
    let width = max("expected".count, rows.map(\.expected.count).max() ?? 0)
    func pad(_ s: String, _ n: Int) -> String { s + String(repeating: " ", count: max(0, n - s.count)) }
    var text = "    " + String(repeating: " ", count: numberWidth) + "  " + pad("expected", width) + "   recorded\n"
    for row in rows {
      let number = String(repeating: " ", count: numberWidth - row.number.count) + row.number
      text += (row.marked ? "  → " : "    ") + number + "  " + pad(row.expected, width) + "   " + row.recorded + "\n"
    }
    return text
  }
}

/// One way a recording is not what a test expected, in words (``description``): the rules
/// `check` found, the controller, the first event that differs and both lifecycles side by side.
///
/// ```
/// modal-leak: controller 'm': event 6 differs (exact): expected dealloc, recorded nothing
///          expected        recorded
///     1    didLoad         didLoad
///     …
///   → 6    dealloc         —
///   recorded by: reference model (legacy); check finds incomplete-transition 1, appear-before-load 1, modal-leak 1
///   line 17: modal m (presented by home) still linked and alive after home didAppear (…) [modal-leak]
/// ```
public struct LifecycleFailure: Error, Sendable, Hashable, CustomStringConvertible {
  /// What failed.
  public enum Kind: String, Sendable, Hashable {
    /// A controller's life differs from its expectation.
    case lifecycle
    /// An exhaustive check met a controller no expectation names.
    case unexpectedController
    /// The recording has findings of `check`.
    case findings
    /// An expectation holds a word that is no lifecycle step.
    case invalidExpectation
  }

  public var kind: Kind
  /// The rules of `check`'s findings about the controller (else about the recording), in the order found.
  public var rules: [CheckRule]
  /// The controller, for every kind but ``Kind/findings``.
  public var controller: ControllerID?
  /// The whole message, each line ended by `\n`.
  public var message: String

  public init(kind: Kind, rules: [CheckRule], controller: ControllerID?, _ message: String) {
    self.kind = kind
    self.rules = rules
    self.controller = controller
    self.message = message
  }

  /// The message without its last line feed (as test frameworks show it).
  public var description: String { message.hasSuffix("\n") ? String(message.dropLast()) : message }
}
