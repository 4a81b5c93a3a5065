import Journal
import Projection
import Rendering

extension ReportRunBuilder {
  /// Brings the layout up to the state after `event` (nil: lays it out from
  /// nothing; `named`: the positions of the controllers it names, -1 for
  /// none) and appends what changed to `layouts`: a delta, or the whole
  /// layout when the deltas since the last whole one outweigh it.
  /// - Returns: the new layout's index, nil when unchanged.
  mutating func updateLayout(_ state: State, _ event: Event?, _ named: [Int32]) -> Int? {
    mapChanges.removeAll()
    map.update(state, event: event, named: named, into: &mapChanges)
    guard event == nil || !mapChanges.isEmpty else { return nil }
    let whole =
      event == nil
      || layoutDeltaBytes >= 32 + 16 * map.placed.count + 8 * map.detached.count + 12 * map.edges.count
    let before = layouts.bytes.count
    layouts.element()
    layouts.open("{")
    if whole {
      layouts.element()
      layouts.raw(#""full":"#)
      layouts.int(1)
    }
    if whole || mapChanges.root {
      layouts.element()
      layouts.raw(#""root":"#)
      layouts.int(map.root >= 0 ? Int(lane(map.root)) : -1)
    }
    layouts.element()
    layouts.raw(#""p":"#)
    layouts.open("[")
    for p in whole ? map.placed : mapChanges.placements { writePlacement(p) }
    layouts.close("]")
    layouts.element()
    layouts.raw(#""d":"#)
    layouts.open("[")
    if whole {
      for p in map.detached.sorted() { writeDetached(p) }
    } else {
      for p in mapChanges.detached { writeDetached(p) }
    }
    layouts.close("]")
    layouts.element()
    layouts.raw(#""e":"#)
    layouts.open("[")
    for key in whole ? map.edges.keys.sorted() : mapChanges.edges { writeEdge(key) }
    layouts.close("]")
    layouts.close("}")
    layoutDeltaBytes = whole ? 0 : layoutDeltaBytes + layouts.bytes.count - before
    layoutCount += 1
    return layoutCount - 1
  }

  /// `[lane, x, y, modal]`, or `[lane]` when no longer placed (``ReportData/Placement``).
  private mutating func writePlacement(_ p: Int32) {
    let (i, l) = (Int(p), Int(lane(p)))
    let (x, y, flag) = (Int(map.x[i]), Int(map.y[i]), map.placedFlag[i])
    writeEntry(flag, lane: ReportData.Placement.lane) { field in
      switch field {
      case .lane: l
      case .x: x
      case .y: y
      case .modal: flag == 2 ? 1 : 0
      }
    }
  }

  /// `[lane, modal]`, or `[lane]` when no longer detached (``ReportData/Detached``).
  private mutating func writeDetached(_ p: Int32) {
    let (l, flag) = (Int(lane(p)), map.detachedFlag[Int(p)])
    writeEntry(flag, lane: ReportData.Detached.lane) { field in
      switch field {
      case .lane: l
      case .modal: flag == 2 ? 1 : 0
      }
    }
  }

  /// An array of `Field`'s values in its order, or of the lane's alone when `flag` is 0 (no longer there).
  private mutating func writeEntry<Field: CaseIterable & Equatable>(
    _ flag: UInt8, lane: Field, _ value: (Field) -> Int
  ) {
    layouts.element()
    layouts.open("[")
    for field in Field.allCases where flag != 0 || field == lane {
      layouts.element()
      layouts.int(value(field))
    }
    layouts.close("]")
  }

  /// `[laneA, laneB, lines]` with the smaller lane first, lines 0 when the link is gone (``ReportData/Edge``).
  private mutating func writeEdge(_ key: UInt64) {
    let la = Int(lane(Int32(truncatingIfNeeded: key >> 32)))
    let lb = Int(lane(Int32(truncatingIfNeeded: key & 0xFFFF_FFFF)))
    layouts.element()
    layouts.open("[")
    for field in ReportData.Edge.allCases {
      layouts.element()
      switch field {
      case .a: layouts.int(min(la, lb))
      case .b: layouts.int(max(la, lb))
      case .lines: layouts.int(Int(map.edges[key] ?? 0))
      }
    }
    layouts.close("]")
  }
}
