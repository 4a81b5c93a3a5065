import Journal

extension State {
  /// Writes the state as one JSON object (no line end), keys in a fixed order:
  /// `seq`, `time`, `events`, `header`, `root`, `focus`, `transition`,
  /// `controllers`, `counters`, then `map` when a layout is given. Absent
  /// values are `null`, so every object has the same keys.
  ///
  /// ```swift
  /// var json = ""
  /// state.writeJSON(to: &json, map: MapLayout(state: state))
  /// // {"seq":14,"time":"2026-11-29T10:00:01.250000Z","events":15,"header":{...},"root":"home",...}
  /// ```
  ///
  /// `transition` is the transition most recently started, with `inFlight`,
  /// `arrived` (in arrival order) and `missing` (in the documented order).
  /// Strings are escaped as the journal writer escapes them.
  public func writeJSON(to out: inout some TextOutputStream, map: MapLayout? = nil) {
    var json = JSONBuffer()
    json.open("{")
    json.key("seq")
    json.int(lastSeq)
    json.key("time")
    json.string(lastTime?.rfc3339)
    json.key("events")
    json.int(counters.events)
    json.key("header")
    if let header {
      json.open("{")
      json.key("v")
      json.int(header.version)
      json.key("session")
      json.string(header.session)
      for (key, value) in [
        ("app", header.app), ("build", header.build), ("device", header.device), ("profile", header.profile),
        ("scenario", header.scenario),
      ] {
        json.key(key)
        json.string(value)
      }
      json.close("}")
    } else {
      json.null()
    }
    json.key("root")
    json.string(root?.rawValue)
    json.key("focus")
    json.string(focus?.rawValue)
    json.key("transition")
    if let transition {
      json.open("{")
      json.key("kind")
      json.string(transition.kind.rawValue)
      json.key("seq")
      json.int(transition.seq)
      json.key("from")
      json.string(transition.from?.rawValue)
      json.key("to")
      json.string(transition.to.rawValue)
      json.key("direction")
      json.string(transition.direction?.rawValue)
      json.key("trigger")
      json.string(transition.trigger?.rawValue)
      json.key("animated")
      json.bool(transition.animated)
      json.key("inFlight")
      json.bool(!transition.isComplete)
      json.key("arrived")
      json.arrivals(transition.arrivals)
      json.key("missing")
      json.arrivals(transition.missing)
      json.close("}")
    } else {
      json.null()
    }
    json.key("controllers")
    json.open("[")
    for controller in controllers {
      json.element()
      json.open("{")
      json.key("id")
      json.string(controller.id.rawValue)
      json.key("class")
      json.string(controller.className)
      json.key("alive")
      json.bool(controller.isAlive)
      json.key("allocatedAt")
      json.int(controller.allocatedAt)
      json.key("deallocatedAt")
      json.int(controller.deallocatedAt)
      json.key("loadCount")
      json.int(controller.loadCount)
      json.key("phase")
      json.string(controller.phase.rawValue)
      json.key("modal")
      json.bool(controller.isModal)
      json.key("presenter")
      json.string(controller.presenter?.rawValue)
      json.key("presented")
      json.open("[")
      for id in modals(presentedBy: controller.id) {
        json.element()
        json.string(id.rawValue)
      }
      json.close("]")
      let links = links(of: controller.id) ?? Links()
      json.key("links")
      json.open("{")
      for direction in Direction.slotOrder {
        json.key(direction.rawValue)
        json.string(links[direction]?.rawValue)
      }
      json.close("}")
      json.key("minTouches")
      json.open("{")
      for direction in Direction.slotOrder {
        json.key(direction.rawValue)
        json.int(controller.minimumTouches[direction])
      }
      json.close("}")
      json.close("}")
    }
    json.close("]")
    json.key("counters")
    json.open("{")
    json.key("events")
    json.int(counters.events)
    json.key("anomalies")
    json.int(counters.anomalies)
    json.key("interruptedTransitions")
    json.int(counters.interruptedTransitions)
    json.key("unknownTypes")
    json.open("{")
    for (type, count) in counters.unknownTypes.sorted(by: { $0.key < $1.key }) {
      json.key(type)
      json.int(count)
    }
    json.close("}")
    json.close("}")
    if let map {
      json.key("map")
      map.appendJSON(to: &json)
    }
    json.close("}")
    json.flush(to: &out)
  }

  /// The state as ``writeJSON(to:map:)`` writes it.
  public func json(map: MapLayout? = nil) -> String {
    var out = ""
    writeJSON(to: &out, map: map)
    return out
  }
}

extension JSONBuffer {
  fileprivate mutating func arrivals(_ arrivals: [Arrival]) {
    open("[")
    for arrival in arrivals {
      element()
      open("{")
      key("controller")
      string(arrival.controller.rawValue)
      key("callback")
      string(arrival.callback.rawValue)
      close("}")
    }
    close("]")
  }
}
