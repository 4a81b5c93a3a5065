import Journal
import Projection

extension UnknownRuleError: CustomStringConvertible {
  /// `unknown rule 'modal-leek' (did you mean 'modal-leak'?)`: what `check --rule` and `shrink --rule` say.
  public var description: String {
    "unknown rule \(quoted(id))" + (suggestion.map { " (did you mean '\($0)'?)" } ?? "")
  }
}
