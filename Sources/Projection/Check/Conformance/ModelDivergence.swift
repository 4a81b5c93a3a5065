import Journal

/// One place where a recording differs from what the reference model predicts
/// for the same inputs (`check --model`, rule `model-divergence`).
///
/// A divergence is one hunk of the comparison of one input's events: the events
/// the model expects there and those the recording has, anchored at the first
/// recorded line that differs, with the last few matching events before it.
///
/// ```text
/// j.ndjson:14: error: intended model expects notes didAppear; found notes willAppear (in move at seq 9: home → notes) [model-divergence]
///      11 = home willDisappear
///      12 = notes willAppear
///      13 = home didDisappear
///         - notes didAppear
///      14 + notes willAppear
/// ```
public struct ModelDivergence: Sendable, Hashable {
  /// A recorded event and its line.
  public struct Entry: Sendable, Hashable {
    public var line: Int
    public var record: Record
  }

  /// The finding: rule `model-divergence`, the anchor's line and `seq`, a one-line message.
  public var finding: Finding
  /// The last matching recorded events before the divergence (at most three).
  public var context: [Entry]
  /// What the model writes there (its own `seq` and `time`), in order; empty when
  /// the recording has extra events or the model refused the input.
  public var expected: [Record]
  /// What the recording has there instead, in order.
  public var found: [Entry]
  /// The recorded event right after a divergence that only misses events (where
  /// they were expected), if the journal goes on.
  public var following: Entry?
  /// Why the model refused the input, when it did (nothing is expected then), in
  /// Unicode as the JSON writes it.
  public var refusal: String? {
    guard case .modelRefuses(_, _, let refusal) = finding.fact else { return nil }
    return refusal.text(.unicode)
  }

  public init(finding: Finding, context: [Entry], expected: [Record], found: [Entry], following: Entry? = nil) {
    self.finding = finding
    self.context = context
    self.expected = expected
    self.found = found
    self.following = following
  }

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
