extension Int {
  /// The number with thousands separators: `1,000,000`. The one grouping of the package's text.
  package var grouped: String {
    let digits = String(magnitude)
    var out = self < 0 ? "-" : ""
    for (i, digit) in digits.enumerated() {
      if i > 0 && (digits.count - i) % 3 == 0 { out += "," }
      out.append(digit)
    }
    return out
  }

  /// `1 event`, `2 events`, `1,000 events`.
  package func counted(_ singular: String, _ plural: String? = nil) -> String {
    "\(grouped) \(self == 1 ? singular : plural ?? singular + "s")"
  }
}

extension Double {
  /// The number as the journal writes it (``JSONWriter/appendNumber(_:to:)``): `120`, `50.5`, `0.001`.
  /// The one spelling of a measured number in the package's sentences.
  package var journalText: String {
    var bytes: [UInt8] = []
    JSONWriter.appendNumber(self, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }
}
