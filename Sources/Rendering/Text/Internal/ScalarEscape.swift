/// The loop of Rendering's escapers: each scalar of a text is written as the escape its format
/// names for it, as a visible `\u{…}` where the format cannot hold it, and as it is otherwise.
/// ``MarkupText`` (HTML, XML) and the Swift literals of ``RegressionTestSource`` differ only in
/// those two choices.
enum ScalarEscape {
  /// `text` escaped: `named` gives a scalar's own escape (nil when it has none), `holds` whether
  /// the format can hold a scalar without one; `uppercase` spells the hex digits of `\u{…}`.
  @inline(__always)
  static func escape(
    _ text: String, uppercase: Bool, named: (Unicode.Scalar) -> String?, holds: (Unicode.Scalar) -> Bool
  ) -> String {
    var out = ""
    out.reserveCapacity(text.utf8.count)
    for scalar in text.unicodeScalars {
      if let escape = named(scalar) {
        out += escape
      } else if holds(scalar) {
        out.unicodeScalars.append(scalar)
      } else {
        out += "\\u{" + String(scalar.value, radix: 16, uppercase: uppercase) + "}"
      }
    }
    return out
  }
}
