/// Reads a line written in the writer's own form in one pass, or gives up at
/// the first byte that differs from that form: the general ``RecordParser``
/// then reads the line from its start, so what is accepted, the record made
/// and every error are the general parser's.
///
/// The writer's form (``Record/encode(into:)``, and any writer that follows
/// the spec's key order): `{"seq":N,"time":"YYYY-MM-DDTHH:MM:SS.ffffffZ","type":"T"`,
/// then the type's keys in ``Event/Kind/keyOrder`` as `,"key":value`, then `}`
/// as the line's last byte; no whitespace, strings of printable ASCII without
/// escapes, integers without sign or leading zero. `session` and `mark` lines
/// (one a journal, and free fields) and unknown types are left to the general
/// parser.
///
/// Implementation note: the general parser scans the whole object first
/// (syntax, UTF-8, duplicates, depth), locating each member, and builds the
/// record from the located values afterwards; on a line in this form the
/// bytes between the values are known in advance, so each is compared as one
/// or two words (``ShortText``), each value read where it stands and the
/// record built as the line is read. Anything this reader accepts is valid
/// JSON with the same values for the general parser (printable ASCII needs
/// no UTF-8 check; a fixed key sequence has no duplicates; a flat object is
/// depth 1), so the two agree on every line this one reads
/// (`CanonicalLineTests` compares them on every bundled journal, both shapes
/// and mutations of each line).
struct CanonicalLine {
  private let base: UnsafePointer<UInt8>
  private let count: Int
  private var index = 0
  /// The codec's tables (``WireTables/shared``, which lives as long as the process).
  private unowned(unsafe) let tables: WireTables

  private static let quote = UInt8(ascii: "\"")

  private init(base: UnsafePointer<UInt8>, count: Int, tables: WireTables) {
    self.base = base
    self.count = count
    self.tables = tables
  }

  /// The record of `line` if it is in the writer's form (and within `limits`), else nil;
  /// `minute` and `ids` as for ``RecordParser/record(_:limits:minute:ids:)``.
  @inline(__always)
  static func record(
    _ line: UnsafeRawBufferPointer, limits: DecodeLimits, minute: inout CanonicalMinute, ids: IDCache?
  ) -> Record? {
    // At least 16 bytes (any line in the form has more): text near the end is read as words that end there.
    guard let start = line.baseAddress, line.count >= ShortText.capacity, line.count <= limits.maxLineLength,
      limits.maxDepth >= 1
    else { return nil }
    var reader = CanonicalLine(
      base: start.assumingMemoryBound(to: UInt8.self), count: line.count, tables: WireTables.shared)
    return reader.record(minute: &minute, ids: ids)
  }

  @inline(__always)
  private mutating func record(minute: inout CanonicalMinute, ids: IDCache?) -> Record? {
    guard text(tables.lineStart), let seq = unsigned(), text(tables.timeMember) else { return nil }
    // The canonical time is 27 bytes and its closing quote.
    guard count - index >= 28, base[index + 27] == Self.quote,
      let time = Timestamp.parseCanonical(base + index, 27, minute: &minute)
    else { return nil }
    index += 28
    guard text(tables.member(.type)), let (start, n) = plainString(),
      let kind = tables.kinds.match(base + start, n, lineEndsAfter: count - start),
      let event = event(of: kind, ids: ids),
      index == count - 1, base[index] == UInt8(ascii: "}")
    else { return nil }
    return Record(seq: seq, time: time, event: event)
  }

  /// The event of a type's keys, in order.
  @inline(__always)
  private mutating func event(of kind: Event.Kind, ids: IDCache?) -> Event? {
    switch kind {
    case .lifecycle:
      guard let controller = id(.controller, ids), let callback = name(.callback, tables.callbacks) else { return nil }
      return .lifecycle(controller: controller, callback: callback)
    case .move:
      guard let from = id(.from, ids), let to = id(.to, ids), let direction = name(.direction, tables.directions),
        let trigger = name(.trigger, tables.triggers), let animated = bool(.animated)
      else { return nil }
      return .move(Move(from: from, to: to, direction: direction, trigger: trigger, animated: animated))
    case .alloc:
      guard let controller = id(.controller, ids), let className = string(.className, ids) else { return nil }
      return .alloc(controller: controller, className: className)
    case .dealloc:
      guard let controller = id(.controller, ids) else { return nil }
      return .dealloc(controller: controller)
    case .link:
      guard let from = id(.from, ids), let direction = name(.direction, tables.directions), let to = id(.to, ids)
      else { return nil }
      return .link(from: from, direction: direction, to: to)
    case .unlink:
      guard let from = id(.from, ids), let direction = name(.direction, tables.directions) else { return nil }
      return .unlink(from: from, direction: direction)
    case .pan:
      guard let controller = id(.controller, ids), let direction = name(.direction, tables.directions),
        text(tables.member(.touches)), let touches = unsigned(), let distance = number(.distance),
        let velocity = number(.velocity), let outcome = name(.outcome, tables.outcomes)
      else { return nil }
      return .pan(
        Pan(
          controller: controller, direction: direction, touches: touches, distance: distance, velocity: velocity,
          outcome: outcome))
    case .modal:
      guard let controller = id(.controller, ids), let presenter = id(.presenter, ids) else { return nil }
      return .modal(controller: controller, presenter: presenter)
    case .root:
      guard let controller = id(.controller, ids) else { return nil }
      return .root(controller: controller)
    case .touches:
      guard let controller = id(.controller, ids), let direction = name(.direction, tables.directions),
        text(tables.member(.min)), let min = unsigned(), min >= 1
      else { return nil }
      return .touches(controller: controller, direction: direction, min: min)
    case .session, .mark:
      return nil
    }
  }

  // MARK: Pieces

  /// Moves past `expected` if the bytes at the cursor begin with it.
  @inline(__always)
  private mutating func text(_ expected: ShortText) -> Bool {
    let rest = count &- index
    guard rest >= expected.count else { return false }
    let bytes =
      rest >= ShortText.capacity ? ShortText(loading: base + index) : ShortText(endingAt: base + index, rest)
    guard expected.isPrefix(of: bytes) else { return false }
    index &+= expected.count
    return true
  }

  /// A string of printable ASCII without escapes at the cursor: its content's offset and length.
  @inline(__always)
  private mutating func plainString() -> (start: Int, count: Int)? {
    guard index < count, base[index] == Self.quote else { return nil }
    let start = index &+ 1
    var k = start
    while k &+ 8 <= count {
      let special = JSONScanner.specialBytes(
        UInt64(littleEndian: UnsafeRawPointer(base + k).loadUnaligned(as: UInt64.self)))
      if special != 0 {
        k &+= special.trailingZeroBitCount &>> 3
        guard base[k] == Self.quote else { return nil }
        index = k &+ 1
        return (start, k &- start)
      }
      k &+= 8
    }
    while k < count {
      let c = base[k]
      if c == Self.quote {
        index = k &+ 1
        return (start, k &- start)
      }
      if c &- 0x20 >= 0x60 || c == JSONScanner.backslash { return nil }
      k &+= 1
    }
    return nil
  }

  /// `,"key":"id"`: an id of 1 to 256 bytes, handed out by `ids` as the general parser does.
  @inline(__always)
  private mutating func id(_ key: JournalKey, _ ids: IDCache?) -> ControllerID? {
    guard text(tables.member(key)), let (start, n) = plainString(), n > 0, n <= ControllerID.maximumLength else {
      return nil
    }
    if let ids { return ids.id(base + start, n) }
    return ControllerID(String(decoding: UnsafeBufferPointer(start: base + start, count: n), as: UTF8.self))
  }

  /// `,"key":"text"` (a class name: handed out by `ids` as ids are).
  @inline(__always)
  private mutating func string(_ key: JournalKey, _ ids: IDCache?) -> String? {
    guard text(tables.member(key)), let (start, n) = plainString() else { return nil }
    if let ids { return ids.string(base + start, n) }
    return String(decoding: UnsafeBufferPointer(start: base + start, count: n), as: UTF8.self)
  }

  /// `,"key":"name"`, one of the names of `table`.
  @inline(__always)
  private mutating func name<T>(_ key: JournalKey, _ table: NameTable<T>) -> T? {
    guard text(tables.member(key)), let (start, n) = plainString() else { return nil }
    return table.match(base + start, n, lineEndsAfter: count - start)
  }

  /// `,"key":true` or `,"key":false`.
  @inline(__always)
  private mutating func bool(_ key: JournalKey) -> Bool? {
    guard text(tables.member(key)) else { return nil }
    if text(tables.trueText) { return true }
    if text(tables.falseText) { return false }
    return nil
  }

  /// An integer of 1 to 18 digits without sign or leading zero (the next byte is checked by the caller).
  @inline(__always)
  private mutating func unsigned() -> Int? {
    var k = index
    var value = 0
    let end = Swift.min(count, index &+ 18)
    while k < end {
      let digit = base[k] &- UInt8(ascii: "0")
      guard digit < 10 else { break }
      value = value &* 10 &+ Int(digit)
      k &+= 1
    }
    let n = k &- index
    guard n > 0, n == 1 || base[index] != UInt8(ascii: "0") else { return nil }
    index = k
    return value
  }

  /// `,"key":number`: RFC 8259's number grammar, converted as the general parser converts, finite.
  @inline(__always)
  private mutating func number(_ key: JournalKey) -> Double? {
    guard text(tables.member(key)) else { return nil }
    let start = index
    var k = index
    @inline(__always) func digit(_ j: Int) -> Bool { j < count && base[j] &- UInt8(ascii: "0") < 10 }
    if k < count, base[k] == UInt8(ascii: "-") { k &+= 1 }
    guard digit(k) else { return nil }
    if base[k] == UInt8(ascii: "0") {
      k &+= 1
    } else {
      while digit(k) { k &+= 1 }
    }
    if k < count, base[k] == UInt8(ascii: ".") {
      k &+= 1
      guard digit(k) else { return nil }
      while digit(k) { k &+= 1 }
    }
    if k < count, base[k] | 0x20 == UInt8(ascii: "e") {
      k &+= 1
      if k < count, base[k] == UInt8(ascii: "+") || base[k] == UInt8(ascii: "-") { k &+= 1 }
      guard digit(k) else { return nil }
      while digit(k) { k &+= 1 }
    }
    index = k
    let scanner = JSONScanner(base: base, count: count, maxDepth: 1)
    let value = scanner.doubleValue(JSONValueRef(kind: .number, flag: false, start: start, end: k))
    return value.isFinite ? value : nil
  }
}
