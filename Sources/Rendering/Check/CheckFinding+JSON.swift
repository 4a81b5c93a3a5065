import Journal
import Projection

extension CheckFinding {
  /// The finding as one NDJSON object (the `--json` output of `check`), the message
  /// drawn in Unicode or, for `ascii`, plain ASCII; a divergence with its diff
  /// (``ModelDivergence/json(file:)``).
  public func json(file: String, ascii: Bool = false) -> String {
    if case .divergence(let divergence) = self { return divergence.json(file: file) }
    var json = JSONBuffer()
    json.open("{")
    appendMembers(file: file, ascii: ascii, to: &json)
    json.close("}")
    return json.text
  }

  /// The members of ``json(file:ascii:)``'s object, for a finding that adds its own (a model divergence).
  func appendMembers(file: String, ascii: Bool = false, to json: inout JSONBuffer) {
    json.key("file")
    json.string(file)
    json.key("line")
    json.int(line)
    json.member("column", ifPresent: column)
    json.member("seq", ifPresent: seq)
    json.key("severity")
    json.string(severity.rawValue)
    json.key("rule")
    json.string(rule.id)
    json.key("message")
    json.string(message(Glyphs(ascii: ascii)))
    json.member("offset", ifPresent: offset.map { Int($0) })
    json.member("length", ifPresent: length)
    let controllers = controllers
    if !controllers.isEmpty {
      json.key("controllers")
      json.strings(controllers.map(\.rawValue))
    }
    json.member("move", ifPresent: move)
    if let source {
      json.key("source")
      json.string(source)
    }
  }
}

extension Diagnostic {
  /// The diagnostic as one NDJSON object (``CheckFinding/json(file:ascii:)``).
  public func json(file: String) -> String { CheckFinding.format(self).json(file: file) }
}

extension Finding {
  /// The finding as one NDJSON object (``CheckFinding/json(file:ascii:)``).
  public func json(file: String, ascii: Bool = false) -> String {
    CheckFinding.rule(self).json(file: file, ascii: ascii)
  }
}

extension ModelDivergence {
  /// Why the model refused the input, when it did (nothing is expected then), in
  /// Unicode as the JSON writes it.
  public var refusal: String? {
    guard case .modelRefuses(_, _, let refusal) = finding.fact else { return nil }
    return refusal.text(.unicode)
  }

  /// The divergence as one NDJSON object: the finding's keys, then `expected`
  /// (the model's records), `found` and `context` (`{"line":N,"record":{...}}`).
  public func json(file: String) -> String {
    var json = JSONBuffer()
    json.open("{")
    CheckFinding.rule(finding).appendMembers(file: file, to: &json)
    func entry(_ entry: Entry) {
      json.open("{")
      json.counts([("line", entry.line)])
      json.key("record")
      json.raw(entry.record.ndjson)
      json.close("}")
    }
    json.key("expected")
    json.open("[")
    for record in expected {
      json.element()
      json.raw(record.ndjson)
    }
    json.close("]")
    for (key, list) in [("found", found), ("context", context)] {
      json.key(key)
      json.open("[")
      for item in list {
        json.element()
        entry(item)
      }
      json.close("]")
    }
    if let following {
      json.key("following")
      entry(following)
    }
    if let refusal {
      json.key("refusal")
      json.string(refusal)
    }
    json.close("}")
    return json.text
  }
}
