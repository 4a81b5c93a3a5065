import Journal

/// `order`: the first arrivals of a move's four callbacks came in another order
/// than `A.W-`, `B.W+`, `A.D-`, `B.D+`.
///
/// Reported at each expected callback that arrives for the first time after a
/// callback that should have come after it. Keeps four bits for the move in flight.
struct OrderRule {
  static let rule = CheckRule.order

  /// `seq` of the move whose arrivals ``arrived`` holds.
  private var seq = -1
  /// Bit k set once the k-th expected callback arrived (W-, W+, D-, D+).
  private var arrived: UInt8 = 0

  /// Looks at a callback on `id`, given the transition in flight before it.
  mutating func inspect(_ id: ControllerID, _ callback: Callback, flight: Transition?, _ findings: inout CheckFindings)
  {
    guard callback.isAppearance, let flight, flight.kind == .move,
      let k = Self.position(of: id, callback, in: flight)
    else { return }
    if flight.seq != seq {
      seq = flight.seq
      arrived = 0
    }
    let bit = UInt8(1) << k
    guard arrived & bit == 0 else { return }
    let later = arrived & ~(bit | (bit - 1))
    arrived |= bit
    guard later != 0, findings.wants(Self.rule) else { return }
    let expected = flight.expected
    let first = expected[later.trailingZeroBitCount]
    findings.report(
      Self.rule, flight.ends,
      "\(idText(id)): \(callback) arrived after \(idText(first)); the order is "
        + expected.map(idText).joined(separator: ", "),
      in: flight)
  }

  /// Index of the callback among the move's expected ones (W- 0, W+ 1, D- 2, D+ 3).
  private static func position(of id: ControllerID, _ callback: Callback, in move: Transition) -> Int? {
    let isFrom = id == move.from
    let isTo = id == move.to
    switch callback {
    case .willDisappear where isFrom: return 0
    case .willAppear where isTo: return 1
    case .didDisappear where isFrom: return 2
    case .didAppear where isTo: return 3
    default: return nil
    }
  }
}
