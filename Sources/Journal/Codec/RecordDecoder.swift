/// Limits the decoder applies to every line.
public struct DecodeLimits: Sendable, Hashable {
  /// Longest line in bytes (default 1 MiB).
  public var maxLineLength: Int
  /// Deepest nesting of arrays/objects (default 64; the top-level object is depth 1).
  public var maxDepth: Int

  public init(maxLineLength: Int = 1 << 20, maxDepth: Int = 64) {
    self.maxLineLength = maxLineLength
    self.maxDepth = maxDepth
  }
}

/// Why a line could not be decoded: the rule (`malformed` or `framing`), the
/// byte offset within the line where it went wrong, and what was expected.
public struct DecodeError: Error, Sendable, Hashable, CustomStringConvertible {
  /// `malformed` (not JSON, not an object, a key missing, of the wrong type
  /// or outside its values) or `framing` (over-long line, too deep, invalid UTF-8).
  public var rule: FormatRule
  /// 0-based byte offset within the line.
  public var offset: Int
  public var message: String

  public init(rule: FormatRule, offset: Int, message: String) {
    self.rule = rule
    self.offset = offset
    self.message = message
  }

  public var description: String { "\(offset + 1): \(message)" }
}

/// Decodes one journal line (without its `\n`) into a typed record.
///
/// The decoder works on the line's bytes and is strict: RFC 8259 JSON (every
/// escape, surrogate pairs, the number grammar), valid UTF-8 only, no
/// duplicate keys at any depth, nothing after the object. It then checks the
/// envelope and the keys of the event's type, which may come in any order.
/// Keys the format does not define are kept verbatim in ``Record/extra``.
///
/// ```swift
/// let record = try RecordDecoder.decode(#"{"seq":3,"time":"2026-11-29T10:00:00.003000Z","type":"root","controller":"home"}"#)
/// record.event  // .root(controller: "home")
/// ```
///
/// A refused line throws a ``DecodeError`` with the rule (`malformed` or
/// `framing`), the 0-based byte offset of the offending token and a message
/// such as `expected a string for "controller", found 17`.
public enum RecordDecoder {
  // Each entry point in three forms, by where the line's bytes are (a span, bytes the package's
  // readers hold, a string), all handing them to the one parser of records or of drafts.

  /// Decodes a complete line; `seq`, `time` and `type` are required.
  /// - Parameters:
  ///   - line: the bytes of one line, without its `\n` (and without a `\r` or BOM the reader removed).
  ///   - limits: the longest line and the deepest nesting accepted.
  /// - Returns: the typed record.
  /// - Throws: ``DecodeError`` for the first problem in the line.
  /// - Complexity: O(n) in the length of the line.
  public static func decode(_ line: RawSpan, limits: DecodeLimits = DecodeLimits()) throws(DecodeError) -> Record {
    try line.withUnsafeBytes { (bytes) throws(DecodeError) in try decode(bytes, limits: limits) }
  }

  /// Decodes a line where `seq` and `time` may be missing (input of `append`);
  /// when present they are checked as in ``decode(_:limits:)-(RawSpan,_)``.
  /// - Throws: ``DecodeError`` for the first problem in the line.
  public static func decodeDraft(_ line: RawSpan, limits: DecodeLimits = DecodeLimits()) throws(DecodeError) -> Draft {
    try line.withUnsafeBytes { (bytes) throws(DecodeError) in try decodeDraft(bytes, limits: limits) }
  }

  /// ``decode(_:limits:)-(RawSpan,_)`` of bytes the package's readers hold.
  package static func decode(
    _ line: UnsafeRawBufferPointer, limits: DecodeLimits = DecodeLimits()
  ) throws(DecodeError) -> Record {
    try RecordParser.record(line, limits: limits)
  }

  /// ``decodeDraft(_:limits:)-(RawSpan,_)`` of bytes the package's readers hold.
  package static func decodeDraft(
    _ line: UnsafeRawBufferPointer, limits: DecodeLimits = DecodeLimits()
  ) throws(DecodeError) -> Draft {
    try RecordParser.draft(line, limits: limits)
  }

  /// Decodes the next line of a sequence, reusing the date of the time
  /// decoded last when it is the same (see ``Timestamp/parseCanonical(_:_:minute:)``)
  /// and the ids decoded lately on this thread (``IDCache``).
  @inline(__always)
  static func decode(
    _ line: UnsafeRawBufferPointer, limits: DecodeLimits, minute: inout CanonicalMinute, ids: IDCache? = nil
  ) throws(DecodeError) -> Record {
    try RecordParser.record(line, limits: limits, minute: &minute, ids: ids)
  }

  /// Decodes a line given as a string (tests, small inputs).
  public static func decode(_ line: String, limits: DecodeLimits = DecodeLimits()) throws(DecodeError) -> Record {
    try withBytes(of: line) { (bytes) throws(DecodeError) in try decode(bytes, limits: limits) }
  }

  /// Decodes a draft given as a string (tests, small inputs).
  public static func decodeDraft(_ line: String, limits: DecodeLimits = DecodeLimits()) throws(DecodeError) -> Draft {
    try withBytes(of: line) { (bytes) throws(DecodeError) in try decodeDraft(bytes, limits: limits) }
  }

  /// `decode` of the UTF-8 of `line`, which a string lends only to a closure that cannot throw.
  private static func withBytes<Decoded>(
    of line: String, _ decode: (UnsafeRawBufferPointer) throws(DecodeError) -> Decoded
  ) throws(DecodeError) -> Decoded {
    var copy = line
    let result = copy.withUTF8 { buffer in
      Result { () throws(DecodeError) -> Decoded in try decode(UnsafeRawBufferPointer(buffer)) }
    }
    return try result.get()
  }
}

extension RecordDecoder {
  /// Decodes the lines of one journal in order, as the readers do: the date of
  /// the time decoded last is reused while lines stay in its minute, ids
  /// decoded lately are handed out again without a lookup in the process's
  /// table of ids, and class names as the same strings (long ones are not
  /// allocated anew on every line). Each line is decoded
  /// exactly as ``RecordDecoder/decode(_:limits:)-(UnsafeRawBufferPointer,_)``
  /// decodes it alone: same records, same errors.
  ///
  /// One decoder per thread (it is not `Sendable`); memory is fixed, whatever
  /// the number of lines.
  ///
  /// ```swift
  /// var decoder = RecordDecoder.Sequential()
  /// for line in lines {
  ///   let record = try line.withUnsafeBytes { bytes throws(DecodeError) in try decoder.decode(bytes) }
  /// }
  /// ```
  public struct Sequential {
    /// The longest line and the deepest nesting accepted.
    public var limits: DecodeLimits
    private var minute = CanonicalMinute()
    private let ids = IDCache()

    public init(limits: DecodeLimits = DecodeLimits()) {
      self.limits = limits
    }

    /// Decodes the next line (without its `\n`).
    /// - Throws: ``DecodeError`` for the first problem in the line.
    @inline(__always)
    public mutating func decode(_ line: RawSpan) throws(DecodeError) -> Record {
      try line.withUnsafeBytes { (bytes) throws(DecodeError) in try decode(bytes) }
    }

    /// ``decode(_:)-(RawSpan)`` of bytes the package's readers hold.
    @inline(__always)
    package mutating func decode(_ line: UnsafeRawBufferPointer) throws(DecodeError) -> Record {
      try RecordParser.record(line, limits: limits, minute: &minute, ids: ids)
    }
  }
}
