import Dispatch

extension DispatchTimeInterval {
  /// `duration` as whole nanoseconds (rounded toward zero), clamped to what Dispatch can hold:
  /// the writer's batch timer and the recorder's drain wait both take a `Duration` and wait on Dispatch.
  init(_ duration: Duration) {
    let (seconds, attoseconds) = duration.components
    let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
    let nanoseconds = overflow ? (seconds < 0 ? Int64.min : Int64.max) : whole &+ attoseconds / 1_000_000_000
    self = .nanoseconds(Int(clamping: nanoseconds))
  }
}
