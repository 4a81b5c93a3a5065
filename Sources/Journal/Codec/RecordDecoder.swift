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
  public var rule: String
  /// 0-based byte offset within the line.
  public var offset: Int
  public var message: String

  public init(rule: String, offset: Int, message: String) {
    self.rule = rule
    self.offset = offset
    self.message = message
  }

  public var description: String { "\(offset + 1): \(message)" }
}

/// Decodes one journal line (without its `\n`) into a typed record.
public enum RecordDecoder {
  /// Decodes a complete line; `seq`, `time` and `type` are required.
  public static func decode(
    _ line: UnsafeRawBufferPointer, limits: DecodeLimits = DecodeLimits()
  ) throws(DecodeError) -> Record {
    throw DecodeError(rule: "malformed", offset: 0, message: "decoder not written yet")
  }

  /// Decodes a line where `seq` and `time` may be missing (input of `append`).
  public static func decodeDraft(
    _ line: UnsafeRawBufferPointer, limits: DecodeLimits = DecodeLimits()
  ) throws(DecodeError) -> Draft {
    throw DecodeError(rule: "malformed", offset: 0, message: "decoder not written yet")
  }
}

extension RecordDecoder {
  /// Decodes a line given as a string (tests, small inputs).
  public static func decode(_ line: String, limits: DecodeLimits = DecodeLimits()) throws(DecodeError) -> Record {
    var copy = line
    let result = copy.withUTF8 { buffer in
      Result { () throws(DecodeError) -> Record in try decode(UnsafeRawBufferPointer(buffer), limits: limits) }
    }
    return try result.get()
  }
}
