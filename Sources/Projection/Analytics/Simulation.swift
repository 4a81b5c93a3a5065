import Journal

/// What `simulate` records: how many events, from which seed, on how big a map, under which profile.
public struct Simulation: Sendable, Hashable {
  /// Events to write, the header included (at least 1). The journal has exactly this many lines.
  public var events: Int
  /// The seed of the pseudo-random choices: the same options always give the same journal.
  public var seed: UInt64
  /// Controllers of the initial map (at least 1).
  public var controllers: Int
  public var profile: Profile
  /// The header's session id; `sim-SEED` by default.
  public var session: String?
  public var app: String?
  public var build: String?
  /// The header's device (absent by default), e.g. to make fleets of journals from several devices.
  public var device: String?
  /// The clock's start (the header's time).
  public var start: Timestamp

  public init(
    events: Int, seed: UInt64, controllers: Int = 8, profile: Profile = .intended, session: String? = nil,
    app: String? = nil, build: String? = nil, device: String? = nil, start: Timestamp = .modelEpoch
  ) {
    self.events = events
    self.seed = seed
    self.controllers = controllers
    self.profile = profile
    self.session = session
    self.app = app
    self.build = build
    self.device = device
    self.start = start
  }

  /// The header the journal starts with.
  public var header: SessionHeader {
    SessionHeader(session: session ?? "sim-\(seed)", app: app, build: build, device: device, profile: profile.rawValue)
  }
}
