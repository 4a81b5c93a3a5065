/// Where the value of a known key is, and its position among the object's members.
struct MemberSlot {
  var value: JSONValueRef
  var order: Int
}

/// A key the format does not define, with its value.
struct UnknownMember {
  var key: [UInt8]
  var value: JSONValueRef
  var order: Int
}

/// Decodes the top-level object of one line into a ``Record`` or a ``Draft``:
/// first the whole object is scanned (syntax, UTF-8, duplicates, limits) while
/// each member's value is located, then the typed event is built from the
/// located values.
///
/// Implementation note: the values of the keys the format defines are
/// located in a fixed table on the stack, indexed by ``JournalKey`` and guarded
/// by one bit mask (which also finds duplicates), so a line of a known type
/// allocates nothing but the strings of its ids. Keys may come in any order;
/// only keys the format does not define take the slower path with a list.
struct RecordParser {
  var scanner: JSONScanner
  let slots: UnsafeMutablePointer<MemberSlot>
  /// The codec's tables, taken once for the line (``WireTables/shared``, which lives as long as the process).
  unowned(unsafe) let tables: WireTables
  /// The known keys seen so far, one bit per ``JournalKey``.
  var seen: UInt32 = 0
  var unknown: [UnknownMember] = []
  var unknownKeys: Set<[UInt8]> = []
  var memberCount = 0
  /// Offset of the top-level object's closing brace (where a missing key is reported).
  var closingBrace = 0
  /// The event type, once the `type` member has been read (and is a known type).
  var type: Event.Kind? = nil
  /// The keys that writers put next (see ``KeyQueue``): the envelope, then the type's keys.
  var upcoming: KeyQueue
  /// The ids decoded lately on this thread, if the caller keeps them (see ``IDCache``);
  /// the caller holds it while the line decodes (not retained for every line).
  unowned(unsafe) var ids: IDCache? = nil

  /// Decodes one line into a record (`seq` and `time` required).
  static func record(_ line: UnsafeRawBufferPointer, limits: DecodeLimits) throws(DecodeError) -> Record {
    var minute = CanonicalMinute()
    return try record(line, limits: limits, minute: &minute)
  }

  /// Decodes one line of a sequence into a record; `minute` is the minute of the
  /// time decoded last (see ``Timestamp/parseCanonical(_:_:minute:)``), `ids`
  /// the ids decoded lately on this thread.
  static func record(
    _ line: UnsafeRawBufferPointer, limits: DecodeLimits, minute: inout CanonicalMinute, ids: IDCache? = nil
  ) throws(DecodeError) -> Record {
    // A line in the writer's form is read in one pass; any other line from its start, in the general way.
    if let record = CanonicalLine.record(line, limits: limits, minute: &minute, ids: ids) { return record }
    return try general(line, limits: limits, minute: &minute, ids: ids)
  }

  /// ``record(_:limits:minute:ids:)`` by the general parser alone (what the tests compare ``CanonicalLine`` with).
  @inline(never)
  static func general(
    _ line: UnsafeRawBufferPointer, limits: DecodeLimits, minute: inout CanonicalMinute, ids: IDCache? = nil
  ) throws(DecodeError) -> Record {
    try withParser(line, limits: limits, ids: ids) { (parser) throws(DecodeError) -> Record in
      try parser.record(minute: &minute)
    }
  }

  /// Decodes one line into a draft (`seq` and `time` optional).
  static func draft(_ line: UnsafeRawBufferPointer, limits: DecodeLimits) throws(DecodeError) -> Draft {
    try withParser(line, limits: limits) { (parser) throws(DecodeError) -> Draft in try parser.draft() }
  }

  /// Checks the limits, scans the object and hands the parser to `build`.
  ///
  /// Implementation note: the slot table lives in a temporary stack
  /// allocation, and the closure reports failure through a captured variable
  /// rather than by throwing, so no `Result` wrapping the large record is
  /// built and copied on every line.
  @inline(__always)
  static func withParser<T>(
    _ line: UnsafeRawBufferPointer, limits: DecodeLimits, ids: IDCache? = nil,
    _ build: (inout RecordParser) throws(DecodeError) -> T
  ) throws(DecodeError) -> T {
    guard line.count <= limits.maxLineLength else { throw .tooLong(limit: limits.maxLineLength) }
    guard let start = line.baseAddress, !line.isEmpty else {
      throw .malformed(0, "expected a JSON object, found the end of the line")
    }
    let scanner = JSONScanner(
      base: start.assumingMemoryBound(to: UInt8.self), count: line.count, maxDepth: limits.maxDepth)
    var failure: DecodeError? = nil
    let result = withUnsafeTemporaryAllocation(of: MemberSlot.self, capacity: JournalKey.count) { table -> T? in
      guard let slots = table.baseAddress else {
        preconditionFailure("a temporary allocation of a slot per key has an address")
      }
      let tables = WireTables.shared
      var parser = RecordParser(scanner: scanner, slots: slots, tables: tables, upcoming: tables.envelope)
      parser.ids = ids
      do throws(DecodeError) {
        try parser.parseObject()
        return try build(&parser)
      } catch {
        failure = error
        return nil
      }
    }
    guard let result else {
      guard let failure else { preconditionFailure("the parser failed without an error") }
      throw failure
    }
    return result
  }

  // MARK: Syntax

  /// Scans the top-level object and everything after it, locating each member's value.
  @inline(__always)
  mutating func parseObject() throws(DecodeError) {
    scanner.skipWhitespace()
    guard scanner.index < scanner.count, scanner.base[scanner.index] == UInt8(ascii: "{") else {
      throw scanner.notAnObject()
    }
    guard scanner.maxDepth >= 1 else { throw .tooDeep(scanner.index, limit: scanner.maxDepth) }
    scanner.index += 1
    scanner.skipWhitespace()
    if scanner.index < scanner.count, scanner.base[scanner.index] == UInt8(ascii: "}") {
      closingBrace = scanner.index
      scanner.index += 1
    } else {
      try parseMembers()
    }
    scanner.skipWhitespace()
    if scanner.index < scanner.count { throw trailingCharacters() }
  }

  @inline(__always)
  mutating func parseMembers() throws(DecodeError) {
    while true {
      guard scanner.index < scanner.count, scanner.base[scanner.index] == JSONScanner.quote else {
        throw scanner.unexpected("expected '\"' to start a key", inside: .object)
      }
      let keyStart = scanner.index
      if let key = try knownKey() {
        let value = try scanMemberValue()
        seen |= key.bit
        slots[Int(key.rawValue)] = MemberSlot(value: value, order: memberCount)
        if key == .type {
          if value.kind == .string { type = match(value, in: tables.kinds) }
          upcoming = type.map(tables.keys(of:)) ?? KeyQueue()
        } else if upcoming.starts(with: key) {
          _ = upcoming.next()
        } else {
          upcoming = upcoming(after: key)
        }
      } else {
        // `knownKey()` leaves `index` at a key with escapes.
        try otherMember(keyStart: keyStart, escaped: scanner.index == keyStart)
      }
      memberCount += 1
      // Writers put no spaces: look for ',' or '}' right after the value before skipping whitespace.
      if scanner.index < scanner.count, scanner.base[scanner.index] == UInt8(ascii: ",") {
        scanner.index += 1
        scanner.skipWhitespace()
        continue
      }
      scanner.skipWhitespace()
      guard scanner.index < scanner.count else {
        throw .malformed(scanner.count, "unexpected end of line inside an object")
      }
      let c = scanner.base[scanner.index]
      if c == UInt8(ascii: ",") {
        scanner.index += 1
        scanner.skipWhitespace()
      } else if c == UInt8(ascii: "}") {
        closingBrace = scanner.index
        scanner.index += 1
        return
      } else {
        throw scanner.unexpected("expected ',' or '}' after a value", inside: .object)
      }
    }
  }

  /// The key at `index` if it is one the format defines, spelt without
  /// escapes, and not seen before; `index` is then after its colon.
  /// Otherwise nil: for a key the format does not define `index` is after
  /// the key; for a key with escapes it stays at the key, to be read again
  /// by ``otherMember(keyStart:escaped:)``.
  @inline(__always)
  mutating func knownKey() throws(DecodeError) -> JournalKey? {
    let keyStart = scanner.index
    if let expected = upcoming.first, scanner.count - keyStart >= ShortText.capacity {
      let text = tables.quoted(expected)
      if text.isPrefix(at: scanner.base + keyStart) {
        guard seen & expected.bit == 0 else { throw .duplicateKey(keyStart, Array(expected.name.utf8)) }
        scanner.index = keyStart + text.count
        scanner.skipWhitespace()
        return expected
      }
    }
    let escaped = try scanner.scanString()
    guard !escaped,
      let key = tables.keys.match(
        scanner.base + keyStart + 1, scanner.index - keyStart - 2, readable: scanner.count - keyStart - 1)
    else {
      if escaped { scanner.index = keyStart }
      return nil
    }
    guard seen & key.bit == 0 else { throw .duplicateKey(keyStart, Array(key.name.utf8)) }
    try scanColon()
    return key
  }

  /// The keys writers put after `key` when it was not the one expected: the
  /// rest of the envelope, or of the type's keys, after it (none for a key
  /// the type does not define).
  @inline(never)
  func upcoming(after key: JournalKey) -> KeyQueue {
    if let rest = tables.envelope.after(key) { return rest }
    if let type, let rest = tables.keys(of: type).after(key) { return rest }
    return KeyQueue()
  }

  /// The `:` after a key, with any whitespace around it.
  @inline(__always)
  mutating func scanColon() throws(DecodeError) {
    if scanner.index < scanner.count, scanner.base[scanner.index] == UInt8(ascii: ":") {
      scanner.index += 1
    } else {
      scanner.skipWhitespace()
      guard scanner.index < scanner.count, scanner.base[scanner.index] == UInt8(ascii: ":") else {
        throw scanner.unexpected("expected ':' after a key", inside: .object)
      }
      scanner.index += 1
    }
    scanner.skipWhitespace()
  }

  /// The value of a member of the top-level object; strings, the common case, are scanned inline.
  @inline(__always)
  mutating func scanMemberValue() throws(DecodeError) -> JSONValueRef {
    let start = scanner.index
    if start < scanner.count, scanner.base[start] == JSONScanner.quote {
      let escaped = try scanner.scanString()
      return JSONValueRef(kind: .string, flag: escaped, start: start, end: scanner.index)
    }
    return try scanner.scanValue(depth: 1, inside: .object)
  }

  /// A member whose key has escapes or is not defined by the format: unescapes
  /// the key, stores the member as a known key if it is one after all, else
  /// checks it against the other unknown keys and keeps it in ``unknown``.
  /// - Parameter escaped: whether the key has escapes (it is then scanned again from `keyStart`).
  @inline(never)
  mutating func otherMember(keyStart: Int, escaped: Bool) throws(DecodeError) {
    if escaped { _ = try scanner.scanString() }
    let contentStart = keyStart + 1
    let contentEnd = scanner.index - 1
    let bytes =
      escaped
      ? scanner.unescape(from: contentStart, to: contentEnd)
      : Array(UnsafeBufferPointer(start: scanner.base + contentStart, count: contentEnd - contentStart))
    let known =
      escaped
      ? bytes.withUnsafeBufferPointer { buffer -> JournalKey? in
        guard let p = buffer.baseAddress else { return nil }
        return tables.keys.match(p, buffer.count, readable: buffer.count)
      } : nil
    if let known {
      guard seen & known.bit == 0 else { throw .duplicateKey(keyStart, bytes) }
      try scanColon()
      let value = try scanMemberValue()
      seen |= known.bit
      slots[Int(known.rawValue)] = MemberSlot(value: value, order: memberCount)
    } else {
      guard unknownKeys.insert(bytes).inserted else { throw .duplicateKey(keyStart, bytes) }
      try scanColon()
      let value = try scanMemberValue()
      unknown.append(UnknownMember(key: bytes, value: value, order: memberCount))
    }
  }

  @inline(never)
  func trailingCharacters() -> DecodeError {
    if let error = scanner.invalidUTF8(at: scanner.index) { return error }
    return .malformed(scanner.index, "trailing characters after the object")
  }

  // MARK: The typed record

  /// Builds the record from the located values.
  @inline(__always)
  func record(minute: inout CanonicalMinute) throws(DecodeError) -> Record {
    guard let seq = try seq() else { throw .missingKey(closingBrace, .seq) }
    guard let time = try time(minute: &minute) else { throw .missingKey(closingBrace, .time) }
    let (event, extra) = try body()
    return Record(seq: seq, time: time, event: event, extra: extra)
  }

  /// Builds the draft from the located values.
  @inline(__always)
  func draft() throws(DecodeError) -> Draft {
    var minute = CanonicalMinute()
    let seq = try seq()
    let time = try time(minute: &minute)
    let (event, extra) = try body()
    return Draft(seq: seq, time: time, event: event, extra: extra)
  }

  /// The `seq` of the envelope, if present: an integer ≥ 0.
  @inline(__always)
  func seq() throws(DecodeError) -> Int? {
    guard has(.seq) else { return nil }
    let ref = value(.seq)
    guard let number = scanner.integerValue(ref), number >= 0 else {
      throw .expected("an integer ≥ 0", for: .seq, found: scanner.found(ref), at: ref.start)
    }
    return number
  }

  /// The `time` of the envelope, if present.
  @inline(__always)
  func time(minute: inout CanonicalMinute) throws(DecodeError) -> Timestamp? {
    guard has(.time) else { return nil }
    return try timestamp(value(.time), minute: &minute)
  }

  /// The event named by `type`, and the keys that go to `extra`.
  @inline(__always)
  func body() throws(DecodeError) -> (Event, [Field]) {
    guard has(.type) else { throw .missingKey(closingBrace, .type) }
    let typeRef = value(.type)
    guard typeRef.kind == .string else {
      throw .expected("a string", for: .type, found: scanner.found(typeRef), at: typeRef.start)
    }
    guard let type = type ?? match(typeRef, in: tables.kinds) else { return unknownType(typeRef) }
    let others = seen & ~(JournalKey.envelopeMask | tables.mask(of: type))
    if others == 0 && unknown.isEmpty { return (try event(of: type, others: others), []) }
    return try eventWithExtra(of: type, others: others)
  }

  /// The event of a line that has keys its type does not define: checks an
  /// optional `source` (a string of at most ``Record/maximumSourceBytes``
  /// bytes) and gives the keys for `extra`. A mark's `source` is its call site,
  /// not part of its payload: it goes to `extra`, the rest of the keys to the mark.
  @inline(never)
  func eventWithExtra(of type: Event.Kind, others: UInt32) throws(DecodeError) -> (Event, [Field]) {
    let sourceIndex = unknown.firstIndex { $0.key.elementsEqual(Record.sourceKeyBytes) }
    if let sourceIndex { try checkSource(unknown[sourceIndex].value) }
    if type != .mark { return (try event(of: type, others: others), fields(others)) }
    guard let sourceIndex else { return (try event(of: type, others: others), []) }
    let label = try string(.label, type)
    let payload = fields(others, skippingUnknown: sourceIndex)
    let source = Field(key: Record.sourceKey, value: RawJSON(unchecked: scanner.text(unknown[sourceIndex].value)))
    return (.mark(label: label, fields: payload), [source])
  }

  /// A `source` value: a string of at most ``Record/maximumSourceBytes`` bytes once unescaped.
  @inline(never)
  func checkSource(_ ref: JSONValueRef) throws(DecodeError) {
    guard ref.kind == .string else {
      throw .malformed(ref.start, "expected a string for \"source\", found \(scanner.found(ref))")
    }
    let length = ref.flag ? scanner.unescape(from: ref.start + 1, to: ref.end - 1).count : ref.end - ref.start - 2
    guard length <= Record.maximumSourceBytes else {
      throw .malformed(
        ref.start, "\"source\" is \(length) bytes long; the format allows at most \(Record.maximumSourceBytes)")
    }
  }

  /// The event of a known type; `others` are the known keys the type does not define.
  @inline(__always)
  func event(of type: Event.Kind, others: UInt32) throws(DecodeError) -> Event {
    switch type {
    case .session:
      return .session(
        SessionHeader(
          version: try integer(.v, type),
          session: try string(.session, type),
          app: try optionalString(.app),
          build: try optionalString(.build),
          device: try optionalString(.device),
          profile: try optionalString(.profile),
          scenario: try optionalString(.scenario)
        ))
    case .alloc:
      return .alloc(controller: try id(.controller, type), className: try string(.className, type))
    case .root:
      return .root(controller: try id(.controller, type))
    case .link:
      return .link(from: try id(.from, type), direction: try direction(.direction, type), to: try id(.to, type))
    case .unlink:
      return .unlink(from: try id(.from, type), direction: try direction(.direction, type))
    case .modal:
      return .modal(controller: try id(.controller, type), presenter: try id(.presenter, type))
    case .touches:
      return .touches(
        controller: try id(.controller, type), direction: try direction(.direction, type),
        min: try integer(.min, type, atLeast: 1))
    case .pan:
      return .pan(
        Pan(
          controller: try id(.controller, type),
          direction: try direction(.direction, type),
          touches: try integer(.touches, type),
          distance: try number(.distance, type),
          velocity: try number(.velocity, type),
          outcome: try oneOf(.outcome, type, tables.outcomes)
        ))
    case .move:
      return .move(
        Move(
          from: try id(.from, type),
          to: try id(.to, type),
          direction: try direction(.direction, type),
          trigger: try oneOf(.trigger, type, tables.triggers),
          animated: try bool(.animated, type)
        ))
    case .lifecycle:
      return .lifecycle(
        controller: try id(.controller, type),
        callback: try oneOf(.callback, type, tables.callbacks))
    case .dealloc:
      return .dealloc(controller: try id(.controller, type))
    case .mark:
      return .mark(label: try string(.label, type), fields: fields(others, skippingUnknown: nil))
    }
  }

  /// An event of a type this implementation does not know: every key but the envelope goes to `extra`.
  @inline(never)
  func unknownType(_ typeRef: JSONValueRef) -> (Event, [Field]) {
    let raw = String(decoding: UnsafeBufferPointer(start: scanner.base, count: scanner.count), as: UTF8.self)
    return (.unknown(type: string(typeRef), raw: raw), fields(seen & ~JournalKey.envelopeMask))
  }

  /// The members of the known keys in `mask` and all unknown keys, in the order they appeared, verbatim.
  @inline(never)
  func fields(_ mask: UInt32, skippingUnknown skipped: Int? = nil) -> [Field] {
    var entries: [(order: Int, field: Field)] = []
    entries.reserveCapacity(mask.nonzeroBitCount + unknown.count)
    var remaining = mask
    while remaining != 0 {
      let index = remaining.trailingZeroBitCount
      remaining &= remaining - 1
      guard let key = JournalKey(rawValue: UInt8(index)) else { continue }
      let slot = slots[index]
      entries.append((slot.order, Field(key: key.name, value: RawJSON(unchecked: scanner.text(slot.value)))))
    }
    let knownCount = entries.count
    for (index, member) in unknown.enumerated() where index != skipped {
      let field = Field(
        key: String(decoding: member.key, as: UTF8.self), value: RawJSON(unchecked: scanner.text(member.value)))
      entries.append((member.order, field))
    }
    if knownCount > 0 { entries.sort { $0.order < $1.order } }
    return entries.map(\.field)
  }

  // MARK: Values of known keys

  @inline(__always) func has(_ key: JournalKey) -> Bool { seen & key.bit != 0 }

  @inline(__always) func value(_ key: JournalKey) -> JSONValueRef { slots[Int(key.rawValue)].value }

  @inline(__always)
  func required(_ key: JournalKey, _ type: Event.Kind) throws(DecodeError) -> JSONValueRef {
    guard has(key) else { throw .missingKey(closingBrace, key, type: type) }
    return value(key)
  }

  /// The content of a string value.
  @inline(__always)
  func string(_ ref: JSONValueRef) -> String {
    if !ref.flag {
      let content = UnsafeBufferPointer(start: scanner.base + ref.start + 1, count: ref.end - ref.start - 2)
      return String(decoding: content, as: UTF8.self)
    }
    return unescapedString(ref)
  }

  @inline(never)
  func unescapedString(_ ref: JSONValueRef) -> String {
    String(decoding: scanner.unescape(from: ref.start + 1, to: ref.end - 1), as: UTF8.self)
  }

  /// Recognises the content of a string value as one of the names of `table`.
  @inline(__always)
  func match<T>(_ ref: JSONValueRef, in table: NameTable<T>) -> T? {
    let start = ref.start + 1
    if !ref.flag { return table.match(scanner.base + start, ref.end - start - 1, readable: scanner.count - start) }
    return matchEscaped(ref, in: table)
  }

  @inline(never)
  func matchEscaped<T>(_ ref: JSONValueRef, in table: NameTable<T>) -> T? {
    scanner.unescape(from: ref.start + 1, to: ref.end - 1).withUnsafeBufferPointer { buffer in
      guard let p = buffer.baseAddress else { return nil }
      return table.match(p, buffer.count, readable: buffer.count)
    }
  }

  @inline(__always)
  func string(_ key: JournalKey, _ type: Event.Kind) throws(DecodeError) -> String {
    let ref = try required(key, type)
    guard ref.kind == .string else { throw .expected("a string", for: key, found: scanner.found(ref), at: ref.start) }
    return string(ref)
  }

  @inline(__always)
  func optionalString(_ key: JournalKey) throws(DecodeError) -> String? {
    guard has(key) else { return nil }
    let ref = value(key)
    guard ref.kind == .string else { throw .expected("a string", for: key, found: scanner.found(ref), at: ref.start) }
    return string(ref)
  }

  /// A controller id (``ControllerID/isValid``).
  @inline(__always)
  func id(_ key: JournalKey, _ type: Event.Kind) throws(DecodeError) -> ControllerID {
    let ref = try required(key, type)
    guard ref.kind == .string else { throw .expected("a string", for: key, found: scanner.found(ref), at: ref.start) }
    let id: ControllerID
    if !ref.flag, let ids {
      id = ids.id(scanner.base + ref.start + 1, ref.end - ref.start - 2)
    } else {
      id = ControllerID(string(ref))
    }
    guard id.isValid else {
      throw .malformed(
        ref.start,
        "\"\(key.name)\" must be a non-empty string of at most \(ControllerID.maximumLength) bytes; "
          + "found \(scanner.found(ref))")
    }
    return id
  }

  @inline(__always)
  func direction(_ key: JournalKey, _ type: Event.Kind) throws(DecodeError) -> Direction {
    try oneOf(key, type, tables.directions)
  }

  /// One of the values of a small enum, recognised by `table`.
  @inline(__always)
  func oneOf<T: CaseIterable & RawRepresentable<String>>(
    _ key: JournalKey, _ type: Event.Kind, _ table: NameTable<T>
  ) throws(DecodeError) -> T {
    let ref = try required(key, type)
    guard ref.kind == .string else { throw .expected("a string", for: key, found: scanner.found(ref), at: ref.start) }
    guard let value = match(ref, in: table) else {
      throw .notOneOf(T.allCases.map(\.rawValue), for: key, found: scanner.found(ref), at: ref.start)
    }
    return value
  }

  /// An integer (no fraction, no exponent), at least `minimum` if given.
  @inline(__always)
  func integer(_ key: JournalKey, _ type: Event.Kind, atLeast minimum: Int? = nil) throws(DecodeError) -> Int {
    let ref = try required(key, type)
    guard let value = scanner.integerValue(ref), value >= minimum ?? .min else {
      let what = minimum.map { "an integer ≥ \($0)" } ?? "an integer"
      throw .expected(what, for: key, found: scanner.found(ref), at: ref.start)
    }
    return value
  }

  /// A finite number.
  @inline(__always)
  func number(_ key: JournalKey, _ type: Event.Kind) throws(DecodeError) -> Double {
    let ref = try required(key, type)
    guard ref.kind == .number else { throw .expected("a number", for: key, found: scanner.found(ref), at: ref.start) }
    let value = scanner.doubleValue(ref)
    guard value.isFinite else {
      throw .expected("a finite number", for: key, found: scanner.found(ref), at: ref.start)
    }
    return value
  }

  @inline(__always)
  func bool(_ key: JournalKey, _ type: Event.Kind) throws(DecodeError) -> Bool {
    let ref = try required(key, type)
    guard ref.kind == .bool else {
      throw .expected("true or false", for: key, found: scanner.found(ref), at: ref.start)
    }
    return ref.flag
  }

  /// The `time` of the envelope: RFC 3339 with `Z`.
  @inline(__always)
  func timestamp(_ ref: JSONValueRef, minute: inout CanonicalMinute) throws(DecodeError) -> Timestamp {
    guard ref.kind == .string else {
      throw .expected("a string", for: .time, found: scanner.found(ref), at: ref.start)
    }
    if !ref.flag,
      let time = Timestamp.parseCanonical(scanner.base + ref.start + 1, ref.end - ref.start - 2, minute: &minute)
    {
      return time
    }
    return try generalTimestamp(ref)
  }

  /// Any other time form: the general parser accepts 0 to 9 fractional digits
  /// and lowercase `t`/`z`, and its errors become `"time": <message>`.
  @inline(never)
  func generalTimestamp(_ ref: JSONValueRef) throws(DecodeError) -> Timestamp {
    let result: Result<Timestamp, Timestamp.ParseError>
    if ref.flag {
      var content = scanner.unescape(from: ref.start + 1, to: ref.end - 1)
      result = content.withUnsafeMutableBytes { Timestamp.parse(UnsafeRawBufferPointer($0)) }
    } else {
      result = Timestamp.parse(
        UnsafeRawBufferPointer(start: scanner.base + ref.start + 1, count: ref.end - ref.start - 2))
    }
    switch result {
    case .success(let time):
      return time
    case .failure(let error):
      // Inside an escaped string the offset in the content is not a line offset: point at the string.
      let offset = ref.flag ? ref.start : ref.start + 1 + error.offset
      throw .malformed(offset, "\"time\": \(error.message)")
    }
  }
}
