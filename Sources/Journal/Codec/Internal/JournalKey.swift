/// Every key the format defines, on any type: the decoder's vocabulary.
///
/// ``name`` is the one place a key is spelt; which keys a type has, and in
/// which order writers put them, is ``Event/Kind/keyOrder``. The decoder's and
/// the encoder's tables are built from these two (``WireTables``).
///
/// Implementation note: each key has a bit, so that the decoder finds
/// duplicates and missing keys with one mask instead of a dictionary.
enum JournalKey: UInt8, CaseIterable {
  case seq, time, type
  case v, session, app, build, device, profile, scenario
  case controller, className, from, direction, to, presenter
  case min, touches, distance, velocity, outcome, trigger, animated, callback, label

  /// The bit of the key in a key mask (one `UInt32` for all keys).
  @inline(__always) var bit: UInt32 { 1 &<< UInt32(rawValue) }

  /// The keys every line starts with, in the order writers put them.
  static let envelope: [JournalKey] = [.seq, .time, .type]

  /// The keys every line starts with, as a mask.
  static let envelopeMask: UInt32 = JournalKey.seq.bit | JournalKey.time.bit | JournalKey.type.bit

  /// The number of keys (the size of a table indexed by `rawValue`).
  static let count = Int(JournalKey.label.rawValue) + 1

  /// The key as it is spelled in a journal.
  var name: String {
    switch self {
    case .seq: "seq"
    case .time: "time"
    case .type: "type"
    case .v: "v"
    case .session: "session"
    case .app: "app"
    case .build: "build"
    case .device: "device"
    case .profile: "profile"
    case .scenario: "scenario"
    case .controller: "controller"
    case .className: "class"
    case .from: "from"
    case .direction: "direction"
    case .to: "to"
    case .presenter: "presenter"
    case .min: "min"
    case .touches: "touches"
    case .distance: "distance"
    case .velocity: "velocity"
    case .outcome: "outcome"
    case .trigger: "trigger"
    case .animated: "animated"
    case .callback: "callback"
    case .label: "label"
    }
  }
}
