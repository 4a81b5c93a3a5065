/// SplitMix64 (Steele, Lea and Flood): a small, fast pseudo-random generator
/// that gives the same numbers on every machine, so that a benchmark's
/// generated journal depends on its seed alone.
///
/// It is a `RandomNumberGenerator`, for `Int.random(in:using:)`; `next()` and
/// `below(_:)` draw directly (modulo), as some generators do. The two ways
/// give different numbers from the same state, so a generator that is to
/// reproduce earlier journals keeps to the one it used.
@frozen
public struct SplitMix64: RandomNumberGenerator, Sendable {
  @usableFromInline var state: UInt64

  /// A generator whose first number depends only on `seed`.
  @inlinable
  public init(seed: UInt64) { state = seed }

  /// The next 64 random bits.
  @inlinable
  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A number in `0..<n` (`next() % n`; `n` must be positive).
  @inlinable
  public mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
}
