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
}
