/// The order of versions, as `sort -V` puts them: runs of digits compare as
/// numbers and the text between them byte by byte, so that `9.0 < 9.2 < 9.10 <
/// 10.0` and `build-9.ndjson < build-10.ndjson`. Builds are ordered this way
/// wherever they are listed (`stats --by build`, a folder's journals, `bisect`
/// of a folder); strings equal by it (`01` and `1`) fall back to byte order.
///
/// ```swift
/// ["10.0", "9.10", "9.2"].sorted(by: VersionOrder.precedes)  // ["9.2", "9.10", "10.0"]
/// ```
public enum VersionOrder {
  /// Whether `a` comes before `b`.
  public static func precedes(_ a: String, _ b: String) -> Bool {
    let x = Array(a.utf8)
    let y = Array(b.utf8)
    var i = 0
    var j = 0
    while i < x.count && j < y.count {
      if isDigit(x[i]) && isDigit(y[j]) {
        // Numbers: without leading zeros, the longer is the larger, else digit by digit.
        var si = i
        var sj = j
        while si < x.count && x[si] == UInt8(ascii: "0") { si += 1 }
        while sj < y.count && y[sj] == UInt8(ascii: "0") { sj += 1 }
        var ei = si
        var ej = sj
        while ei < x.count && isDigit(x[ei]) { ei += 1 }
        while ej < y.count && isDigit(y[ej]) { ej += 1 }
        if ei - si != ej - sj { return ei - si < ej - sj }
        if x[si..<ei] != y[sj..<ej] { return x[si..<ei].lexicographicallyPrecedes(y[sj..<ej]) }
        i = ei
        j = ej
      } else {
        if x[i] != y[j] {
          // A number comes after text (`9.0 < 9.0.1`, `1.0-beta < 1.0.1` as bytes say).
          return x[i] < y[j]
        }
        i += 1
        j += 1
      }
    }
    if (x.count - i) != (y.count - j) || i != x.count { return x.count - i < y.count - j }
    return a.utf8.lexicographicallyPrecedes(b.utf8)
  }

  /// Whether `a` comes before `b`, with no value after every value (a journal without the field).
  public static func precedes(_ a: String?, _ b: String?) -> Bool {
    guard let a else { return false }
    guard let b else { return true }
    return precedes(a, b)
  }

  private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
}
