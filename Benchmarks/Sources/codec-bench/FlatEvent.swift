import Journal

/// The Foundation baseline's model of a line: one flat `Codable` struct with
/// an optional field for every key the format defines. It is what a quick
/// `JSONDecoder` implementation would write; it checks less than
/// `RecordDecoder` (enum values and the time stay strings, unknown keys are
/// dropped), which only favours the baseline.
struct FlatEvent: Codable, Equatable {
  var seq: Int
  var time: String
  var type: String
  var v: Int?
  var session: String?
  var app: String?
  var build: String?
  var device: String?
  var profile: String?
  var scenario: String?
  var controller: String?
  var className: String?
  var from: String?
  var direction: String?
  var to: String?
  var presenter: String?
  var min: Int?
  var touches: Int?
  var distance: Double?
  var velocity: Double?
  var outcome: String?
  var trigger: String?
  var animated: Bool?
  var callback: String?
  var label: String?

  enum CodingKeys: String, CodingKey {
    case seq, time, type, v, session, app, build, device, profile, scenario, controller
    case className = "class"
    case from, direction, to, presenter, min, touches, distance, velocity, outcome, trigger, animated, callback, label
  }

  /// The same event, flattened (marks lose their extra fields: the struct has no place for them).
  init(_ record: Record) {
    seq = record.seq
    time = record.time.rfc3339
    type = record.event.typeName
    switch record.event {
    case .session(let h):
      v = h.version
      session = h.session
      app = h.app
      build = h.build
      device = h.device
      profile = h.profile
      scenario = h.scenario
    case .alloc(let c, let cls):
      controller = c.rawValue
      className = cls
    case .root(let c), .dealloc(let c):
      controller = c.rawValue
    case .link(let a, let d, let b):
      from = a.rawValue
      direction = d.rawValue
      to = b.rawValue
    case .unlink(let a, let d):
      from = a.rawValue
      direction = d.rawValue
    case .modal(let m, let p):
      controller = m.rawValue
      presenter = p.rawValue
    case .touches(let c, let d, let m):
      controller = c.rawValue
      direction = d.rawValue
      min = m
    case .pan(let p):
      controller = p.controller.rawValue
      direction = p.direction.rawValue
      touches = p.touches
      distance = p.distance
      velocity = p.velocity
      outcome = p.outcome.rawValue
    case .move(let m):
      from = m.from.rawValue
      to = m.to.rawValue
      direction = m.direction.rawValue
      trigger = m.trigger.rawValue
      animated = m.animated
    case .lifecycle(let c, let cb):
      controller = c.rawValue
      callback = cb.rawValue
    case .mark(let l, _):
      label = l
    case .unknown:
      break
    }
  }
}
