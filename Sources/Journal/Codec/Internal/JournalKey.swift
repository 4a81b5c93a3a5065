/// Every key the format defines, on any type: the decoder's vocabulary.
///
/// Implementation note: keys are recognised from their bytes (length, then a
/// byte or two, then a full comparison) without building a `String`, and each
/// has a bit so that the decoder finds duplicates and missing keys with one
/// mask instead of a dictionary.
enum JournalKey: UInt8, CaseIterable {
  case seq, time, type
  case v, session, app, build, device, profile, scenario
  case controller, className, from, direction, to, presenter
  case min, touches, distance, velocity, outcome, trigger, animated, callback, label

  /// The bit of the key in a key mask (one `UInt32` for all keys).
  @inline(__always) var bit: UInt32 { 1 << UInt32(rawValue) }

  /// The keys every line starts with.
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

  /// Recognises a key from its (unescaped) UTF-8 bytes, `n` bytes at `p`, of
  /// which `readable` (at least `n`) may be read.
  ///
  /// Implementation note: when 16 bytes may be read, the key is compared as
  /// one or two little-endian words masked to its length, one comparison per
  /// candidate instead of a byte loop; the constants fold at compile time.
  @inline(__always)
  static func match(_ p: UnsafePointer<UInt8>, _ n: Int, readable: Int) -> JournalKey? {
    guard readable >= 16, n <= 10 else { return matchBytes(p, n) }
    let raw = UnsafeRawPointer(p)
    let first = UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self))
    let w = n >= 8 ? first : first & ((1 &<< (UInt64(truncatingIfNeeded: n) &* 8)) &- 1)
    @inline(__always) func second() -> UInt64 {
      UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self)) & 0xFFFF
    }
    switch n {
    case 1: return w == asciiWord("v") ? .v : nil
    case 2: return w == asciiWord("to") ? .to : nil
    case 3:
      if w == asciiWord("seq") { return .seq }
      if w == asciiWord("app") { return .app }
      return w == asciiWord("min") ? .min : nil
    case 4:
      if w == asciiWord("time") { return .time }
      if w == asciiWord("type") { return .type }
      return w == asciiWord("from") ? .from : nil
    case 5:
      if w == asciiWord("build") { return .build }
      if w == asciiWord("class") { return .className }
      return w == asciiWord("label") ? .label : nil
    case 6: return w == asciiWord("device") ? .device : nil
    case 7:
      if w == asciiWord("session") { return .session }
      if w == asciiWord("profile") { return .profile }
      if w == asciiWord("trigger") { return .trigger }
      if w == asciiWord("touches") { return .touches }
      return w == asciiWord("outcome") ? .outcome : nil
    case 8:
      if w == asciiWord("scenario") { return .scenario }
      if w == asciiWord("distance") { return .distance }
      if w == asciiWord("velocity") { return .velocity }
      if w == asciiWord("animated") { return .animated }
      return w == asciiWord("callback") ? .callback : nil
    case 9:
      let tail = second() & 0xFF
      if w == asciiWord("directio") && tail == asciiWord("n") { return .direction }
      return w == asciiWord("presente") && tail == asciiWord("r") ? .presenter : nil
    case 10:
      return w == asciiWord("controll") && second() == asciiWord("er") ? .controller : nil
    default:
      return nil
    }
  }

  /// Recognises a key byte by byte (near the end of a line, or unescaped keys).
  static func matchBytes(_ p: UnsafePointer<UInt8>, _ n: Int) -> JournalKey? {
    switch n {
    case 1: return p[0] == UInt8(ascii: "v") ? .v : nil
    case 2: return bytesEqual(p, n, "to") ? .to : nil
    case 3:
      switch p[0] {
      case UInt8(ascii: "s"): return bytesEqual(p, n, "seq") ? .seq : nil
      case UInt8(ascii: "a"): return bytesEqual(p, n, "app") ? .app : nil
      case UInt8(ascii: "m"): return bytesEqual(p, n, "min") ? .min : nil
      default: return nil
      }
    case 4:
      switch p[1] {
      case UInt8(ascii: "i"): return bytesEqual(p, n, "time") ? .time : nil
      case UInt8(ascii: "y"): return bytesEqual(p, n, "type") ? .type : nil
      case UInt8(ascii: "r"): return bytesEqual(p, n, "from") ? .from : nil
      default: return nil
      }
    case 5:
      switch p[0] {
      case UInt8(ascii: "b"): return bytesEqual(p, n, "build") ? .build : nil
      case UInt8(ascii: "c"): return bytesEqual(p, n, "class") ? .className : nil
      case UInt8(ascii: "l"): return bytesEqual(p, n, "label") ? .label : nil
      default: return nil
      }
    case 6: return bytesEqual(p, n, "device") ? .device : nil
    case 7:
      switch p[1] {
      case UInt8(ascii: "e"): return bytesEqual(p, n, "session") ? .session : nil
      case UInt8(ascii: "r"):
        if bytesEqual(p, n, "profile") { return .profile }
        return bytesEqual(p, n, "trigger") ? .trigger : nil
      case UInt8(ascii: "o"): return bytesEqual(p, n, "touches") ? .touches : nil
      case UInt8(ascii: "u"): return bytesEqual(p, n, "outcome") ? .outcome : nil
      default: return nil
      }
    case 8:
      switch p[0] {
      case UInt8(ascii: "s"): return bytesEqual(p, n, "scenario") ? .scenario : nil
      case UInt8(ascii: "d"): return bytesEqual(p, n, "distance") ? .distance : nil
      case UInt8(ascii: "v"): return bytesEqual(p, n, "velocity") ? .velocity : nil
      case UInt8(ascii: "a"): return bytesEqual(p, n, "animated") ? .animated : nil
      case UInt8(ascii: "c"): return bytesEqual(p, n, "callback") ? .callback : nil
      default: return nil
      }
    case 9:
      switch p[0] {
      case UInt8(ascii: "d"): return bytesEqual(p, n, "direction") ? .direction : nil
      case UInt8(ascii: "p"): return bytesEqual(p, n, "presenter") ? .presenter : nil
      default: return nil
      }
    case 10: return bytesEqual(p, n, "controller") ? .controller : nil
    default: return nil
    }
  }
}

/// The event types the format defines, recognised from bytes.
extension Event.Kind {
  /// The keys the type defines after the envelope (any order when reading).
  var keys: UInt32 {
    switch self {
    case .session:
      JournalKey.v.bit | JournalKey.session.bit | JournalKey.app.bit | JournalKey.build.bit | JournalKey.device.bit
        | JournalKey.profile.bit | JournalKey.scenario.bit
    case .alloc: JournalKey.controller.bit | JournalKey.className.bit
    case .root, .dealloc: JournalKey.controller.bit
    case .link: JournalKey.from.bit | JournalKey.direction.bit | JournalKey.to.bit
    case .unlink: JournalKey.from.bit | JournalKey.direction.bit
    case .modal: JournalKey.controller.bit | JournalKey.presenter.bit
    case .touches: JournalKey.controller.bit | JournalKey.direction.bit | JournalKey.min.bit
    case .pan:
      JournalKey.controller.bit | JournalKey.direction.bit | JournalKey.touches.bit | JournalKey.distance.bit
        | JournalKey.velocity.bit | JournalKey.outcome.bit
    case .move:
      JournalKey.from.bit | JournalKey.to.bit | JournalKey.direction.bit | JournalKey.trigger.bit
        | JournalKey.animated.bit
    case .lifecycle: JournalKey.controller.bit | JournalKey.callback.bit
    case .mark: JournalKey.label.bit
    }
  }

  @inline(__always)
  static func match(_ p: UnsafePointer<UInt8>, _ n: Int) -> Event.Kind? {
    switch n {
    case 3: return bytesEqual(p, n, "pan") ? .pan : nil
    case 4:
      switch p[0] {
      case UInt8(ascii: "r"): return bytesEqual(p, n, "root") ? .root : nil
      case UInt8(ascii: "l"): return bytesEqual(p, n, "link") ? .link : nil
      case UInt8(ascii: "m"):
        if bytesEqual(p, n, "move") { return .move }
        return bytesEqual(p, n, "mark") ? .mark : nil
      default: return nil
      }
    case 5:
      switch p[0] {
      case UInt8(ascii: "a"): return bytesEqual(p, n, "alloc") ? .alloc : nil
      case UInt8(ascii: "m"): return bytesEqual(p, n, "modal") ? .modal : nil
      default: return nil
      }
    case 6: return bytesEqual(p, n, "unlink") ? .unlink : nil
    case 7:
      switch p[0] {
      case UInt8(ascii: "s"): return bytesEqual(p, n, "session") ? .session : nil
      case UInt8(ascii: "t"): return bytesEqual(p, n, "touches") ? .touches : nil
      case UInt8(ascii: "d"): return bytesEqual(p, n, "dealloc") ? .dealloc : nil
      default: return nil
      }
    case 9: return bytesEqual(p, n, "lifecycle") ? .lifecycle : nil
    default: return nil
    }
  }
}

/// Wire values of the small enums, recognised from bytes without a `String`.
enum EnumMatch {
  @inline(__always)
  static func direction(_ p: UnsafePointer<UInt8>, _ n: Int) -> Direction? {
    switch n {
    case 2: return bytesEqual(p, n, "up") ? .up : nil
    case 4:
      if bytesEqual(p, n, "left") { return .left }
      return bytesEqual(p, n, "down") ? .down : nil
    case 5: return bytesEqual(p, n, "right") ? .right : nil
    default: return nil
    }
  }

  @inline(__always)
  static func callback(_ p: UnsafePointer<UInt8>, _ n: Int) -> Callback? {
    switch n {
    case 7: return bytesEqual(p, n, "didLoad") ? .didLoad : nil
    case 9: return bytesEqual(p, n, "didAppear") ? .didAppear : nil
    case 10: return bytesEqual(p, n, "willAppear") ? .willAppear : nil
    case 12: return bytesEqual(p, n, "didDisappear") ? .didDisappear : nil
    case 13: return bytesEqual(p, n, "willDisappear") ? .willDisappear : nil
    default: return nil
    }
  }

  @inline(__always)
  static func outcome(_ p: UnsafePointer<UInt8>, _ n: Int) -> PanOutcome? {
    switch n {
    case 7:
      if bytesEqual(p, n, "blocked") { return .blocked }
      return bytesEqual(p, n, "refused") ? .refused : nil
    case 8: return bytesEqual(p, n, "snapBack") ? .snapBack : nil
    case 9:
      if bytesEqual(p, n, "committed") { return .committed }
      return bytesEqual(p, n, "cancelled") ? .cancelled : nil
    default: return nil
    }
  }

  @inline(__always)
  static func trigger(_ p: UnsafePointer<UInt8>, _ n: Int) -> MoveTrigger? {
    switch n {
    case 3: return bytesEqual(p, n, "pan") ? .pan : nil
    case 5: return bytesEqual(p, n, "fling") ? .fling : nil
    case 8: return bytesEqual(p, n, "goToRoot") ? .goToRoot : nil
    case 12: return bytesEqual(p, n, "programmatic") ? .programmatic : nil
    default: return nil
    }
  }
}

/// Up to 8 ASCII bytes of a literal, from byte `from`, as a little-endian
/// word (the first byte lowest); folds to a constant for a literal argument.
@inline(__always)
func asciiWord(_ literal: StaticString, from: Int = 0) -> UInt64 {
  var word: UInt64 = 0
  var k = Swift.min(literal.utf8CodeUnitCount, from + 8)
  while k > from {
    k -= 1
    word = word << 8 | UInt64(literal.utf8Start[k])
  }
  return word
}

/// Whether `n` bytes at `p` spell `literal` (an ASCII literal).
@inline(__always)
func bytesEqual(_ p: UnsafePointer<UInt8>, _ n: Int, _ literal: StaticString) -> Bool {
  guard n == literal.utf8CodeUnitCount else { return false }
  let q = literal.utf8Start
  var k = 0
  while k < n {
    if p[k] != q[k] { return false }
    k += 1
  }
  return true
}
