import Journal

/// What a journal keeps of what the app hands over: applied on the caller's thread
/// to every event (ids, classes, mark labels, mark keys and values, extra keys) and to
/// the header, before anything is queued, so that nothing redacted ever reaches
/// memory shared with the writer, the disk, or a triggered journal.
///
/// Each part is a function; the ready ones:
///
/// | redaction | changes | keeps |
/// |---|---|---|
/// | ``hashingIDs`` | every controller id becomes `CLASS#h` + 16 hex digits of a keyed hash (the key drawn at launch, never written) | the class name, the id's part before `#`, uniqueness and identity within the session (the same id always gives the same hash) |
/// | ``droppingMarkPayloads`` | mark fields and the extra keys of ``SessionRecorder/record(_:extra:file:line:)`` are dropped | mark labels, every event's type and ids |
/// | ``droppingDevice`` | the header's `device` and `build` are left out | the session id, app, profile, scenario |
///
/// ```swift
/// options.redaction = .hashingIDs.then(.droppingMarkPayloads)
/// ```
///
/// A redaction must map equal inputs to equal outputs and distinct ids to distinct
/// ids within a session, so that the journal stays consistent: a journal that checks
/// clean then checks clean redacted.
public struct Redaction: Sendable {
  /// A controller id.
  public var id: @Sendable (ControllerID) -> ControllerID
  /// An `alloc`'s class name.
  public var className: @Sendable (String) -> String
  /// A mark's label.
  public var markLabel: @Sendable (String) -> String
  /// A mark's fields (given its label as the app wrote it) or an event's extra keys (label nil).
  public var fields: @Sendable (_ label: String?, _ fields: [Field]) -> [Field]
  /// The session header.
  public var header: @Sendable (SessionHeader) -> SessionHeader

  public init(
    id: @escaping @Sendable (ControllerID) -> ControllerID = { $0 },
    className: @escaping @Sendable (String) -> String = { $0 },
    markLabel: @escaping @Sendable (String) -> String = { $0 },
    fields: @escaping @Sendable (_ label: String?, _ fields: [Field]) -> [Field] = { $1 },
    header: @escaping @Sendable (SessionHeader) -> SessionHeader = { $0 }
  ) {
    self.id = id
    self.className = className
    self.markLabel = markLabel
    self.fields = fields
    self.header = header
  }

  /// This redaction, then `next` on its result.
  public func then(_ next: Redaction) -> Redaction {
    let first = self
    return Redaction(
      id: { next.id(first.id($0)) }, className: { next.className(first.className($0)) },
      markLabel: { next.markLabel(first.markLabel($0)) },
      fields: { label, fields in next.fields(label.map(first.markLabel), first.fields(label, fields)) },
      header: { next.header(first.header($0)) })
  }

  /// Ids hashed with a key drawn at launch, keeping the class: see the table above.
  public static var hashingIDs: Redaction { hashingIDs(key: UInt64.random(in: 0 ... .max)) }

  /// Ids hashed with `key` (for tests: the same key gives the same ids).
  public static func hashingIDs(key: UInt64) -> Redaction {
    Redaction(id: { id in
      let raw = id.rawValue
      let prefix = raw.firstIndex(of: "#").map { raw[..<$0] } ?? ""
      let hash = Self.hash(raw, key: key)
      let hex = String(hash, radix: 16)
      return ControllerID("\(prefix)#h\(String(repeating: "0", count: 16 - hex.count))\(hex)")
    })
  }

  /// Mark fields and extra keys dropped: see the table above.
  public static let droppingMarkPayloads = Redaction(fields: { _, _ in [] })

  /// The header's `device` and `build` left out: see the table above.
  public static let droppingDevice = Redaction(header: { header in
    var header = header
    header.device = nil
    header.build = nil
    return header
  })

  /// A 64-bit keyed hash (SipHash-1-3 style mixing over FNV-1a; not a MAC, a pseudonym):
  /// distinct ids collide with probability about n² / 2⁶⁵.
  static func hash(_ text: String, key: UInt64) -> UInt64 {
    var h: UInt64 = 0xcbf2_9ce4_8422_2325 ^ key
    for byte in text.utf8 {
      h ^= UInt64(byte)
      h = h &* 0x100_0000_01b3
    }
    // A final avalanche (splitmix64's), so that ids differing in their last byte differ everywhere.
    h ^= key &+ 0x9e37_79b9_7f4a_7c15
    h = (h ^ (h >> 30)) &* 0xbf58_476d_1ce4_e5b9
    h = (h ^ (h >> 27)) &* 0x94d0_49bb_1331_11eb
    return h ^ (h >> 31)
  }

  /// The event as the journal keeps it.
  func apply(_ event: Event) -> Event {
    switch event {
    case .session(let h): return .session(header(h))
    case .alloc(let c, let name): return .alloc(controller: id(c), className: className(name))
    case .root(let c): return .root(controller: id(c))
    case .link(let a, let d, let b): return .link(from: id(a), direction: d, to: id(b))
    case .unlink(let a, let d): return .unlink(from: id(a), direction: d)
    case .modal(let m, let p): return .modal(controller: id(m), presenter: id(p))
    case .touches(let c, let d, let n): return .touches(controller: id(c), direction: d, min: n)
    case .pan(var p):
      p.controller = id(p.controller)
      return .pan(p)
    case .move(var m):
      m.from = id(m.from)
      m.to = id(m.to)
      return .move(m)
    case .lifecycle(let c, let callback): return .lifecycle(controller: id(c), callback: callback)
    case .dealloc(let c): return .dealloc(controller: id(c))
    case .mark(let label, let f): return .mark(label: markLabel(label), fields: fields(label, f))
    case .unknown: return event
    }
  }
}
