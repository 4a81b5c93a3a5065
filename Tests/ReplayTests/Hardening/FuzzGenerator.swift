import Journal

@testable import TestSupport

/// Journals that are perfectly formed and make no sense: every line decodes,
/// `seq` and `time` are in order, but the events come in any order, over a
/// small pool of controllers (links to self, moves between strangers, modals
/// presenting each other, deallocated roots, events naming ids never allocated,
/// touches of 0 or Int.max, negative distances, infinities written as 1e308).
///
/// The syntax fuzzer (``FuzzMutator``) attacks the reader; these attack the
/// model: the fold, the navigator, the map, the timeline, the checker, diff and stats.
enum FuzzGenerator {
  static let ids: [ControllerID] = [
    "a", "b", "c", "d", "e", "f", "x\u{1B}[2J", ControllerID("long-" + String(repeating: "é", count: 120)),
  ]
  static let classes = ["HomeViewController", "A", "B", "\u{202E}Evil", ""]

  /// A journal of `count` events (the header first, most of the time).
  static func journal(events count: Int, using random: inout FuzzRandom) -> [UInt8] {
    var out: [UInt8] = []
    var time = Timestamp.modelEpoch
    for seq in 0..<count {
      let event: Event
      if seq == 0 && !random.percent(5) {
        event = .session(SessionHeader(session: "nonsense", profile: random.pick(["intended", "legacy", "other"])))
      } else {
        event = self.event(using: &random)
      }
      var extra: [Field] = []
      if random.percent(5) { extra.append(Field(key: "note", value: .string(random.pick(FuzzMutator.hostileTexts)))) }
      let record = Record(seq: seq, time: time, event: event, extra: event.isMark ? [] : extra)
      record.encode(into: &out)
      out.append(0x0A)
      time = time.adding(milliseconds: Int64(random.pick([0, 0, 1, 16, 250, 5_000])))
    }
    return out
  }

  /// One event of any type, over the pool of ids.
  static func event(using random: inout FuzzRandom) -> Event {
    func id() -> ControllerID {
      // Mostly the first few, so that events about one controller meet.
      random.percent(80) ? ids[random.below(4)] : random.pick(ids)
    }
    func direction() -> Direction { random.pick(Direction.allCases) }
    switch random.below(14) {
    case 0, 1: return .alloc(controller: id(), className: random.pick(classes))
    case 2: return .root(controller: id())
    case 3, 4: return .link(from: id(), direction: direction(), to: id())
    case 5: return .unlink(from: id(), direction: direction())
    case 6: return .modal(controller: id(), presenter: id())
    case 7: return .touches(controller: id(), direction: direction(), min: random.pick([0, 1, 2, 3, Int.max]))
    case 8:
      return .pan(
        Pan(
          controller: id(), direction: direction(), touches: random.pick([0, 1, 2, 5, Int.max]),
          distance: random.pick([0, 120, -5, 1e308, 0.000001]), velocity: random.pick([0, 300, 1e308, -1]),
          outcome: random.pick(PanOutcome.allCases)))
    case 9, 10:
      return .move(
        Move(
          from: id(), to: id(), direction: direction(), trigger: random.pick(MoveTrigger.allCases),
          animated: random.percent(50)))
    case 11, 12: return .lifecycle(controller: id(), callback: random.pick(Callback.allCases))
    default:
      if random.percent(30) { return .mark(label: random.pick(FuzzMutator.hostileTexts), fields: []) }
      return .dealloc(controller: id())
    }
  }
}

extension Event {
  fileprivate var isMark: Bool {
    if case .mark = self { return true }
    return false
  }
}
