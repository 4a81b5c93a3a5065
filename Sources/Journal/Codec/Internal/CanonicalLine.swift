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
    let k = StringBytes.firstSpecial(base, from: start, count: count)
    guard k < count, base[k] == Self.quote else { return nil }
    index = k &+ 1
    return (start, k &- start)
  }

  /// `,"key":"id"`: an id of 1 to 256 bytes, handed out by `ids` as the general parser does.
  @inline(__always)
  private mutating func id(_ key: JournalKey, _ ids: IDCache?) -> ControllerID? {
    guard text(tables.member(key)), let (start, n) = plainString(), n > 0, n <= ControllerID.maximumLength else {
      return nil
    }
    if let ids { return ids.id(base + start, n) }
    return ControllerID(utf8: UnsafeRawBufferPointer(start: base + start, count: n))
  }

  /// `,"key":"text"` (a class name: handed out by `ids` as ids are).
  @inline(__always)
  private mutating func string(_ key: JournalKey, _ ids: IDCache?) -> String? {
    guard text(tables.member(key)), let (start, n) = plainString() else { return nil }
    if n <= SmallASCII.capacity, tables.smallStrings { return smallString(start, n) }
    if let ids { return ids.string(base + start, n) }
    return String(decoding: UnsafeBufferPointer(start: base + start, count: n), as: UTF8.self)
  }

  /// The string of the `n` (at most 15) printable ASCII bytes at `start` (``SmallASCII``).
  @inline(__always)
  private func smallString(_ start: Int, _ n: Int) -> String {
    let rest = count &- start
    let words =
      rest >= ShortText.capacity ? ShortText(loading: base + start) : ShortText(endingAt: base + start, rest)
    return SmallASCII.string(words, n)
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
    // Up to 7 digits (a seq below ten million, a count) read as one word, the first byte lowest.
    if count &- index >= 8 {
      let digits =
        UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)) ^ 0x3030_3030_3030_3030
      // A byte that is not a digit has a high nibble, or gets one when 6 is added; a carry out of
      // such a byte can only mark bytes after it, and the first one marked ends the digits.
      let others = (digits | (digits &+ 0x0606_0606_0606_0606)) & 0xF0F0_F0F0_F0F0_F0F0
      if others != 0 {
        let n = others.trailingZeroBitCount &>> 3
        guard n > 0, n == 1 || digits & 0xFF != 0 else { return nil }
        index &+= n
        return Self.value(ofDigits: digits &<< UInt64((8 &- n) &* 8))
      }
    }
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

  /// The number of the eight digit values of `word` (each byte 0 to 9, the first, most significant,
  /// byte lowest): pairs, then fours, then all eight are combined with one multiplication each.
  @inline(__always)
  private static func value(ofDigits word: UInt64) -> Int {
    let pairs = (word &* 10 &+ (word &>> 8)) & 0x00FF_00FF_00FF_00FF
    let fours = (pairs &* 100 &+ (pairs &>> 16)) & 0x0000_FFFF_0000_FFFF
    return Int(truncatingIfNeeded: (fours &* 10000 &+ (fours &>> 32)) & 0xFFFF_FFFF)
  }

  /// `,"key":number`: RFC 8259's number grammar, converted as the general parser converts, finite.
  ///
  /// Implementation note: the form writers use for distances and velocities (`-?digits(.digits)?`, at
  /// most 19 digits, below 2^53, at most 22 after the point) is checked and converted in one pass
  /// over its digits, the conversion being ``JSONScanner/doubleValue(_:)``'s exact one (one division
  /// by a power of ten); any other number goes through the grammar and that function.
  @inline(__always)
  private mutating func number(_ key: JournalKey) -> Double? {
    guard text(tables.member(key)) else { return nil }
    let start = index
    var k = index
    let negative = k < count && base[k] == UInt8(ascii: "-")
    if negative { k &+= 1 }
    let integerStart = k
    var mantissa: UInt64 = 0
    while k < count {
      let digit = base[k] &- UInt8(ascii: "0")
      guard digit < 10 else { break }
      mantissa = mantissa &* 10 &+ UInt64(digit)
      k &+= 1
    }
    var digits = k &- integerStart
    guard digits > 0, digits == 1 || base[integerStart] != UInt8(ascii: "0") else { return nil }
    var fractionDigits = 0
    if k < count, base[k] == UInt8(ascii: ".") {
      k &+= 1
      let fractionStart = k
      while k < count {
        let digit = base[k] &- UInt8(ascii: "0")
        guard digit < 10 else { break }
        mantissa = mantissa &* 10 &+ UInt64(digit)
        k &+= 1
      }
      fractionDigits = k &- fractionStart
      guard fractionDigits > 0 else { return nil }
      digits &+= fractionDigits
    }
    guard k == count || base[k] | 0x20 != UInt8(ascii: "e"), digits <= 19, mantissa <= 1 << 53, fractionDigits <= 22
    else { return generalNumber(from: start) }
    index = k
    var value = Double(mantissa)
    if fractionDigits > 0 { value /= tables.powersOfTen[fractionDigits] }
    return negative ? -value : value
  }

  /// The number at `start` by RFC 8259's grammar, converted by the general parser's ``JSONScanner/doubleValue(_:)``.
  @inline(never)
  private mutating func generalNumber(from start: Int) -> Double? {
    var k = start
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
