import Journal

/// Reads back a JSON array of strings as the table builder writes it (`["a","b\"c"]`), for
/// the list column: every JSON escape is undone, `\uXXXX` surrogate pairs included.
enum JSONStringArray {
  static func decode(_ text: String) -> [String] {
    var strings: [String] = []
    var current: [UInt8] = []
    var inString = false
    let bytes = Array(text.utf8)
    var i = 0
    while i < bytes.count {
      let byte = bytes[i]
      i += 1
      guard inString else {
        if byte == UInt8(ascii: "\"") { inString = true }
        continue
      }
      switch byte {
      case UInt8(ascii: "\""):
        strings.append(String(decoding: current, as: UTF8.self))
        current.removeAll(keepingCapacity: true)
        inString = false
      case UInt8(ascii: "\\") where i < bytes.count:
        let escape = bytes[i]
        i += 1
        switch escape {
        case UInt8(ascii: "u"):
          var scalar = hex4(bytes, &i)
          if (0xD800..<0xDC00).contains(scalar), i + 1 < bytes.count, bytes[i] == UInt8(ascii: "\\"),
            bytes[i + 1] == UInt8(ascii: "u")
          {
            i += 2
            let low = hex4(bytes, &i)
            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low &- 0xDC00)
          }
          current.append(contentsOf: String(Unicode.Scalar(scalar).map(Character.init) ?? "\u{FFFD}").utf8)
        default: current.append(JSONEscape.control(escape) ?? escape)
        }
      default:
        current.append(byte)
      }
    }
    return strings
  }

  private static func hex4(_ bytes: [UInt8], _ i: inout Int) -> UInt32 {
    var value: UInt32 = 0
    for _ in 0..<4 where i < bytes.count {
      let byte = bytes[i]
      i += 1
      let digit: UInt32
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
      default: digit = 0
      }
      value = value << 4 | digit
    }
    return value
  }
}
