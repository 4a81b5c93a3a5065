import Dispatch
import Testing

@testable import Journal

/// The one conversion from `Duration` to Dispatch's intervals (the writer's batch timer, the recorder's retries).
@Suite struct DispatchIntervalTests {
  @Test(arguments: [
    (Duration.milliseconds(5), DispatchTimeInterval.nanoseconds(5_000_000)),
    (.seconds(2) + .nanoseconds(7), .nanoseconds(2_000_000_007)),
    (.nanoseconds(1) / 3, .nanoseconds(0)),
    (.zero, .nanoseconds(0)),
    (.seconds(Int64.max), .nanoseconds(Int.max)),
    (.seconds(Int64.min), .nanoseconds(Int.min)),
  ])
  func wholeNanosecondsClamped(_ duration: Duration, _ interval: DispatchTimeInterval) {
    #expect(DispatchTimeInterval(duration) == interval)
  }
}
