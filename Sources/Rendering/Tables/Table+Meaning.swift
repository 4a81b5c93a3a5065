import Projection

extension Table {
  /// What one row stands for.
  public var rowMeaning: String {
    switch self {
    case .events: "one event (one decoded line of a journal)"
    case .visits:
      "one visit of a controller: from its didAppear (its willAppear when didAppear never came) to its next willDisappear"
    case .moves: "one move event, with whether and when its transition completed"
    case .pans: "one pan event, with the minimum touches and the neighbour at that moment"
    case .findings: "one finding about a journal: integrity (the reader) or lifecycle (the checker)"
    case .sessions: "one journal: its header, first and last times, events by type and findings by rule"
    case .paths: "one entry of the journal's screen sequence: the focus each time it changes"
    }
  }
}
