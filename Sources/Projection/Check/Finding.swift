import Journal

/// What a lifecycle, graph or model rule found, as a value: where (line,
/// `seq`, the controllers, the app's call site), which rule, the fact and the
/// transition it happened in. Each output puts it into words when it shows it
/// (``message(_:)``, in `Finding+Text.swift`): a check that only counts renders
/// nothing. The reader's findings about the format are ``Diagnostic`` values;
/// ``CheckFinding`` is either.
///
/// ```swift
/// let finding = Checker.check(records).first
/// finding?.fact          // .willRepeated("notes", .willAppear, phase: .appearing)
/// finding?.message(.ascii)  // its words, from Rendering
/// // notes: willAppear while already appearing (in move at seq 10: home -> notes)
/// ```
public struct Finding: Sendable, Hashable {
  /// What the rule found, in the terms of the model.
  public enum Fact: Sendable, Hashable {
    /// `load-repeated`: the controller's `count`th didLoad (2 or more).
    case loadRepeated(ControllerID, count: Int)
    /// `appear-before-load`: an appearance callback before any didLoad.
    case appearBeforeLoad(ControllerID, Callback)
    /// `did-repeated`: a did-callback right after the same one (the controller's last appearance callback).
    case didRepeated(ControllerID, Callback)
    /// `did-without-will`: a did-callback in `phase`, not in the `needed` one.
    case didWithoutWill(ControllerID, Callback, phase: ControllerState.Phase, needed: ControllerState.Phase)
    /// `will-repeated`: a will-callback while already in `phase`.
    case willRepeated(ControllerID, Callback, phase: ControllerState.Phase)
    /// `misattributed`: an appearance callback on a controller that is not an end of the
    /// transition in flight (`inFlight`), or while none is in flight.
    case misattributed(ControllerID, Callback, inFlight: Bool)
    /// `incomplete-transition`: the callbacks still missing when the next move starts, or
    /// (`atEnd`) at the end of the journal.
    case incompleteTransition(missing: [Arrival], atEnd: Bool)
    /// `order`: a callback that arrived after `after`, which the order `expected` puts later.
    case order(ControllerID, Callback, after: Arrival, expected: [Arrival])
    /// `modal-leak`: a modal alive when the transition into the presenter ended, still linked
    /// to it, or (`dismissed`) unlinked from it right after its didAppear but never deallocated.
    case modalLeak(modal: ControllerID, presenter: ControllerID, ModalLeakEnd, dismissed: Bool)
    /// `visible-count`: `count` controllers appeared at rest (the first 8 of them `shown`).
    case visibleCount(Int, shown: [ControllerID])
    /// `touches-violated`: a committed pan with fewer touches than required.
    case touchesViolated(ControllerID, Direction, touches: Int, required: Int)
    /// A graph rule: the fact of the fold's ``Anomaly``.
    case anomaly(Anomaly.Fact)
    /// `model-divergence`: the model of `profile` refuses the recorded `event`.
    case modelRefuses(Profile, Event, Refusal)
    /// `model-divergence`: the model of `profile` expects `expected` where the recording has
    /// `found` (the first three of each; the counts say how many in all), either possibly
    /// empty; `atEnd` when the missing events were expected at the end of the journal.
    case modelDiffers(
      Profile, expected: [Event], expectedCount: Int, found: [Event], foundCount: Int, atEnd: Bool)
  }

  /// Why the reference model refused a recorded input.
  public enum Refusal: Sendable, Hashable {
    /// The navigator's error.
    case navigator(NavigatorError)
    /// The `alloc` of a modal whose direction no recorded link gives.
    case modalDirectionUnknown(ControllerID)
  }

  /// How the transition into a presenter with a leaking modal ended.
  public enum ModalLeakEnd: Sendable, Hashable {
    /// The presenter's didAppear (and the cleanup after it).
    case didAppear
    /// The next move started before the presenter's didAppear came.
    case nextMove
    /// The journal ended before the presenter's didAppear came.
    case journalEnd
  }

  /// The transition a finding happened in: the `root` or `move` event that
  /// started it (its `seq`) and its ends.
  public struct Context: Sendable, Hashable {
    public var kind: Transition.Kind
    public var seq: Int
    /// The controller that disappears (nil for the initial display).
    public var from: ControllerID?
    /// The controller that appears.
    public var to: ControllerID

    public init(kind: Transition.Kind, seq: Int, from: ControllerID?, to: ControllerID) {
      self.kind = kind
      self.seq = seq
      self.from = from
      self.to = to
    }

    /// The transition's kind, `seq` and ends.
    public init(_ transition: Transition) {
      kind = transition.kind
      seq = transition.seq
      from = transition.from
      to = transition.to
    }
  }

  public var rule: CheckRule
  public var fact: Fact
  /// The move or initial display it happened in.
  public var transition: Context?
  /// 1-based line number in the journal.
  public var line: Int
  /// The `seq` of the event, when it has one.
  public var seq: Int?
  /// Controllers involved.
  public var controllers: [ControllerID]
  /// The `seq` of the move (or initial display) the finding happened in.
  public var move: Int?
  /// The app's call site of the event that shows the finding (its `source`,
  /// `FILE:LINE`), when that event carries one.
  public var source: String?

  public init(
    _ rule: CheckRule, _ fact: Fact, in transition: Context?, line: Int, seq: Int? = nil,
    controllers: [ControllerID] = [], move: Int? = nil, source: String? = nil
  ) {
    self.rule = rule
    self.fact = fact
    self.transition = transition
    self.line = line
    self.seq = seq
    self.controllers = controllers
    self.move = move
    self.source = source
  }

  /// Every rule of the model is an error.
  public var severity: Diagnostic.Severity { rule.severity }
}
