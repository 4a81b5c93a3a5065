/// The typed record built from the located values: the envelope, the event of each type, the keys for `extra`.
extension RecordParser {
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
}
