import Journal
import Projection

/// A row's cells in a compact binary form, for rows that cross threads through a spool
/// before their encoder sees them (Parquet is written by one writer, in input order).
///
/// Each row: its cell count (ULEB128), then per cell a tag byte (0 null, 1 string,
/// 2 integer, 3 number, 4 false, 5 true, 6 timestamp, 7 JSON) and its payload: strings
/// and JSON as a ULEB128 length and UTF-8 bytes, integers, numbers and timestamps as
/// 8 little-endian bytes.
extension TableRow {
  /// Appends the row's spooled form.
  public func appendSpooled(to out: inout [UInt8]) {
    Self.appendVarint(UInt64(cells.count), to: &out)
    for cell in cells {
      switch cell {
      case .null: out.append(0)
      case .string(let s): Self.appendString(1, s, to: &out)
      case .integer(let v): Self.appendFixed(2, UInt64(bitPattern: Int64(v)), to: &out)
      case .number(let v): Self.appendFixed(3, v.bitPattern, to: &out)
      case .boolean(let v): out.append(v ? 5 : 4)
      case .timestamp(let t): Self.appendFixed(6, UInt64(bitPattern: t.microseconds), to: &out)
      case .json(let s): Self.appendString(7, s, to: &out)
      }
    }
  }

  /// Reads one spooled row at `offset` and moves `offset` past it; nil (and `offset` left
  /// as it was) when `bytes` ends inside the row.
  package static func spooled(_ bytes: UnsafeRawBufferPointer, at offset: inout Int) -> TableRow? {
    var i = offset
    guard let count = varint(bytes, &i) else { return nil }
    var cells: [Cell] = []
    cells.reserveCapacity(Int(count))
    for _ in 0..<count {
      guard i < bytes.count else { return nil }
      let tag = bytes[i]
      i += 1
      switch tag {
      case 0: cells.append(.null)
      case 4, 5: cells.append(.boolean(tag == 5))
      case 2, 3, 6:
        guard i + 8 <= bytes.count else { return nil }
        var bits: UInt64 = 0
        for k in 0..<8 { bits |= UInt64(bytes[i + k]) << (8 * UInt64(k)) }
        i += 8
        switch tag {
        case 2: cells.append(.integer(Int(Int64(bitPattern: bits))))
        case 3: cells.append(.number(Double(bitPattern: bits)))
        default: cells.append(.timestamp(Timestamp(microseconds: Int64(bitPattern: bits))))
        }
      case 1, 7:
        guard let length = varint(bytes, &i), i + Int(length) <= bytes.count else { return nil }
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[i..<i + Int(length)]), as: UTF8.self)
        i += Int(length)
        cells.append(tag == 1 ? .string(text) : .json(text))
      default:
        preconditionFailure("spooled row: unknown cell tag \(tag) at byte \(i - 1)")
      }
    }
    offset = i
    return TableRow(cells)
  }

  private static func appendString(_ tag: UInt8, _ s: String, to out: inout [UInt8]) {
    out.append(tag)
    appendVarint(UInt64(s.utf8.count), to: &out)
    out.append(contentsOf: s.utf8)
  }

  private static func appendFixed(_ tag: UInt8, _ bits: UInt64, to out: inout [UInt8]) {
    out.append(tag)
    withUnsafeBytes(of: bits.littleEndian) { out.append(contentsOf: $0) }
  }

  private static func appendVarint(_ value: UInt64, to out: inout [UInt8]) {
    CompactWriter.appendVarint(value, to: &out)
  }

  private static func varint(_ bytes: UnsafeRawBufferPointer, _ i: inout Int) -> UInt64? {
    var value: UInt64 = 0
    var shift: UInt64 = 0
    while i < bytes.count {
      let byte = bytes[i]
      i += 1
      value |= UInt64(byte & 0x7F) << shift
      if byte < 0x80 { return value }
      shift += 7
    }
    return nil
  }
}
