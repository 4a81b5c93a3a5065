import Journal
import Projection
import Rendering

extension ReportRunBuilder {
  /// The status after the event just folded.
  ///
  /// Implementation note: read in place, and the transition copied only when
  /// it changed (a new one or a new arrival): the status is taken after every
  /// event, and a copy (retaining its ids) with its arrivals and missing
  /// callbacks made as lists each time would weigh on a churn-shaped page.
  mutating func transitionStatus(_ state: State, starts: Bool) -> TransitionStatus? {
    guard let count = state.transition?.arrivalCount, let seq = state.transition?.seq,
      let kind = state.transition?.kind
    else { return nil }
    // The latest one goes on (new arrivals) unless a move or a root that starts one (`starts`)
    // took its place with the same seq (a repeated seq): then that one is a transition of its own.
    let last = transitions.count - 1
    var isLatest = last >= 0 && lastTransition.seq == seq && lastTransition.kind == kind
    if isLatest && starts {
      isLatest =
        state.transition?.from == transitions[last].from && state.transition?.to == transitions[last].to
        && state.transition?.direction == transitions[last].direction
        && state.transition?.trigger == transitions[last].trigger
        && state.transition?.animated == transitions[last].animated
    }
    if isLatest {
      // Arrivals only grow while a transition is the latest: no new arrival, no change.
      if let status, lastTransition.arrivals == count { return status }
    }
    guard let transition = state.transition else { return nil }
    if isLatest {
      transitions[last] = transition
    } else {
      transitions.append(transition)
      // Its summary does not depend on the arrivals still to come: made now, elsewhere.
      summaries.add(transition)
    }
    lastTransition = (seq, kind, count)
    return TransitionStatus(
      index: transitions.count - 1, arrived: count, missing: transition.missingExpectedBits,
      inFlight: !transition.isComplete)
  }

  /// Whether the fold may start a transition at `event` (only a move or a root does).
  static func mayStartATransition(_ event: Event) -> Bool {
    switch event {
    case .move, .root: true
    case .session, .alloc, .link, .unlink, .modal, .touches, .pan, .lifecycle, .dealloc, .mark, .unknown: false
    }
  }

  func writeStatus(to json: inout JSONBuffer) {
    guard let status else { return json.null() }
    json.open("[")
    for field in ReportData.Status.allCases {
      json.element()
      switch field {
      case .transition: json.int(status.index)
      case .arrived: json.int(status.arrived)
      case .missing: json.int(status.missing)
      case .inFlight: json.int(status.inFlight ? 1 : 0)
      }
    }
    json.close("]")
  }

  /// Every transition: `[summary, fromLane, toLane, arrivals, expected]`
  /// (``ReportData/Transition``), the callbacks as `[lane, callback]` pairs flattened.
  mutating func writeTransitions(_ state: State, to json: inout JSONBuffer) {
    let texts = summaries.all()
    precondition(texts.count == transitions.count, "a summary for every transition")
    json.open("[")
    for (transition, text) in zip(transitions, texts) {
      json.element()
      json.open("[")
      json.element()
      json.int(strings.index(text))
      // Every arrival but a broken transition's later ones is on one of its two ends: each looked up once.
      let from = lane(of: transition.from, in: state)
      let to = lane(of: transition.to, in: state)
      json.element()
      json.int(Int(from))
      json.element()
      json.int(Int(to))
      for list in [transition.arrivals, transition.expected] {
        json.element()
        json.open("[")
        for arrival in list {
          json.element()
          let controller = arrival.controller
          json.int(
            Int(
              controller == transition.to ? to : controller == transition.from ? from : lane(of: controller, in: state))
          )
          json.element()
          json.int(arrival.callback.index)
        }
        json.close("]")
      }
      json.close("]")
    }
    json.close("]")
  }
}
