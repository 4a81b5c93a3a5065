import Journal
import Rendering

/// One thing that happens to a controller in its life: a lifecycle callback, or its dealloc.
public enum LifecycleStep: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
  case didLoad, willAppear, didAppear, willDisappear, didDisappear, dealloc

  /// The step of a callback.
  public init(_ callback: Callback) {
    switch callback {
    case .didLoad: self = .didLoad
    case .willAppear: self = .willAppear
    case .didAppear: self = .didAppear
    case .willDisappear: self = .willDisappear
    case .didDisappear: self = .didDisappear
    }
  }

  /// A step from its short name (`L`, `W+`, `D+`, `W-`, `D-`, `dealloc`) or its full name (`didLoad`, …).
  public init?(token: some StringProtocol) {
    if let step = LifecycleStep(rawValue: String(token)) {
      self = step
      return
    }
    guard let step = Self.allCases.first(where: { $0.short == token }) else { return nil }
    self = step
  }

  /// The short name of docs/model.md: the one of the callback of the same name (``Callback/short``),
  /// and `dealloc`.
  public var short: String { Callback(rawValue: rawValue)?.short ?? "dealloc" }

  public var description: String { rawValue }
}

/// A controller's life as a sequence of steps, written as a string of short names:
/// `"L W+ D+ W- D- dealloc"` (full names are accepted too), or as an array of steps.
///
/// ```swift
/// let life: Lifecycle = "L W+ D+ W- D- dealloc"
/// life.steps  // [.didLoad, .willAppear, .didAppear, .willDisappear, .didDisappear, .dealloc]
/// let same: Lifecycle = [.didLoad, .willAppear, .didAppear, .willDisappear, .didDisappear, .dealloc]
/// ```
///
/// A word that is no step makes the lifecycle invalid (``invalidToken``): an assertion that uses
/// it fails and says so, rather than the test stopping.
public struct Lifecycle: Sendable, Hashable, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
  CustomStringConvertible
{
  public var steps: [LifecycleStep]
  /// The first word of the literal that is no step, if any.
  public var invalidToken: String?

  public init(_ steps: [LifecycleStep]) {
    self.steps = steps
  }

  /// Parses short or full step names separated by spaces.
  public init(_ text: String) {
    steps = []
    for token in text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }) {
      guard let step = LifecycleStep(token: token) else {
        invalidToken = String(token)
        return
      }
      steps.append(step)
    }
  }

  public init(stringLiteral value: String) {
    self.init(value)
  }

  public init(arrayLiteral elements: LifecycleStep...) {
    self.init(elements)
  }

  /// The short names separated by spaces (the form the generated tests write).
  public var description: String { steps.map(\.short).joined(separator: " ") }
}

/// How a controller's recorded life is compared with the expected one.
public enum Tolerance: Sendable, Hashable {
  /// The recorded steps are exactly the expected ones.
  case exact(Lifecycle)
  /// The expected steps appear in the recorded ones in order, others may come between them.
  case subsequence(Lifecycle)
  /// The recorded steps are exactly one of the allowed lifecycles.
  case oneOf([Lifecycle])

  /// `exact`, `subsequence` or `one of`.
  public var name: String {
    switch self {
    case .exact: "exact"
    case .subsequence: "subsequence"
    case .oneOf: "one of"
    }
  }
}

/// What one controller's life must be, and how strictly.
///
/// ```swift
/// recording.failures(
///   .exact("m", "L W+ D+ W- D- dealloc"),
///   .subsequence("home", "W+ D+"),
///   .oneOf("list", ["L W+ D+", "L W+ D+ W- D-"]))
/// ```
public struct LifecycleExpectation: Sendable, Hashable {
  public var controller: ControllerID
  public var tolerance: Tolerance

  public init(_ controller: ControllerID, _ tolerance: Tolerance) {
    self.controller = controller
    self.tolerance = tolerance
  }

  /// The recorded life is exactly `lifecycle`.
  public static func exact(_ controller: ControllerID, _ lifecycle: Lifecycle) -> Self {
    Self(controller, .exact(lifecycle))
  }

  /// `lifecycle` appears in order within the recorded life.
  public static func subsequence(_ controller: ControllerID, _ lifecycle: Lifecycle) -> Self {
    Self(controller, .subsequence(lifecycle))
  }

  /// The recorded life is one of `lifecycles`.
  public static func oneOf(_ controller: ControllerID, _ lifecycles: [Lifecycle]) -> Self {
    Self(controller, .oneOf(lifecycles))
  }
}
