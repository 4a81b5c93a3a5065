/// The page's style and script. They are written as real files,
/// `Sources/Report/Assets/report.css` and `report.js`, and embedded
/// at build time by `Assets/embed.sh` as `ReportAssets+Files.swift` (see
/// CONTRIBUTING.md for why a generated file rather than a resource bundle).
/// The script only applies the data block that ``ReportRun`` and
/// ``ReportComparison`` wrote; it never runs model rules. The positions in the
/// block's arrays are declared once, in ``ReportData``, and reach the script as
/// the named constants it starts with.
enum ReportAssets {
  /// The page's style sheet.
  static let style = String(decoding: styleFile, as: UTF8.self)

  /// The page's script: the data block's named constants, then `report.js`.
  static let script = ReportData.javaScript + String(decoding: scriptFile, as: UTF8.self)

  /// The bytes of a base64 literal (line breaks and spaces ignored).
  static func decode(_ text: String) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(text.utf8.count * 3 / 4)
    var buffer: UInt32 = 0
    var bits = 0
    for c in text.utf8 {
      let value: UInt32
      switch c {
      case UInt8(ascii: "A")...UInt8(ascii: "Z"): value = UInt32(c - UInt8(ascii: "A"))
      case UInt8(ascii: "a")...UInt8(ascii: "z"): value = UInt32(c - UInt8(ascii: "a")) + 26
      case UInt8(ascii: "0")...UInt8(ascii: "9"): value = UInt32(c - UInt8(ascii: "0")) + 52
      case UInt8(ascii: "+"): value = 62
      case UInt8(ascii: "/"): value = 63
      default: continue  // line breaks, indentation, padding
      }
      buffer = buffer << 6 | value
      bits += 6
      if bits >= 8 {
        bits -= 8
        out.append(UInt8(truncatingIfNeeded: buffer >> UInt32(bits)))
      }
    }
    return out
  }
}
