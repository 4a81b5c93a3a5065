/// How the lines of a screen are shared between the sections of the
/// stepper's view; the same for one journal and for two side by side.
///
/// Six lines are always there: the header, the events rule, the current
/// event, the transition, the message line and the status line. At 80×24 the
/// rest goes to a map of two rows of boxes (7 lines), 3 events of context on
/// each side, 2 lines of phases and 3 of findings. A taller screen gives half
/// its extra lines to the map (three rows of boxes from 28 lines, so that the
/// focus has the rows above and below it) and the rest to context, findings
/// and (a little) phases; a shorter one drops the map first, then context, keeping
/// one line of each.
/// The sections never move while stepping: each keeps its lines even when
/// it has less to show.
struct ScreenLayout: Hashable {
  /// Lines of the map (a multiple of 4 minus 1: rows of boxes and the gaps between them).
  var map = 0
  /// Events shown before and after the current one.
  var context = 0
  var phases = 0
  var findings = 0

  /// The lines that are always there.
  static let fixedLines = 6

  init(height: Int) {
    let rest = height - Self.fixedLines
    guard rest > 0 else { return }
    if rest >= 18 {
      // Half the extra lines to the map (whole rows of boxes), then two
      // thirds of what is left to context, the rest mostly to findings.
      let extra = rest - 18
      // Rounded up from 4 extra lines: three rows then show the focus with the
      // rows above and below it (two rows always crop one of them).
      let rows = (7 + extra / 2 + 3) / 4
      map = rows * 4 - 1
      let remaining = extra - (map - 7)
      context = 3 + remaining / 3
      let left = remaining - 2 * (remaining / 3)
      phases = 2 + min(left / 3, 2)
      findings = rest - map - 2 * context - phases
      return
    }
    // Small screens: grow the sections one step at a time, in order of use,
    // skipping a step that does not fit; a line left over goes to the phases.
    let steps: [(WritableKeyPath<ScreenLayout, Int>, Int, Int)] = [
      (\.context, 1, 2), (\.phases, 1, 1), (\.findings, 1, 1), (\.map, 3, 3), (\.context, 2, 2),
      (\.findings, 2, 1), (\.context, 3, 2), (\.map, 7, 4), (\.phases, 2, 1), (\.findings, 3, 1),
    ]
    var left = rest
    for (section, value, cost) in steps where cost <= left && self[keyPath: section] < value {
      self[keyPath: section] = value
      left -= cost
    }
    phases += left
  }

  /// Lines used, fixed ones included.
  var total: Int { Self.fixedLines + map + 2 * context + phases + findings }
}
