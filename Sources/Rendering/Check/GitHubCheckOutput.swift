import Journal
import Projection

/// `check --format github`: one GitHub Actions workflow command per finding,
/// `::error file=PATH,line=N[,col=N],title=RULE::MESSAGE` (`::warning` for
/// warnings), escaped as the runner expects, then the summary lines as plain text.
public struct GitHubCheckOutput: CheckOutput {
  /// `--source-root`.
  var sourceRoot: String?

  public init(sourceRoot: String?) { self.sourceRoot = sourceRoot }

  public mutating func finding(_ finding: CheckFinding, file: String, into out: inout some TextOutputStream) {
    let diagnostic = finding
    var properties: String
    var message = diagnostic.message + " [\(diagnostic.rule)]"
    if let source = CallSite(of: diagnostic, root: sourceRoot) {
      // At the app's line that recorded the event; the journal's line goes into the message.
      properties = "file=\(Self.property(source.file)),line=\(source.line)"
      message += " (\(file):\(diagnostic.line))"
    } else {
      properties = "file=\(Self.property(file)),line=\(diagnostic.line)"
      if let column = diagnostic.column { properties += ",col=\(column)" }
      if let source = diagnostic.source { message += " (recorded at \(source))" }
    }
    properties += ",title=\(Self.property(diagnostic.rule.id))"
    out.write("::\(diagnostic.severity.rawValue) \(properties)::\(Self.data(message))\n")
  }

  public mutating func endFile(_ file: CheckedFile, into out: inout some TextOutputStream) {
    if let failure = file.failure {
      out.write("::error file=\(Self.property(file.name)),title=unreadable::\(Self.data(failure))\n")
    }
    guard let summary = file.summary else { return }
    out.write(Self.data(file.name) + ": " + TextCheckOutput.text(summary) + "\n")
  }

  public mutating func end(
    files: [CheckedFile], total: CheckSummary, omitted: Int, into out: inout some TextOutputStream
  ) {
    if omitted > 0 { out.write("\(omitted.counted("more finding")) not shown (--max-findings)\n") }
  }

  /// A workflow command's message: `%`, CR and LF escaped (and every other control character, so
  /// nothing from a journal reaches the log raw).
  static func data(_ text: String) -> String {
    var out = ""
    for scalar in displayText(text, limit: .max).unicodeScalars {
      switch scalar {
      case "%": out += "%25"
      case "\r": out += "%0D"
      case "\n": out += "%0A"
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out
  }

  /// A workflow command's property value: as ``data(_:)``, and `:` and `,` escaped too.
  static func property(_ text: String) -> String {
    var out = ""
    for character in data(text) {
      switch character {
      case ":": out += "%3A"
      case ",": out += "%2C"
      default: out.append(character)
      }
    }
    return out
  }
}
