import Journal

/// `order`: the first arrivals of a move's four callbacks came in another order
/// than `A.W-`, `B.W+`, `A.D-`, `B.D+`.
///
/// Reported once per transition, at the first expected callback that arrives
/// after a callback that should have come after it (a callback that never
/// arrives is missing, not out of order). Reads which callbacks arrived from the
/// fold's transition, the one record of it.
enum OrderRule {
  static let rule = CheckRule.order

  /// Looks at a callback on `id`, given the last transition started before it
  /// and, if it is in flight, which of its ends `id` is (its `arrivedMask` says which expected callbacks came already).
  static func inspect(
    _ id: ControllerID, _ callback: Callback, last: Transition?, inFlight ends: Transition.Ends?,
    reported: inout Int, _ findings: inout CheckFindings
  ) {
    // Read in place (`?.`) up to a finding: binding the transition copied it, with its ids, at every callback.
    guard callback.isAppearance, let ends, last?.kind == .move, let k = last?.slot(callback, ends: ends),
      let arrived = last?.arrivedMask
    else { return }
    let bit = UInt8(1) << k
    guard arrived & bit == 0 else { return }
    let later = arrived & ~(bit | (bit - 1))
    guard later != 0, findings.wants(Self.rule), let flight = last, flight.seq != reported else { return }
    reported = flight.seq
    let expected = flight.expected
    let first = expected[later.trailingZeroBitCount]
    findings.report(Self.rule, flight.ends, .order(id, callback, after: first, expected: expected), in: flight)
  }
}
