import Journal

/// Where the rules report while one record is checked: turns a rule, the
/// controllers and a sentence into a ``Diagnostic`` at the record's line and
/// `seq`, with the transition it happened in, and drops rules not selected.
struct CheckFindings {
  let rules: RuleSelection
  /// The arrows and marks of the messages.
  let glyphs: Glyphs
  /// Line and `seq` of the record being checked.
  var line = 0
  var seq: Int?
  var diagnostics: [Diagnostic] = []

  init(rules: RuleSelection, glyphs: Glyphs = .unicode) {
    self.rules = rules
    self.glyphs = glyphs
  }

  /// Whether `rule` is selected (check before building an expensive message).
  @inline(__always)
  func wants(_ rule: CheckRule) -> Bool { rules.contains(rule) }

  /// Reports one finding at the current record, or at `line`/`seq` when given.
  ///
  /// - Parameters:
  ///   - transition: the move or initial display it happened in; its `seq` becomes the
  ///     diagnostic's `move` and `(in move at seq 41: home → notes)` ends the message.
  mutating func report(
    _ rule: CheckRule, _ controllers: [ControllerID], _ message: String, in transition: Transition?,
    line: Int? = nil, seq: Int?? = nil
  ) {
    guard rules.contains(rule) else { return }
    var text = message
    if let transition { transition.appendContext(glyphs, to: &text) }
    diagnostics.append(
      Diagnostic(
        rule: rule.id, severity: rule.severity, line: line ?? self.line, seq: seq ?? self.seq, message: text,
        controllers: controllers, move: transition?.seq))
  }
}

extension Transition {
  /// Appends ` (in move at seq 41: home → notes)` or ` (in initial display at seq 3: home)`,
  /// ids made safe for a terminal, to a finding's message.
  ///
  /// Implementation note: the pieces are copied into one new string of the
  /// exact length, not appended one by one (each `+=` of a string cost a few
  /// hundred instructions: callgrind, a legacy journal's 600,000 findings,
  /// 4,100 instructions per context, about a third of the checker's time).
  func appendContext(_ glyphs: Glyphs, to text: inout String) {
    let seqText = String(seq)
    let toText = glyphs.id(to)
    let pieces: [String]
    switch kind {
    case .initialDisplay:
      pieces = [text, " (in initial display at seq ", seqText, ": ", toText, ")"]
    case .move:
      pieces = [
        text, " (in move at seq ", seqText, ": ", from.map { glyphs.id($0) } ?? "?", " ", glyphs.arrow, " ", toText,
        ")",
      ]
    }
    var count = 0
    for piece in pieces { count += piece.utf8.count }
    text = String(unsafeUninitializedCapacity: count) { buffer in
      var i = 0
      for var piece in pieces {
        piece.withUTF8 { bytes in
          guard let base = bytes.baseAddress else { return }
          UnsafeMutableRawPointer(buffer.baseAddress! + i).copyMemory(from: base, byteCount: bytes.count)
          i += bytes.count
        }
      }
      return i
    }
  }

  /// The ends of the transition, `from` first.
  var ends: [ControllerID] { (from.map { [$0] } ?? []) + [to] }
}
