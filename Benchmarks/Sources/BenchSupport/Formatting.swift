import Projection

/// `n` with its digits in groups of three: `1,234,567` (`-1,234` below zero),
/// as the diff report writes counts.
/// (The library's own `Int.grouped` is `package`, out of this package's reach.)
public func grouped(_ n: Int) -> String {
  let digits = String(n.magnitude)
  var out = n < 0 ? "-" : ""
  for (i, digit) in digits.enumerated() {
    if i > 0 && (digits.count - i) % 3 == 0 { out += "," }
    out.append(digit)
  }
  return out
}

/// A non-negative `value` rounded to two decimals, both always written: `0.05`, `12.30`.
public func format(_ value: Double) -> String {
  let hundredths = Int((value * 100).rounded())
  return "\(hundredths / 100).\(hundredths % 100 < 10 ? "0" : "")\(hundredths % 100)"
}

/// `text` padded with spaces to `width` characters, on the right (text
/// aligned left) or, with `right`, on the left; longer text is left as it is.
public func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
  let padding = String(repeating: " ", count: max(0, width - text.count))
  return right ? padding + text : text + padding
}
