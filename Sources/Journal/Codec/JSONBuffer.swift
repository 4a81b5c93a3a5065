/// Builds one JSON value into bytes with the journal writer's escaping
/// (``JSONWriter``), putting the commas between members and elements itself.
///
/// The one way the package's modules write JSON output (`--json` documents,
/// SARIF, the report's data): no hand-placed commas.
///
/// ```swift
/// var json = JSONBuffer()
/// json.object {
///   $0.member("events", 12)
///   $0.member("files", strings: ["a.ndjson"])
///   $0.array("controllers") { list in
///     for id in ["home", "notes"] { list.objectElement { $0.member("id", id) } }
///   }
/// }
/// // {"events":12,"files":["a.ndjson"],"controllers":[{"id":"home"},{"id":"notes"}]}
/// ```
///
/// Implementation note: the type is `public` with `package` members only (nothing of it is
/// usable outside the package): the compiler inlines an `@inlinable` member into another module
/// only when its type is public, and a `package` type's brackets, commas and digits were calls
/// from the report's builder and the trace's encoders, a few million of them for a page.
public struct JSONBuffer: Sendable {
  /// The JSON built so far (set only by this type's methods).
  @usableFromInline package internal(set) var bytes: [UInt8] = []
  /// Whether each open object or array has a member yet, innermost in bit 0
  /// (``depth`` of them; those more than 64 levels out wait in ``outerMembers``).
  ///
  /// Implementation note: bits rather than an array of flags, and the
  /// bracket and comma writers inlinable, because a report's data is about a
  /// million of each, and an array's append, removal and checked subscript
  /// would be most of what `element()`, `open(_:)` and `close(_:)` cost.
  @usableFromInline internal var memberBits: UInt64 = 0
  @usableFromInline internal var depth = 0
  @usableFromInline internal var outerMembers: [Bool] = []
  /// Strings are escaped for an HTML `<script>` element too (``JSONWriter/appendHTMLSafeString(_:to:)``).
  package var htmlSafe = false

  package init() {}

  /// Opens `{` or `[`.
  @inlinable @inline(__always)
  package mutating func open(_ bracket: Character) {
    append(bracket == "{" ? UInt8(ascii: "{") : UInt8(ascii: "["))
    if depth >= 64 { outerMembers.append(memberBits >> 63 != 0) }
    memberBits <<= 1
    depth += 1
  }

  /// Closes `}` or `]`.
  @inlinable @inline(__always)
  package mutating func close(_ bracket: Character) {
    precondition(depth > 0, "a bracket closed that was never opened")
    append(bracket == "}" ? UInt8(ascii: "}") : UInt8(ascii: "]"))
    memberBits >>= 1
    depth -= 1
    if depth >= 64, outerMembers.removeLast() { memberBits |= 1 << 63 }
  }

  /// Starts an array element (a comma before every element but the first).
  @inlinable @inline(__always)
  package mutating func element() {
    if memberBits & 1 != 0 { append(UInt8(ascii: ",")) }
    memberBits |= 1
  }

  @inlinable @inline(__always)
  internal mutating func append(_ byte: UInt8) {
    bytes.append(byte)
  }

  /// Starts an object member: `"key":`.
  package mutating func key(_ key: String) {
    element()
    JSONWriter.appendString(key, to: &bytes)
    bytes.append(UInt8(ascii: ":"))
  }

  package mutating func string(_ value: String?) {
    guard let value else { return null() }
    if htmlSafe {
      JSONWriter.appendHTMLSafeString(value, to: &bytes)
    } else {
      JSONWriter.appendString(value, to: &bytes)
    }
  }

  /// `"key":value` for a value that is there; nothing for nil (an optional member left out).
  package mutating func member(_ key: String, ifPresent value: Int?) {
    guard let value else { return }
    self.key(key)
    int(value)
  }

  /// `"key":"value"`, `"key":null` for nil.
  package mutating func member(_ key: String, _ value: String?) {
    self.key(key)
    string(value)
  }

  /// `"key":value`, `"key":null` for nil.
  package mutating func member(_ key: String, _ value: Int?) {
    self.key(key)
    int(value)
  }

  /// `"key":true` or `"key":false`.
  package mutating func member(_ key: String, _ value: Bool) {
    self.key(key)
    bool(value)
  }

  /// `"key":{...}`, the members `body` writes between the braces.
  package mutating func object<E: Error>(_ key: String, _ body: (inout JSONBuffer) throws(E) -> Void) throws(E) {
    self.key(key)
    try object(body)
  }

  /// `{...}`, the members `body` writes between the braces (a value: after a key,
  /// at the top, or after ``element()``; see ``objectElement(_:)``).
  package mutating func object<E: Error>(_ body: (inout JSONBuffer) throws(E) -> Void) throws(E) {
    open("{")
    try body(&self)
    close("}")
  }

  /// The next element of an array, an object: `{...}` (with a comma before all but the first).
  package mutating func objectElement<E: Error>(_ body: (inout JSONBuffer) throws(E) -> Void) throws(E) {
    element()
    try object(body)
  }

  /// `"key":[...]`, the elements `body` writes between the brackets (each after
  /// ``element()``, or through ``objectElement(_:)``).
  package mutating func array<E: Error>(_ key: String, _ body: (inout JSONBuffer) throws(E) -> Void) throws(E) {
    self.key(key)
    open("[")
    try body(&self)
    close("]")
  }

  /// `"key":["a","b",...]` (`null` for a nil string).
  package mutating func member(_ key: String, strings values: some Sequence<String?>) {
    self.key(key)
    strings(values)
  }

  /// `"key":[1,2,...]`.
  package mutating func member(_ key: String, ints values: some Sequence<Int>) {
    self.key(key)
    ints(values)
  }

  /// An array of strings (`null` for nil).
  package mutating func strings(_ values: some Sequence<String?>) {
    open("[")
    for value in values {
      element()
      string(value)
    }
    close("]")
  }

  /// An array of integers.
  ///
  /// Implementation note: inlinable, so that the caller's module specializes it for its sequence
  /// (an array of the report's findings' rows): unspecialized, it stepped through each sequence by
  /// its protocol's witnesses, which cost more than the digits.
  @inlinable
  package mutating func ints(_ values: some Sequence<Int>) {
    open("[")
    for value in values {
      element()
      int(value)
    }
    close("]")
  }

  /// An integer in decimal, `null` for nil.
  ///
  /// Implementation note: inlinable, with one digit (most of a report's lanes, flags and counts)
  /// written in place: the call to ``JSONWriter/appendInt(_:to:)`` costs more than the digit.
  @inlinable
  package mutating func int(_ value: Int?) {
    guard let value else { return null() }
    if UInt(bitPattern: value) < 10 {
      append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value))
    } else {
      JSONWriter.appendInt(value, to: &bytes)
    }
  }

  /// A number as the journal writer writes it (``JSONWriter/appendNumber(_:to:)``).
  package mutating func number(_ value: Double) {
    JSONWriter.appendNumber(value, to: &bytes)
  }

  /// An integer as a JSON string of its decimal digits (`"1767225600000000000"`), as
  /// the protobuf JSON mapping writes 64-bit integers.
  package mutating func intString(_ value: Int) {
    bytes.append(UInt8(ascii: "\""))
    JSONWriter.appendInt(value, to: &bytes)
    bytes.append(UInt8(ascii: "\""))
  }

  package mutating func bool(_ value: Bool) {
    bytes.append(contentsOf: value ? Array("true".utf8) : Array("false".utf8))
  }

  @usableFromInline
  package mutating func null() {
    bytes.append(contentsOf: Array("null".utf8))
  }

  /// A value already encoded as JSON (a nested document written elsewhere).
  ///
  /// Implementation note: disfavoured, so that a literal (`json.raw("}}")`) is
  /// the `StaticString` fragment below, copied in one piece, rather than a
  /// `String` whose UTF-8 view is appended (a string literal picks `String`
  /// when both overloads exist).
  @_disfavoredOverload
  package mutating func raw(_ json: String) {
    bytes.append(contentsOf: json.utf8)
  }

  /// Text the caller spelled out in the source (keys, punctuation, constant
  /// values: ASCII that needs no escaping), verbatim, with no comma of its own.
  ///
  /// Implementation note: a trace writes millions of events of a few fixed
  /// shapes; one copy of each fixed piece costs a fraction of a `key(_:)`, which
  /// escapes the key and appends it and its punctuation piece by piece.
  ///
  /// Through a ``ByteWriter``: `append(contentsOf:)` of the fragment's buffer costs more than
  /// the copy for the few bytes most fragments have (`}}]}`).
  package mutating func raw(_ fragment: StaticString) {
    // A single scalar's literal has no pointer and no count of bytes.
    guard fragment.hasPointerRepresentation else { return fragment.withUTF8Buffer { bytes.append(contentsOf: $0) } }
    ByteWriter.append(atMost: fragment.utf8CodeUnitCount, to: &bytes) { $0.raw(fragment) }
  }

  /// A value already encoded as JSON, as bytes.
  package mutating func raw(_ json: [UInt8]) {
    bytes.append(contentsOf: json)
  }

  /// Lets `body` write at most `capacity` bytes straight into the buffer's memory (a
  /// ``ByteWriter``: pieces of source text, bytes, integers), with no comma of its own.
  ///
  /// Implementation note: the pieces are written with no check but their bound and copied in
  /// one piece (``ByteWriter/append(atMost:to:_:)``); a trace event written piece by piece
  /// through the array would cost several times as much. `body`'s pieces are inlined where it is
  /// written (why ``ByteWriter`` is public and inlinable: see its note).
  package mutating func write(atMost capacity: Int, _ body: (inout ByteWriter) -> Void) {
    ByteWriter.append(atMost: capacity, to: &bytes, body)
  }

  /// ``write(atMost:_:)`` for a buffer that should grow by what is written only (one of many
  /// small ones): in place when its capacity has the room, else through a buffer on the stack,
  /// then copied (``ByteWriter/appendCopied(atMost:to:_:)``).
  ///
  /// Implementation note: always through the stack, each of an OTLP trace's span events was
  /// written twice and appended through the generic copy of a buffer's contents; most go to an
  /// open span's buffer, which has a kilobyte reserved.
  package mutating func writeCopied(atMost capacity: Int, _ body: (inout ByteWriter) -> Void) {
    if bytes.capacity &- bytes.count >= capacity {
      ByteWriter.append(atMost: capacity, to: &bytes, body)
    } else {
      ByteWriter.appendCopied(atMost: capacity, to: &bytes, body)
    }
  }

  /// Lets `body` append text it formats itself (digits, hex: ASCII that needs no escaping) straight
  /// to the bytes, as ``raw(_:)-(StaticString)`` would, with no comma of its own.
  @inline(__always)
  package mutating func withBytes(_ body: (inout [UInt8]) -> Void) {
    body(&bytes)
  }

  /// Takes the bytes built so far, leaving the buffer empty.
  package mutating func take() -> [UInt8] {
    defer { bytes = [] }
    return bytes
  }

  /// `"key":value` members for each pair, in order.
  package mutating func counts(_ pairs: [(String, Int)]) {
    for (key, value) in pairs {
      self.key(key)
      int(value)
    }
  }

  /// Hands the bytes built so far to `body` and empties the buffer, keeping its
  /// capacity and the brackets still open: a long document is written in pieces.
  package mutating func drain<E: Error>(_ body: ([UInt8]) throws(E) -> Void) throws(E) {
    guard !bytes.isEmpty else { return }
    try body(bytes)
    bytes.removeAll(keepingCapacity: true)
  }

  /// Takes the bytes built so far, leaving `spare` (emptied, its capacity kept) in their place
  /// and the brackets still open: a long document handed out in pieces reuses the buffers it
  /// gets back rather than growing a new one for each piece.
  ///
  /// Implementation note: `consuming`, so that the spare arrives as the only reference to its
  /// storage and is emptied in place; a borrowed one would be copied, and emptying a shared array
  /// allocates a new one of the same capacity (fresh pages to fault in, every piece).
  package mutating func take(leaving spare: consuming [UInt8]) -> [UInt8] {
    spare.removeAll(keepingCapacity: true)
    swap(&spare, &bytes)
    return spare
  }

  /// Appends `other`'s bytes and empties it (its brackets are left as they were): when this
  /// buffer is empty, the two swap their storage rather than copy the bytes.
  package mutating func take(_ other: inout JSONBuffer) {
    if bytes.isEmpty {
      swap(&bytes, &other.bytes)
    } else {
      bytes.append(contentsOf: other.bytes)
    }
    other.bytes.removeAll(keepingCapacity: true)
  }

  /// Makes room for at least `count` bytes in all, so that a value known to grow that far is not
  /// moved as it grows.
  package mutating func reserveCapacity(_ count: Int) {
    bytes.reserveCapacity(count)
  }

  /// The number of bytes built so far.
  package var count: Int { bytes.count }

  /// The JSON built so far, as text.
  package var text: String { String(decoding: bytes, as: UTF8.self) }

  /// Writes the bytes built so far to `out` and empties the buffer.
  package mutating func flush(to out: inout some TextOutputStream) {
    out.write(text)
    bytes.removeAll(keepingCapacity: true)
  }
}
