#if arch(x86_64)
  import _Builtin_intrinsics.intel
#endif

/// The bytes that end the plain part of a JSON string (`"`, `\`, a control
/// character or a non-ASCII byte), found 16 at a time with SIMD comparisons.
///
/// Implementation note: a 16-byte block is three vector comparisons and one
/// mask extraction (`pmovmskb` on x86-64), where eight bytes tested as a word
/// (``JSONScanner/specialBytes(_:)``) take a dozen scalar operations; most
/// strings of a journal (ids, type names, callbacks) end within one or two
/// blocks.
/// A whole-line structural pass (simdjson's) does not pay here: the decoder
/// predicts a line's keys (``CanonicalLine``, ``KeyQueue``), so the only
/// positions it looks for are the ends of strings, and finding each where it
/// is reads fewer bytes than classifying the whole line first.
enum StringBytes {
  /// Bit `i` is set when byte `i` of the 16 at `p` ends the plain part of a string.
  ///
  /// Implementation note: on x86-64 the SSE2 intrinsics are written out, because the
  /// standard library's generic `SIMD16` comparisons are compiled lane by lane there.
  @inline(__always)
  static func specialMask(_ p: UnsafeRawPointer) -> UInt32 {
    #if arch(x86_64)
      let bytes = unsafeBitCast(p.loadUnaligned(as: SIMD16<UInt8>.self), to: __m128i.self)
      let quotes = _mm_cmpeq_epi8(bytes, _mm_set1_epi8(0x22))
      let backslashes = _mm_cmpeq_epi8(bytes, _mm_set1_epi8(0x5C))
      // As signed bytes, the non-ASCII ones (0x80 and up) are negative: one comparison finds them and the controls.
      let low = _mm_cmplt_epi8(bytes, _mm_set1_epi8(0x20))
      return UInt32(truncatingIfNeeded: _mm_movemask_epi8(_mm_or_si128(_mm_or_si128(quotes, backslashes), low)))
    #else
      return portableSpecialMask(p)
    #endif
  }

  /// ``specialMask(_:)`` two words at a time, where SSE2 is not available.
  @inline(__always)
  static func portableSpecialMask(_ p: UnsafeRawPointer) -> UInt32 {
    let low = specialBits(UInt64(littleEndian: p.loadUnaligned(as: UInt64.self)))
    let high = specialBits(UInt64(littleEndian: p.loadUnaligned(fromByteOffset: 8, as: UInt64.self)))
    return UInt32(low) | UInt32(high) << 8
  }

  /// One bit per byte of `word` (the first byte lowest) that ends the plain part of a string.
  ///
  /// Implementation note: unlike ``JSONScanner/specialBytes(_:)``, which only needs the first such
  /// byte, each byte's test here is exact (no borrow or carry crosses a byte): a byte is zero when
  /// its low seven bits plus 0x7F do not reach the high bit and its own high bit is clear.
  @inline(__always)
  static func specialBits(_ word: UInt64) -> UInt64 {
    let low7: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
    let high: UInt64 = 0x8080_8080_8080_8080
    @inline(__always) func zeros(_ x: UInt64) -> UInt64 { ~(((x & low7) &+ low7) | x) & high }
    let quotes = zeros(word ^ 0x2222_2222_2222_2222)
    let backslashes = zeros(word ^ 0x5C5C_5C5C_5C5C_5C5C)
    // Below 0x20: the low seven bits plus 0x60 do not reach the high bit; from 0x80: the high bit.
    let controlsOrNonASCII = (~((word & low7) &+ 0x6060_6060_6060_6060) | word) & high
    // The high bit of byte i, moved to bit i.
    return (((quotes | backslashes | controlsOrNonASCII) &>> 7) &* 0x0102_0408_1020_4080) &>> 56
  }

  /// The offset of the first byte at or after `k` that ends the plain part of a string, or `count`
  /// if none does before the end of the line, `base + count`.
  /// - Precondition: the line has at least 16 bytes (`count >= 16`).
  @inline(__always)
  static func firstSpecial(_ base: UnsafePointer<UInt8>, from start: Int, count: Int) -> Int {
    var k = start
    while k &+ 16 <= count {
      let mask = specialMask(base + k)
      if mask != 0 { return k &+ mask.trailingZeroBitCount }
      k &+= 16
    }
    guard k < count else { return count }
    // The last 16 bytes of the line; those before `k` were tested already and are shifted out.
    let last = count &- 16
    let mask = specialMask(base + last) &>> UInt32(k &- last)
    return mask != 0 ? k &+ mask.trailingZeroBitCount : count
  }
}
