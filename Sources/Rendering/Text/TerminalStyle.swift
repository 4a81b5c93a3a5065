/// ANSI SGR attributes used by the renderers when colour is on.
///
/// The renderers and the command line use it on a terminal (or with --color=always).
package enum TerminalStyle: UInt8, Sendable, Hashable {
  case plain, dim, bold, inverse, red, green, yellow, blue, magenta, cyan, boldGreen

  /// The escape sequence that switches this style on (after a reset).
  package var sequence: String {
    switch self {
    case .plain: "\u{1B}[0m"
    case .dim: "\u{1B}[2m"
    case .bold: "\u{1B}[1m"
    case .inverse: "\u{1B}[1;7m"
    case .red: "\u{1B}[31m"
    case .green: "\u{1B}[32m"
    case .yellow: "\u{1B}[33m"
    case .blue: "\u{1B}[34m"
    case .magenta: "\u{1B}[35m"
    case .cyan: "\u{1B}[36m"
    case .boldGreen: "\u{1B}[1;32m"
    }
  }

  /// The reset sequence.
  package static let reset = "\u{1B}[0m"

  /// `text` in this style when `color` is on, else `text` unchanged.
  package func apply(_ text: String, color: Bool) -> String {
    guard color, self != .plain else { return text }
    return sequence + text + Self.reset
  }
}
