import Journal
import Projection

/// How a ``SessionRecorder`` rotates, buffers, checks, redacts and samples.
///
/// ```swift
/// var options = SessionRecorderOptions()
/// options.rotation = Rotation(maxSegmentBytes: 1 << 20, maxSegmentDuration: .seconds(600), maxTotalBytes: 8 << 20)
/// options.flightRecorder = FlightRecorder(maxBytes: 256 << 10, triggers: [.didWithoutWill])
/// options.callSites = true
/// options.redaction = .hashingIDs.then(.droppingMarkPayloads)
/// options.sampling = Sampling(session: 0.1, triggered: 1)
/// ```
public struct SessionRecorderOptions: Sendable {
  /// How the whole session is cut into segments (when it is recorded whole, see ``sampling``).
  public var rotation: Rotation
  /// The in-memory buffer written out when a trigger fires; nil: no buffer, no on-device checker.
  public var flightRecorder: FlightRecorder?
  /// Whether every event carries `source`, the `FILE:LINE` of the recording call.
  public var callSites: Bool
  /// Applied on the caller's thread to everything the app hands over, before it is queued.
  public var redaction: Redaction?
  /// Which sessions are recorded whole, and which keep only their triggered journals.
  public var sampling: Sampling
  /// When written lines are forced to the storage device: `always` after every batch,
  /// `batch` at ``SessionRecorder/flush()``, at each rotation and at close, `none` never.
  public var durability: Durability
  /// The most events waiting for the writer; a call that finds the queue full drops its event (and counts it).
  public var capacity: Int

  public init(
    rotation: Rotation = Rotation(), flightRecorder: FlightRecorder? = nil, callSites: Bool = false,
    redaction: Redaction? = nil, sampling: Sampling = Sampling(), durability: Durability = .batch,
    capacity: Int = 65_536
  ) {
    self.rotation = rotation
    self.flightRecorder = flightRecorder
    self.callSites = callSites
    self.redaction = redaction
    self.sampling = sampling
    self.durability = durability
    self.capacity = max(1, capacity)
  }
}

/// How a recorded session is cut into segment files `BASE.000001.ndjson`, `BASE.000002.ndjson`, …
///
/// A segment is closed once it holds `maxSegmentBytes` or has been open for
/// `maxSegmentDuration`, at the first event after that where no transition is in
/// flight (a transition is never cut in two). A closed segment is compressed to
/// `….ndjson.gz` when `compress` is on; then, while the segments kept hold more than
/// `maxTotalBytes`, the oldest is removed.
public struct Rotation: Sendable, Hashable {
  /// Bytes after which the open segment is closed (at least 1 KiB).
  public var maxSegmentBytes: Int
  /// Time after which the open segment is closed; nil: by size only.
  public var maxSegmentDuration: Duration?
  /// The most bytes of segments kept on disk, the open one included; nil: no bound.
  public var maxTotalBytes: Int?
  /// Whether closed segments are gzip-compressed.
  public var compress: Bool

  public init(
    maxSegmentBytes: Int = 4 << 20, maxSegmentDuration: Duration? = .seconds(3600), maxTotalBytes: Int? = 64 << 20,
    compress: Bool = true
  ) {
    self.maxSegmentBytes = max(1024, maxSegmentBytes)
    self.maxSegmentDuration = maxSegmentDuration
    self.maxTotalBytes = maxTotalBytes
    self.compress = compress
  }
}

/// The flight recorder: the last events kept in memory, bounded in bytes (and
/// optionally in events and seconds), written out as a journal of their own only when
/// a trigger fires: a finding of one of `triggers`, checked on the device as events are
/// recorded, or the app's own ``SessionRecorder/capture(reason:)``.
public struct FlightRecorder: Sendable {
  /// The most bytes of encoded lines kept (at least 4 KiB).
  public var maxBytes: Int
  /// The most events kept; nil: bounded by bytes (and seconds) only.
  public var maxEvents: Int?
  /// How far back the buffer reaches; nil: bounded by bytes (and events) only.
  public var maxSeconds: Double?
  /// The rules whose findings trigger a capture; empty: only ``SessionRecorder/capture(reason:)`` does.
  public var triggers: [CheckRule]
  /// The rules the on-device checker reports to the finding handler (all by default); a trigger
  /// left out of them never fires.
  public var reported: RuleSelection
  /// The most triggered journals one session writes (later triggers are counted, not written).
  public var maxCaptures: Int

  public init(
    maxBytes: Int = 256 << 10, maxEvents: Int? = nil, maxSeconds: Double? = nil, triggers: [CheckRule] = [],
    reported: RuleSelection = .all, maxCaptures: Int = 8
  ) {
    self.maxBytes = max(4096, maxBytes)
    self.maxEvents = maxEvents.map { max(1, $0) }
    self.maxSeconds = maxSeconds
    self.triggers = triggers
    self.reported = reported
    self.maxCaptures = max(0, maxCaptures)
  }
}

/// Which sessions are recorded, decided once at launch.
///
/// A session is recorded whole (rotating segments) with probability `session`;
/// otherwise, with probability `triggered`, it keeps only the flight recorder's
/// journals, written when a trigger fires; otherwise nothing is recorded (the calls
/// return at once). Both rates go into every header the session writes
/// (`sampleSession`, `sampleTriggered`, and `sampled`: `session`, `triggered`), so
/// that analytics weight a session by `1 / session` and a triggered journal of a
/// session sampled for triggers only by `1 / ((1 - session) * triggered)`.
public struct Sampling: Sendable {
  /// The probability that a session is recorded whole.
  public var session: Double
  /// The probability that a session not recorded whole keeps its triggered journals.
  public var triggered: Double
  /// Uniform in `0..<1`; replaceable for tests.
  public var random: @Sendable () -> Double

  public init(
    session: Double = 1, triggered: Double = 1, random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }
  ) {
    self.session = min(1, max(0, session))
    self.triggered = min(1, max(0, triggered))
    self.random = random
  }

  /// What the draw at launch decided.
  public enum Decision: String, Sendable, Hashable {
    /// Recorded whole, in segments (and triggered journals when a flight recorder is set).
    case session
    /// Only the triggered journals are written.
    case triggered
    /// Nothing is recorded.
    case off
  }

  /// Draws once: `session` first, then `triggered`.
  public func decide() -> Decision {
    if random() < session { return .session }
    if random() < triggered { return .triggered }
    return .off
  }
}
