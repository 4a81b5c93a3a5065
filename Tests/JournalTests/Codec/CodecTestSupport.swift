import Journal

/// Decodes raw bytes (lines that are not valid UTF-8 cannot be written as a `String`).
func decodeBytes(_ bytes: [UInt8], limits: DecodeLimits = DecodeLimits()) -> Result<Record, DecodeError> {
  bytes.withUnsafeBytes { buffer in
    Result { () throws(DecodeError) -> Record in try RecordDecoder.decode(buffer, limits: limits) }
  }
}

/// Decodes a line given as text.
func decodeLine(_ line: String, limits: DecodeLimits = DecodeLimits()) -> Result<Record, DecodeError> {
  decodeBytes(Array(line.utf8), limits: limits)
}

/// Decodes a draft given as text.
func decodeDraftLine(_ line: String) -> Result<Draft, DecodeError> {
  Array(line.utf8).withUnsafeBytes { buffer in
    Result { () throws(DecodeError) -> Draft in try RecordDecoder.decodeDraft(buffer) }
  }
}

extension Result {
  /// The error, or nil on success (for `#expect` against a whole `DecodeError`).
  var failure: Failure? {
    if case .failure(let error) = self { return error }
    return nil
  }

  var success: Success? {
    if case .success(let value) = self { return value }
    return nil
  }
}

/// A small, fast, seedable generator (SplitMix64) so random tests are reproducible.
struct SeededGenerator: RandomNumberGenerator {
  private var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// The time of the spec's example lines: `2026-11-29T10:00:00.000000Z` plus some microseconds.
func exampleTime(micros: Int64) -> Timestamp {
  Timestamp(microseconds: 1_795_946_400_000_000 + micros)
}
