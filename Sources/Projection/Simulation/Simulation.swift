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
  /// How the session is shaped: modal churn, ids and classes (``Shape/simple`` by default).
  public var shape: Shape
  /// The session's length on the model's clock, in milliseconds: when set, the
  /// simulation stops once the clock has reached it (its last command may end a
  /// little past it, or a wait may have taken the clock there), or at ``events``,
  /// whichever comes first.
  public var milliseconds: Int64?

  public init(
    events: Int, seed: UInt64, controllers: Int = 8, profile: Profile = .intended, session: String? = nil,
    app: String? = nil, build: String? = nil, device: String? = nil, start: Timestamp = .modelEpoch,
    shape: Shape = .simple, milliseconds: Int64? = nil
  ) {
    self.events = events
    self.seed = seed
    self.shape = shape
    self.milliseconds = milliseconds
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

extension Simulation {
  /// The shape of a simulated session beyond its map's size.
  ///
  /// ``simple`` is the shape `simulate` has always written (the same bytes for
  /// the same options): a handful of classes, ids `cN`, a modal in about 1 % of
  /// the commands, each a new `mN`. ``churn`` is shaped like a real app's
  /// session: one class per screen, ids `Class#n` numbered per class (a new
  /// instance per modal presentation and per replaced screen), modals in about
  /// one command in eight, a third of them presenting another modal at once.
  public struct Shape: Sendable, Hashable {
    /// Percent of the commands that present a modal from the focus (0 to 100).
    public var modalPercent: Int
    /// Percent of the presentations followed at once by another modal from the new one (0 to 100).
    public var nestedPercent: Int
    /// Percent of the commands that deallocate a leaf screen and allocate a new instance in its place.
    public var replacePercent: Int
    /// Ids are `Class#n`, numbered per class, instead of `cN` and `mN`.
    public var instanceIDs: Bool
    /// Every screen of the initial map has a class of its own (real apps have one
    /// class per screen), instead of one of eight shared classes.
    public var classPerScreen: Bool

    public init(
      modalPercent: Int = 1, nestedPercent: Int = 0, replacePercent: Int = 1, instanceIDs: Bool = false,
      classPerScreen: Bool = false
    ) {
      self.modalPercent = min(max(modalPercent, 0), 100)
      self.nestedPercent = min(max(nestedPercent, 0), 100)
      self.replacePercent = min(max(replacePercent, 0), 100)
      self.instanceIDs = instanceIDs
      self.classPerScreen = classPerScreen
    }

    /// `simulate`'s historical shape.
    public static let simple = Shape()
    /// A real app's shape: modal churn, instance ids, a class per screen.
    public static let churn = Shape(
      modalPercent: 12, nestedPercent: 30, replacePercent: 3, instanceIDs: true, classPerScreen: true)
    /// The screens of ``churn``'s map when none are given.
    public static let churnScreens = 200
  }
}
