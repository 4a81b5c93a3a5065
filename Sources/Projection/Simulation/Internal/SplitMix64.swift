/// A small, fast, seeded pseudo-random generator (Steele, Lea and Flood's SplitMix64).
///
/// The simulator's only source of randomness: the same seed always gives the
/// same numbers on every platform, which `SystemRandomNumberGenerator` does not.
/// `package`, so that the tests' fixtures draw from the same seeded sequence.
package struct SplitMix64: RandomNumberGenerator {
  private var state: UInt64

  package init(seed: UInt64) { state = seed }

  package mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A whole number in `0..<bound` (bound > 0), by Lemire's multiply-shift (bias below 2^-32 for small bounds).
  package mutating func below(_ bound: Int) -> Int {
    precondition(bound > 0, "an empty range")
    return Int((UInt64(truncatingIfNeeded: next() >> 32) &* UInt64(bound)) >> 32)
  }

  /// True with probability `percent` / 100.
  package mutating func chance(_ percent: Int) -> Bool { below(100) < percent }

  /// A multiple of `step` in `0...max`.
  package mutating func steps(upTo max: Double, step: Double) -> Double {
    Double(below(Int(max / step) + 1)) * step
  }
}
