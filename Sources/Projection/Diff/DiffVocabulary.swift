import Journal

/// The interning tables of a diff: every distinct ``NormalizedEvent`` gets a
/// small integer (its *token*) and every controller name an index, so that the
/// alignment compares integers.
///
/// Two runs compared with each other must use one vocabulary; see
/// ``NormalizedRun/unified(with:)``.
///
/// Implementation note: a run of a million events can hold hundreds of
/// thousands of distinct events (every modal is a new controller), so the
/// common events (lifecycle, move, modal, dealloc, link, unlink, root,
/// touches) are packed into one `UInt64` and interned in an open-addressing
/// table with a multiplicative hash; only the rare ones with strings or
/// numbers (alloc, pan, mark, unknown types) go through a `Dictionary` of
/// ``NormalizedEvent``.
public struct DiffVocabulary: Sendable {
  /// How a diff names a controller: by its id, or, matching by class, as an instance of its class
  /// (`Rendering` writes it, e.g. `2nd NotesViewController`).
  public enum Name: Sendable, Hashable {
    /// The id (matching by id, or a controller the run never allocated).
    case id(String)
    /// The `ordinal`-th controller of the class allocated in the run (the first is 1): a label that
    /// no recorded id can be mistaken for.
    case instance(Int, of: String)
  }

  /// Every controller name, indexed as in ``NormalizedEvent``.
  public private(set) var controllers: [Name] = []

  /// Per token: its packed key, or ``PackedEvent/slowKind`` and an index into `slowEvents`.
  private var keys: [UInt64] = []
  private var table = PackedTable()
  private var slowEvents: [NormalizedEvent] = []
  private var slowIndex: [NormalizedEvent: Int32] = [:]
  private var controllerIndex: [Name: Int32] = [:]
  /// Tokens of the events that name one controller and nothing else
  /// (lifecycle callbacks, dealloc, root) by `controller * 8 + variant`, -1
  /// when not known yet (see ``PackedEvent/directSlot(_:)``).
  private var direct: [Int32] = []

  public init() {}

  /// The number of distinct events (tokens are `0..<tokenCount`).
  public var tokenCount: Int { keys.count }

  /// The token of `event`, adding it if it is new.
  public mutating func token(for event: NormalizedEvent) -> Int32 {
    if let key = PackedEvent.pack(event) { return token(packed: key) }
    if let t = slowIndex[event] { return t }
    let t = Int32(keys.count)
    keys.append(PackedEvent.slow(index: slowEvents.count))
    slowEvents.append(event)
    slowIndex[event] = t
    return t
  }

  /// The token of a packed event, adding it if it is new (the fast path).
  ///
  /// Implementation note: events naming one controller only (lifecycle,
  /// dealloc, root; about half of a run's distinct events, since every new
  /// controller brings five callbacks and a dealloc) are looked up in a plain
  /// array by controller, with no hashing; the others in the hash table.
  @inline(__always)
  mutating func token(packed key: UInt64) -> Int32 {
    if let slot = PackedEvent.directSlot(key) {
      if slot < direct.count {
        let t = direct[slot]
        if t >= 0 { return t }
      }
      return addDirect(key, slot)
    }
    let next = Int32(keys.count)
    let t = table.findOrInsert(key, next)
    if t == next { keys.append(key) }
    return t
  }

  @inline(never)
  private mutating func addDirect(_ key: UInt64, _ slot: Int) -> Int32 {
    if slot >= direct.count {
      direct.append(contentsOf: repeatElement(-1, count: max(slot + 1, direct.count * 2) - direct.count))
    }
    let t = Int32(keys.count)
    keys.append(key)
    direct[slot] = t
    return t
  }

  /// The token of a lifecycle callback (the most common event), adding it if it is new.
  @inline(__always)
  mutating func lifecycleToken(_ c: Int32, _ callback: Callback) -> Int32 {
    guard let key = PackedEvent.lifecycle(c, callback) else {
      return token(for: .lifecycle(controller: c, callback: callback))
    }
    return token(packed: key)
  }

  /// The index of a controller name, adding it if it is new.
  public mutating func controller(named name: Name) -> Int32 {
    if let c = controllerIndex[name] { return c }
    let c = Int32(controllers.count)
    controllers.append(name)
    controllerIndex[name] = c
    return c
  }

  /// The event a token stands for.
  public subscript(token: Int32) -> NormalizedEvent {
    let key = keys[Int(token)]
    if let event = PackedEvent.unpack(key) { return event }
    return slowEvents[PackedEvent.slowIndex(key)]
  }

  /// Whether a token is a lifecycle callback, and which (without building the event).
  func callback(of token: Int32) -> (controller: Int32, callback: Callback)? {
    let key = keys[Int(token)]
    if let packed = PackedEvent.lifecycle(key) { return packed }
    if key >> 60 == PackedEvent.slowKind, case .lifecycle(let c, let callback) = slowEvents[PackedEvent.slowIndex(key)]
    {
      return (c, callback)
    }
    return nil
  }

  /// The name of a controller index.
  public func name(of controller: Int32) -> Name { controllers[Int(controller)] }

  /// Adds every event of `other` to this vocabulary and returns, for each of
  /// `other`'s tokens, the token it has here.
  ///
  /// - Parameters:
  ///   - other: the vocabulary absorbed.
  ///   - names: the name each of `other`'s controllers takes here (one per
  ///     controller, several may share one); nil keeps their names.
  /// - Complexity: O(distinct events and controllers of `other`).
  mutating func absorb(_ other: DiffVocabulary, renaming names: [Name]? = nil) -> [Int32] {
    precondition(names == nil || names?.count == other.controllers.count, "one name per controller")
    let controllerMap = (names ?? other.controllers).map { controller(named: $0) }
    var map = [Int32](repeating: 0, count: other.keys.count)
    for (t, key) in other.keys.enumerated() {
      if let moved = PackedEvent.mapControllers(key, { controllerMap[Int($0)] }) {
        map[t] = token(packed: moved)
      } else {
        let event = other[Int32(t)]
        map[t] = token(for: event.mapControllers { controllerMap[Int($0)] })
      }
    }
    return map
  }
}

/// The packed form of the common events: kind in bits 60–63, the first
/// controller in bits 0–25, the second (or a number) in bits 26–51, small
/// enums from bit 52.
enum PackedEvent {
  static let controllerLimit: Int32 = 1 << 26
  static let slowKind: UInt64 = 15

  private static let lifecycleKind: UInt64 = 1
  private static let moveKind: UInt64 = 2
  private static let modalKind: UInt64 = 3
  private static let deallocKind: UInt64 = 4
  private static let linkKind: UInt64 = 5
  private static let unlinkKind: UInt64 = 6
  private static let rootKind: UInt64 = 7
  private static let touchesKind: UInt64 = 8

  private static let callbacks = Callback.allCases
  private static let directions = Direction.slotOrder
  private static let triggers = MoveTrigger.allCases

  @inline(__always)
  static func slow(index: Int) -> UInt64 { slowKind << 60 | UInt64(index) }

  /// Where an event that names one controller only is kept in the direct
  /// table: `controller * 8 + variant` (callbacks 0–4, dealloc 5, root 6); nil for other events.
  @inline(__always)
  static func directSlot(_ key: UInt64) -> Int? {
    let variant: Int
    switch key >> 60 {
    case lifecycleKind: variant = Int((key >> 52) & 7)
    case deallocKind: variant = 5
    case rootKind: variant = 6
    default: return nil
    }
    return Int(key & 0x3FF_FFFF) &* 8 &+ variant
  }

  @inline(__always)
  static func slowIndex(_ key: UInt64) -> Int { Int(key & 0xFFFF_FFFF) }

  @inline(__always)
  private static func fits(_ c: Int32) -> Bool { c >= 0 && c < controllerLimit }

  @inline(__always)
  private static func make(_ kind: UInt64, _ first: Int32, _ second: UInt64 = 0, _ small: UInt64 = 0) -> UInt64 {
    kind << 60 | small << 52 | second << 26 | UInt64(first)
  }

  @inline(__always)
  static func lifecycle(_ c: Int32, _ callback: Callback) -> UInt64? {
    guard fits(c) else { return nil }
    return make(lifecycleKind, c, 0, UInt64(callback.index))
  }

  /// The packed key of an event, or nil when it has to take the slow path.
  @inline(__always)
  static func pack(_ event: NormalizedEvent) -> UInt64? {
    switch event {
    case .lifecycle(let c, let callback):
      return lifecycle(c, callback)
    case .move(let a, let b, let d, let t, let animated):
      guard fits(a), fits(b) else { return nil }
      return make(
        moveKind, a, UInt64(b), UInt64(d.index) | UInt64(t.index) << 2 | (animated ? 1 << 4 : 0))
    case .modal(let m, let p):
      guard fits(m), fits(p) else { return nil }
      return make(modalKind, m, UInt64(p))
    case .dealloc(let c):
      guard fits(c) else { return nil }
      return make(deallocKind, c)
    case .link(let a, let d, let b):
      guard fits(a), fits(b) else { return nil }
      return make(linkKind, a, UInt64(b), UInt64(d.index))
    case .unlink(let a, let d):
      guard fits(a) else { return nil }
      return make(unlinkKind, a, 0, UInt64(d.index))
    case .root(let c):
      guard fits(c) else { return nil }
      return make(rootKind, c)
    case .touches(let c, let d, let min):
      guard fits(c), min >= 0, min < Int(controllerLimit) else { return nil }
      return make(touchesKind, c, UInt64(min), UInt64(d.index))
    case .alloc, .pan, .mark, .other:
      return nil
    }
  }

  /// The event of a packed key; nil for a slow key.
  static func unpack(_ key: UInt64) -> NormalizedEvent? {
    let first = Int32(key & 0x3FF_FFFF)
    let second = Int32((key >> 26) & 0x3FF_FFFF)
    let small = Int((key >> 52) & 0xFF)
    switch key >> 60 {
    case lifecycleKind: return .lifecycle(controller: first, callback: callbacks[small])
    case moveKind:
      return .move(
        from: first, to: second, direction: directions[small & 3], trigger: triggers[(small >> 2) & 3],
        animated: small & 16 != 0)
    case modalKind: return .modal(controller: first, presenter: second)
    case deallocKind: return .dealloc(controller: first)
    case linkKind: return .link(from: first, direction: directions[small & 3], to: second)
    case unlinkKind: return .unlink(from: first, direction: directions[small & 3])
    case rootKind: return .root(controller: first)
    case touchesKind: return .touches(controller: first, direction: directions[small & 3], min: Int(second))
    default: return nil
    }
  }

  /// The controller and callback of a packed lifecycle key.
  static func lifecycle(_ key: UInt64) -> (controller: Int32, callback: Callback)? {
    guard key >> 60 == lifecycleKind else { return nil }
    return (Int32(key & 0x3FF_FFFF), callbacks[Int((key >> 52) & 0xFF)])
  }

  /// The key with its controllers renamed; nil for a slow key, or when a
  /// renamed controller no longer fits the packed form.
  @inline(__always)
  static func mapControllers(_ key: UInt64, _ transform: (Int32) -> Int32) -> UInt64? {
    let kind = key >> 60
    guard kind != slowKind else { return nil }
    let first = transform(Int32(key & 0x3FF_FFFF))
    guard fits(first) else { return nil }
    var moved = key & ~0x3FF_FFFF | UInt64(first)
    if kind == moveKind || kind == modalKind || kind == linkKind {
      let second = transform(Int32((key >> 26) & 0x3FF_FFFF))
      guard fits(second) else { return nil }
      moved = moved & ~(0x3FF_FFFF << 26) | UInt64(second) << 26
    }
    return moved
  }
}

/// An open-addressing hash table from packed keys (never 0) to tokens.
///
/// Implementation note: keys and values sit side by side in one array, so a
/// probe touches one cache line; most inserts of a large run are new events,
/// and each costs that one miss.
struct PackedTable: Sendable {
  private struct Slot: Sendable {
    var key: UInt64
    var value: Int32
  }

  private var slots = [Slot](repeating: Slot(key: 0, value: 0), count: 1024)
  private var count = 0
  private var shift = 64 - 10

  /// The value of `key`, or inserts `value` for it and returns `value`.
  @inline(__always)
  mutating func findOrInsert(_ key: UInt64, _ value: Int32) -> Int32 {
    let shift = UInt64(self.shift)
    let found = slots.withUnsafeMutableBufferPointer { slots -> Int32? in
      let mask = slots.count - 1
      var i = Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> shift)
      while true {
        let k = slots[i].key
        if k == key { return slots[i].value }
        if k == 0 { break }
        i = (i + 1) & mask
      }
      slots[i] = Slot(key: key, value: value)
      return nil
    }
    if let found { return found }
    count += 1
    if count * 2 > slots.count { grow() }
    return value
  }

  @inline(never)
  private mutating func grow() {
    let old = slots
    slots = [Slot](repeating: Slot(key: 0, value: 0), count: old.count * 2)
    shift -= 1
    let shift = UInt64(self.shift)
    slots.withUnsafeMutableBufferPointer { slots in
      let mask = slots.count - 1
      for slot in old where slot.key != 0 {
        var i = Int(truncatingIfNeeded: (slot.key &* 0x9E37_79B9_7F4A_7C15) >> shift)
        while slots[i].key != 0 { i = (i + 1) & mask }
        slots[i] = slot
      }
    }
  }
}
