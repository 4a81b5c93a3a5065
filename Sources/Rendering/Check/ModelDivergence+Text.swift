import Journal
import Projection

extension ModelDivergence {
  /// Writes the diff under the finding's line: `=` matching context, `-` expected by
  /// the model only, `+` recorded only, each recorded event with its line.
  /// Journal text is escaped for a terminal; arrows are `glyphs`'.
  public func render(glyphs: Glyphs = .unicode, into out: inout some TextOutputStream) {
    let lines = context.map(\.line) + found.map(\.line) + (following.map { [$0.line] } ?? [])
    let width = String(lines.max() ?? 0).count
    func pad(_ line: Int?) -> String {
      let text = line.map(String.init) ?? ""
      return String(repeating: " ", count: 4 + width - text.count) + text
    }
    for entry in context { out.write("\(pad(entry.line)) = \(entry.record.event.conformanceText(glyphs))\n") }
    for record in expected { out.write("\(pad(nil)) - \(record.event.conformanceText(glyphs))\n") }
    for entry in found { out.write("\(pad(entry.line)) + \(entry.record.event.conformanceText(glyphs))\n") }
    if let following { out.write("\(pad(following.line))   \(following.record.event.conformanceText(glyphs))\n") }
  }
}
