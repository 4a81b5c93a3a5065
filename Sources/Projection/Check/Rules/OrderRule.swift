import Journal

/// `order`: the first arrivals of a move's four callbacks came in another order
/// than `A.W-`, `B.W+`, `A.D-`, `B.D+`.
///
/// Reported at each expected callback that arrives for the first time after a
/// callback that should have come after it. Reads which callbacks arrived from the
/// fold's transition, the one record of it.
enum OrderRule {
  static let rule = CheckRule.order

  /// Looks at a callback on `id`, given the last transition started before it
  /// and whether it is in flight (its `arrivedMask` says which expected callbacks came already).
  static func inspect(
    _ id: ControllerID, _ callback: Callback, last: Transition?, inFlight: Bool, _ findings: inout CheckFindings
  ) {
    guard callback.isAppearance, inFlight, let flight = last, flight.kind == .move,
      let k = flight.slot(of: id, callback)
    else { return }
    let bit = UInt8(1) << k
    let arrived = flight.arrivedMask
    guard arrived & bit == 0 else { return }
    let later = arrived & ~(bit | (bit - 1))
    guard later != 0, findings.wants(Self.rule) else { return }
    let expected = flight.expected
    let first = expected[later.trailingZeroBitCount]
    findings.report(Self.rule, flight.ends, .order(id, callback, after: first, expected: expected), in: flight)
  }
}
