extension Timestamp {
  /// Parses exactly the form writers emit, `YYYY-MM-DDTHH:MM:SS.ffffffZ`, or
  /// returns nil; the caller then falls back to ``parse(_:allowOffset:exactMicroseconds:)``,
  /// which accepts the other forms and explains what is wrong.
  ///
  /// Implementation note: every line has a time, so the decoder reads the
  /// canonical 27 bytes as four little-endian words: the separators are
  /// checked with masks, and all 20 digits at once (each byte minus `'0'` must
  /// be at most 9) instead of one by one. The range checks and the arithmetic
  /// are those of the general parser, so both give the same value.
  ///
  /// `minute` is the minute of the time parsed last on this thread (a new
  /// ``CanonicalMinute`` for none); it becomes this time's. Consecutive lines
  /// almost always fall in the same minute: their first 16 bytes
  /// (`YYYY-MM-DDTHH:MM`) are then compared as two words with those of the
  /// last time parsed, which passed every check, and only the seconds and the
  /// fraction are checked and read, which spares the decoder the calendar
  /// arithmetic on nearly every line.
  @inline(__always)
  static func parseCanonical(_ p: UnsafePointer<UInt8>, _ n: Int, minute cache: inout CanonicalMinute) -> Timestamp? {
    guard n == 27 else { return nil }
    let raw = UnsafeRawPointer(p)
    @inline(__always) func word(_ offset: Int) -> UInt64 {
      UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }
    let a = word(0)  // YYYY-MM-
    let b = word(8)  // DDTHH:MM
    let c = word(16)  // :SS.ffff
    let d = word(19)  // .ffffffZ
    // Separators: ':' at 16, '.' at 19, 'Z' at 26; then '-' at 4 and 7, 'T' at 10, ':' at 13.
    guard c & 0x0000_0000_FF00_00FF == 0x0000_0000_2E00_003A, d & 0xFF00_0000_0000_0000 == 0x5A00_0000_0000_0000
    else { return nil }
    // Digits: keep the digit bytes of each word minus '0' and check each is at most 9.
    let dc = (c ^ 0x3030_3030_3030_3030) & 0x0000_0000_00FF_FF00
    let dd = (d ^ 0x3030_3030_3030_3030) & 0x00FF_FFFF_FFFF_FF00
    guard (dc | dd) & 0xF0F0_F0F0_F0F0_F0F0 == 0,
      (dc &+ 0x0000_0000_0006_0600) & 0xF0F0_F0F0_F0F0_F0F0 == 0,
      (dd &+ 0x0006_0606_0606_0600) & 0xF0F0_F0F0_F0F0_F0F0 == 0
    else { return nil }
    let second = two(dc, 1)
    let micros = (two(dd, 1) * 100 + two(dd, 3)) * 100 + two(dd, 5)
    // A leap second (:60) takes the general parser's way (``Timestamp/parse(_:allowOffset:exactMicroseconds:)``).
    guard second <= 59 else { return nil }
    let withinMinute = second * 1_000_000 + micros
    if cache.isSet, a == cache.a, b == cache.b { return Timestamp(microseconds: cache.start + withinMinute) }
    guard let start = minuteStart(a, b) else { return nil }
    cache = CanonicalMinute(a: a, b: b, start: start, isSet: true)
    return Timestamp(microseconds: start + withinMinute)
  }

  /// The microseconds of `YYYY-MM-DDTHH:MM:00Z`, its bytes the words `a` and `b`; nil if it is not valid.
  @inline(never)
  private static func minuteStart(_ a: UInt64, _ b: UInt64) -> Int64? {
    guard a & 0xFF00_00FF_0000_0000 == 0x2D00_002D_0000_0000, b & 0x0000_FF00_00FF_0000 == 0x0000_3A00_0054_0000
    else { return nil }
    let da = (a ^ 0x3030_3030_3030_3030) & 0x00FF_FF00_FFFF_FFFF
    let db = (b ^ 0x3030_3030_3030_3030) & 0xFFFF_00FF_FF00_FFFF
    guard (da | db) & 0xF0F0_F0F0_F0F0_F0F0 == 0,
      (da &+ 0x0006_0600_0606_0606) & 0xF0F0_F0F0_F0F0_F0F0 == 0,
      (db &+ 0x0606_0006_0600_0606) & 0xF0F0_F0F0_F0F0_F0F0 == 0
    else { return nil }
    let year = two(da, 0) * 100 + two(da, 2)
    let month = two(da, 5)
    let day = two(db, 0)
    let hour = two(db, 3)
    let minute = two(db, 6)
    guard month >= 1, month <= 12, day >= 1, day <= daysInMonth(year: year, month: month), hour <= 23, minute <= 59
    else { return nil }
    let days = daysFromCivil(year: year, month: month, day: day)
    return (days * 86_400 + hour * 3600 + minute * 60) * 1_000_000
  }

  /// The two-digit number at byte `index` of a word of digit values.
  @inline(__always)
  private static func two(_ w: UInt64, _ index: Int) -> Int64 {
    Int64((w &>> UInt64(index * 8)) & 0xF) * 10 + Int64((w &>> UInt64((index + 1) * 8)) & 0xF)
  }
}

/// The minute of the canonical time parsed last by one decoding thread: its
/// first 16 bytes as two words and its start in microseconds (see
/// ``Timestamp/parseCanonical(_:_:minute:)``).
struct CanonicalMinute {
  var a: UInt64 = 0
  var b: UInt64 = 0
  var start: Int64 = 0
  var isSet = false
}
