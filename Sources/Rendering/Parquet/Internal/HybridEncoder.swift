/// Parquet's RLE / bit-packing hybrid (`Encodings.md`), for definition and repetition levels
/// and for dictionary indices.
///
/// The values are a sequence of runs, each a ULEB128 header and its data:
/// - an RLE run, header `count << 1`: the value repeated `count` times, in
///   `ceil(bitWidth / 8)` little-endian bytes;
/// - a bit-packed run, header `groups << 1 | 1`: `groups * 8` values of `bitWidth` bits,
///   packed from the least significant bit of each byte on. Only the last run may be
///   padded (the page's value count says where the values end).
///
/// A repeat of 8 values or more is an RLE run; anything shorter goes into bit-packed groups.
///
/// ```swift
/// HybridEncoder.encode([1, 1, 1, 1, 1, 1, 1, 1, 0, 1], bitWidth: 1)
/// // [0x10, 0x01,  0x03, 0x02]: 8 times 1, then one group of 8 (0, 1 and padding)
/// ```
enum HybridEncoder {
  /// Appends `values` (each below `1 << bitWidth`) encoded, without a length prefix.
  static func encode<Values: RandomAccessCollection>(_ values: Values, bitWidth: Int, to out: inout [UInt8])
  where Values.Element: FixedWidthInteger, Values.Index == Int {
    precondition(bitWidth >= 0 && bitWidth <= 32, "bit width \(bitWidth)")
    let end = values.endIndex
    var i = values.startIndex
    while i < end {
      let run = runLength(values, at: i, end: end)
      if run >= 8 {
        appendRLE(UInt32(truncatingIfNeeded: values[i]), count: run, bitWidth: bitWidth, to: &out)
        i += run
        continue
      }
      // Bit-packed groups of 8, until a repeat of 8 starts at a group's boundary.
      var groupsEnd = i
      repeat {
        groupsEnd = min(groupsEnd + 8, end)
      } while groupsEnd < end && runLength(values, at: groupsEnd, end: end, atMost: 8) < 8
      appendBitPacked(values[i..<groupsEnd], bitWidth: bitWidth, to: &out)
      i = groupsEnd
    }
  }

  /// `encode` into a new array.
  static func encode<Values: RandomAccessCollection>(_ values: Values, bitWidth: Int) -> [UInt8]
  where Values.Element: FixedWidthInteger, Values.Index == Int {
    var out: [UInt8] = []
    encode(values, bitWidth: bitWidth, to: &out)
    return out
  }

  /// How many values from `i` on equal `values[i]` (counting stops at `limit`).
  private static func runLength<Values: RandomAccessCollection>(
    _ values: Values, at i: Int, end: Int, atMost limit: Int = .max
  ) -> Int where Values.Element: FixedWidthInteger, Values.Index == Int {
    let first = values[i]
    var j = i + 1
    while j < end && values[j] == first && j - i < limit { j += 1 }
    return j - i
  }

  static func appendRLE(_ value: UInt32, count: Int, bitWidth: Int, to out: inout [UInt8]) {
    CompactWriter.appendVarint(UInt64(count) << 1, to: &out)
    var value = value
    for _ in 0..<(bitWidth + 7) / 8 {
      out.append(UInt8(truncatingIfNeeded: value))
      value >>= 8
    }
  }

  /// One bit-packed run of the values, padded with zeros to a multiple of 8.
  static func appendBitPacked<Values: RandomAccessCollection>(_ values: Values, bitWidth: Int, to out: inout [UInt8])
  where Values.Element: FixedWidthInteger {
    let groups = (values.count + 7) / 8
    CompactWriter.appendVarint(UInt64(groups) << 1 | 1, to: &out)
    var buffer: UInt64 = 0
    var bits = 0
    for value in values {
      buffer |= UInt64(truncatingIfNeeded: value) << UInt64(bits)
      bits += bitWidth
      while bits >= 8 {
        out.append(UInt8(truncatingIfNeeded: buffer))
        buffer >>= 8
        bits -= 8
      }
    }
    // Padding: the rest of the last group is zeros (groups * bitWidth bytes in all).
    let total = groups * bitWidth
    let written = (values.count * bitWidth) / 8
    if bits > 0 { out.append(UInt8(truncatingIfNeeded: buffer)) }
    let padding = total - written - (bits > 0 ? 1 : 0)
    if padding > 0 { out.append(contentsOf: repeatElement(0, count: padding)) }
  }

  /// The bits needed for values up to `maximum` (at least 1).
  static func bitWidth(forMaximum maximum: Int) -> Int {
    max(1, Int.bitWidth - maximum.leadingZeroBitCount)
  }
}
