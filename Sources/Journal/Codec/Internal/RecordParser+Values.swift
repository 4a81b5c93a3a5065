/// The values of the keys the format defines, each checked against its type and range.
extension RecordParser {
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
    let id: ControllerID?
    if !ref.flag {
      // No escapes: the bytes between the quotes are the id's.
      let n = ref.end - ref.start - 2
      let p = scanner.base + ref.start + 1
      if !ControllerID.isValidLength(n) {
        id = nil
      } else if let ids {
        id = ids.id(p, n)
      } else {
        id = ControllerID(utf8: UnsafeRawBufferPointer(start: p, count: n))
      }
    } else {
      // Checked before it is made: an invalid id is not kept in the table of ids.
      let text = string(ref)
      id = ControllerID.isValidLength(text.utf8.count) ? ControllerID(text) : nil
    }
    guard let id else {
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
