import Journal
import Projection

extension DiffReport {
  /// Writes the report for a terminal: what was compared, the first
  /// divergence (its position, the move each run was in, the last matching
  /// events), every hunk with its seq and line ranges and events (`-` for A,
  /// `+` for B), then the summary line.
  ///
  /// - Parameters:
  ///   - out: where the text goes.
  ///   - nameA: how to call run A (its file name).
  ///   - nameB: how to call run B.
  ///   - hunkEvents: events listed per side of a hunk before `… N more` (0: all).
  ///   - color: headings in bold, A's events in red and B's in green (on a terminal).
  ///   - glyphs: arrows, dashes and ellipses in Unicode or ASCII.
  public func write(
    to out: inout some TextOutputStream, nameA: String, nameB: String, hunkEvents: Int = 20, color: Bool = false,
    glyphs: Glyphs = .unicode
  ) {
    out.write("A: \(glyphs.text(nameA, limit: 256)) (\((a.count).grouped) events compared)\n")
    out.write("B: \(glyphs.text(nameB, limit: 256)) (\((b.count).grouped) events compared)\n")
    let types = a.options.orderedTypes.map { glyphs.text($0) }.joined(separator: ", ")
    out.write("compared: \(types.isEmpty ? "nothing" : types); controllers matched by \(matching.text)\n")
    guard let divergence = firstDivergence else {
      out.write("\n" + summary + "\n")
      return
    }
    if let first = hunks.first?.hunk {
      out.write(
        "\n" + TerminalStyle.bold.apply("first divergence:", color: color)
          + " \(point(first.a, in: a, "A", glyphs)); \(point(first.b, in: b, "B", glyphs))\n")
    }
    out.write("  in move: \(move(divergence.moveA, "A", glyphs))\n")
    out.write("           \(move(divergence.moveB, "B", glyphs))\n")
    if divergence.a == 0 && divergence.b == 0 {
      out.write("  (at the start: no matching event before it)\n")
    } else if !divergence.context.isEmpty {
      out.write("  last matching events:\n")
      for pair in divergence.context {
        out.write(
          "    A seq \(a.seqs[pair.a]), B seq \(b.seqs[pair.b])  \(vocabulary.describe(a.tokens[pair.a], glyphs: glyphs))\n"
        )
      }
    }
    for (k, h) in hunks.enumerated() {
      out.write("\n" + TerminalStyle.bold.apply("hunk \(k + 1) of \(hunks.count), \(label(h)):", color: color) + " ")
      out.write("\(range(h.hunk.a, in: a, "A", glyphs)); \(range(h.hunk.b, in: b, "B", glyphs))\n")
      list(h.hunk.a, in: a, "-", "A", limit: hunkEvents, style: color ? .red : .plain, glyphs: glyphs, to: &out)
      list(h.hunk.b, in: b, "+", "B", limit: hunkEvents, style: color ? .green : .plain, glyphs: glyphs, to: &out)
    }
    if alignment.budgetExhausted {
      out.write(
        "\nnote: the alignment's budget ran out: some hunks replace a whole segment instead of the smallest edit\n")
    }
    out.write("\n" + summary + "\n")
  }

  /// The summary line: `3 hunks: 1 missing, 1 duplicated, 1 reordered; A 1,204 events, B 1,206 events`,
  /// or `identical: A 1,204 events, B 1,204 events`.
  public var summary: String {
    let sizes = "A \((a.count).grouped) events, B \((b.count).grouped) events"
    if hunks.isEmpty { return "identical: " + sizes }
    let kinds = HunkKind.allCases.compactMap { kind -> String? in
      let n = count(of: kind)
      return n == 0 ? nil : "\((n).grouped) \(kind.rawValue)"
    }
    return
      "\((hunks.count).grouped) \(hunks.count == 1 ? "hunk" : "hunks"): \(kinds.joined(separator: ", ")); \(sizes)"
  }

  private func label(_ h: ClassifiedHunk) -> String {
    if let side = h.side { return "\(h.kind.rawValue) in \(side.rawValue.uppercased())" }
    return h.kind.rawValue
  }

  /// Where a hunk starts on one side: its first event, or the gap where the other side has events.
  private func point(_ r: Range<Int>, in run: NormalizedRun, _ side: String, _ glyphs: Glyphs) -> String {
    if r.isEmpty { return range(r, in: run, side, glyphs) }
    return "\(side) seq \(run.seqs[r.lowerBound]) (line \(run.lines[r.lowerBound]))"
  }

  private func move(_ mark: NormalizedRun.MoveMark?, _ side: String, _ glyphs: Glyphs) -> String {
    guard let mark else { return "\(side) none yet (initial display)" }
    return "\(side) seq \(mark.seq): \(vocabulary.describeMove(mark.token, glyphs: glyphs))"
  }

  private func range(_ r: Range<Int>, in run: NormalizedRun, _ side: String, _ glyphs: Glyphs) -> String {
    if r.isEmpty {
      if r.lowerBound > 0 {
        let i = r.lowerBound - 1
        return "\(side) none, after seq \(run.seqs[i]) (line \(run.lines[i]))"
      }
      if r.lowerBound < run.count {
        return "\(side) none, before seq \(run.seqs[r.lowerBound]) (line \(run.lines[r.lowerBound]))"
      }
      return "\(side) none"
    }
    let first = r.lowerBound
    let last = r.upperBound - 1
    if first == last { return "\(side) seq \(run.seqs[first]) (line \(run.lines[first]))" }
    return "\(side) \((r.count).grouped) events, seq \(run.seqs[first])\(glyphs.through)\(run.seqs[last]) "
      + "(lines \(run.lines[first])\(glyphs.through)\(run.lines[last]))"
  }

  private func list(
    _ r: Range<Int>, in run: NormalizedRun, _ sign: String, _ side: String, limit: Int, style: TerminalStyle,
    glyphs: Glyphs, to out: inout some TextOutputStream
  ) {
    let shown = limit > 0 ? min(r.count, limit) : r.count
    for i in r.prefix(shown) {
      out.write(
        style.apply(
          "  \(sign) \(side) seq \(run.seqs[i])  \(vocabulary.describe(run.tokens[i], glyphs: glyphs))", color: true)
          + "\n")
    }
    if shown < r.count {
      out.write(
        style.apply("  \(sign) \(glyphs.more) and \((r.count - shown).grouped) more in \(side)", color: true) + "\n")
    }
  }
}
