import Journal
import Projection

extension State {
  /// Writes the state as readable text: where in the journal it is, the
  /// session, root, focus, the transition (in flight, with the callbacks that
  /// arrived and those still missing), then one line per controller: id,
  /// class, alive or deallocated, loaded, phase, modal and presenter, the
  /// modals it presented, links and minimum touches. With a `listing` other
  /// than ``ControllerSelection/all``, only its controllers have a line, and
  /// the count says how many were listed (`controllers: 3 (2 alive), 2 listed`).
  ///
  /// ```swift
  /// var text = ""
  /// State(folding: records).writeText(to: &text)  // or glyphs: .ascii
  /// // after seq 14 (15 events) at 2026-11-29T10:00:01.250000Z
  /// // session 3F2A9C1E (v1, app Dicto, build 2.1 (88), profile intended)
  /// // root: home
  /// // focus: notes
  /// // transition: home → notes (left, pan, animated) at seq 10, complete
  /// // controllers: 2 (2 alive)
  /// //   home: HomeViewController, loaded, disappeared; links left=notes
  /// //   notes: NotesViewController, loaded, appeared; links right=home
  /// ```
  /// Journal text is escaped with `displayText`.
  public func writeText(
    glyphs: Glyphs = .unicode, listing: ControllerSelection = .all, to out: inout some TextOutputStream
  ) {
    if let lastSeq, let lastTime {
      out.write(
        "after seq \(lastSeq) (\(counters.events) \(counters.events == 1 ? "event" : "events")) at \(lastTime)\n")
    } else {
      out.write("before any event\n")
    }
    if let header {
      out.write(Event.session(header).sentence(glyphs) + "\n")
    }
    out.write("root: \(root.map { glyphs.id($0) } ?? "none")\n")
    out.write("focus: \(focus.map { glyphs.id($0) } ?? "none")\n")
    if let transition {
      out.write(transition.isComplete ? "transition: " : "transition in flight: ")
      out.write(transition.summary(glyphs))
      if transition.isComplete {
        out.write(", complete\n")
      } else {
        let arrived =
          transition.arrivals.isEmpty ? "none" : transition.arrivals.map { glyphs.id($0) }.joined(separator: ", ")
        out.write(
          "; arrived: \(arrived); missing: \(transition.missing.map { glyphs.id($0) }.joined(separator: ", "))\n")
      }
    } else {
      out.write("transition: none\n")
    }
    if counters.anomalies > 0 {
      out.write("anomalies so far: \(counters.anomalies)\n")
    }
    if !counters.unknownTypes.isEmpty {
      let types = counters.unknownTypes.sorted { $0.key < $1.key }.map { "\(glyphs.text($0.key)) \($0.value)" }
      out.write("unknown event types: \(types.joined(separator: ", "))\n")
    }
    let alive = controllers.reduce(0) { $0 + ($1.isAlive ? 1 : 0) }
    out.write("controllers: \(controllerCount) (\(alive) alive)")
    if !listing.isAll { out.write(", \(controllers.reduce(0) { $0 + (listing.selects($1) ? 1 : 0) }) listed") }
    out.write("\n")
    for controller in controllers where listing.selects(controller) {
      out.write("  ")
      out.write(describe(controller, glyphs))
      out.write("\n")
    }
  }

  /// The state as ``writeText(glyphs:to:)`` writes it.
  public var text: String {
    var out = ""
    writeText(to: &out)
    return out
  }

  private func describe(_ controller: ControllerState, _ glyphs: Glyphs) -> String {
    var facts = [glyphs.text(controller.className)]
    if let deallocatedAt = controller.deallocatedAt, !controller.isAlive {
      facts.append("deallocated at seq \(deallocatedAt)")
    }
    switch controller.loadCount {
    case 0: facts.append("not loaded")
    case 1: facts.append("loaded")
    default: facts.append("loaded \(controller.loadCount) times")
    }
    facts.append(controller.phase.rawValue)
    var s = glyphs.id(controller.id) + ": " + facts.joined(separator: ", ")
    if controller.isModal {
      s += "; modal presented by " + (controller.presenter.map { glyphs.id($0) } ?? "nobody")
    }
    let presented = modals(presentedBy: controller.id)
    if !presented.isEmpty {
      s += "; presented " + presented.map { glyphs.id($0) }.joined(separator: ", ")
    }
    if let links = links(of: controller.id), controller.hasLinks {
      let slots = Direction.slotOrder.compactMap { d in links[d].map { "\(d)=\(glyphs.id($0))" } }
      s += "; links " + slots.joined(separator: " ")
    }
    let touches = Direction.slotOrder.filter { controller.minimumTouches[$0] != 1 }
    if !touches.isEmpty {
      s += "; min touches " + touches.map { "\($0)=\(controller.minimumTouches[$0])" }.joined(separator: " ")
    }
    return s
  }
}

extension Transition {
  /// `home → notes (left, pan, animated) at seq 10` or `initial display of home at seq 3`.
  package func summary(_ glyphs: Glyphs) -> String {
    switch kind {
    case .initialDisplay:
      return "initial display of \(glyphs.id(to)) at seq \(seq)"
    case .move:
      let move = Move(
        from: from ?? to, to: to, direction: direction ?? .left, trigger: trigger ?? .programmatic, animated: animated)
      return "\(move.sentence(glyphs)) at seq \(seq)"
    }
  }
}
