import Journal
import Projection

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
  /// Strings are escaped as the journal writer escapes them. With a `listing`
  /// other than ``ControllerSelection/all``, `controllers` holds only its
  /// controllers (the other keys are the whole state's).
  public func writeJSON(
    to out: inout some TextOutputStream, map: MapLayout? = nil, listing: ControllerSelection = .all
  ) {
    var json = JSONBuffer()
    json.object { json in
      json.member("seq", lastSeq)
      json.member("time", lastTime?.rfc3339)
      json.member("events", counters.events)
      if let header {
        json.object("header") { json in
          json.member("v", header.version)
          json.member("session", header.session)
          for (key, value) in [
            ("app", header.app), ("build", header.build), ("device", header.device), ("profile", header.profile),
            ("scenario", header.scenario),
          ] {
            json.member(key, value)
          }
        }
      } else {
        json.key("header")
        json.null()
      }
      json.member("root", root?.rawValue)
      json.member("focus", focus?.rawValue)
      if let transition {
        json.object("transition") { json in
          json.member("kind", transition.kind.rawValue)
          json.member("seq", transition.seq)
          json.member("from", transition.from?.rawValue)
          json.member("to", transition.to.rawValue)
          json.member("direction", transition.direction?.rawValue)
          json.member("trigger", transition.trigger?.rawValue)
          json.member("animated", transition.animated)
          json.member("inFlight", !transition.isComplete)
          json.arrivals("arrived", transition.arrivals)
          json.arrivals("missing", transition.missing)
        }
      } else {
        json.key("transition")
        json.null()
      }
      json.array("controllers") { json in
        for controller in controllers where listing.selects(controller) { writeJSON(controller, to: &json) }
      }
      json.object("counters") { json in
        json.member("events", counters.events)
        json.member("anomalies", counters.anomalies)
        json.member("interruptedTransitions", counters.interruptedTransitions)
        json.object("unknownTypes") { json in
          for (type, count) in counters.unknownTypes.sorted(by: { $0.key < $1.key }) { json.member(type, count) }
        }
      }
      if let map {
        json.key("map")
        map.appendJSON(to: &json)
      }
    }
    json.flush(to: &out)
  }

  /// One element of `controllers`.
  private func writeJSON(_ controller: ControllerState, to json: inout JSONBuffer) {
    json.objectElement { json in
      json.member("id", controller.id.rawValue)
      json.member("class", controller.className)
      json.member("alive", controller.isAlive)
      json.member("allocatedAt", controller.allocatedAt)
      json.member("deallocatedAt", controller.deallocatedAt)
      json.member("loadCount", controller.loadCount)
      json.member("phase", controller.phase.rawValue)
      json.member("modal", controller.isModal)
      json.member("presenter", controller.presenter?.rawValue)
      json.member("presented", strings: modals(presentedBy: controller.id).map(\.rawValue))
      let links = links(of: controller.id) ?? Links()
      json.object("links") { json in
        for direction in Direction.slotOrder { json.member(direction.rawValue, links[direction]?.rawValue) }
      }
      json.object("minTouches") { json in
        for direction in Direction.slotOrder { json.member(direction.rawValue, controller.minimumTouches[direction]) }
      }
    }
  }

  /// The state as ``writeJSON(to:map:)`` writes it.
  public func json(map: MapLayout? = nil) -> String {
    var out = ""
    writeJSON(to: &out, map: map)
    return out
  }
}

extension JSONBuffer {
  fileprivate mutating func arrivals(_ key: String, _ arrivals: [Arrival]) {
    array(key) { json in
      for arrival in arrivals {
        json.objectElement { json in
          json.member("controller", arrival.controller.rawValue)
          json.member("callback", arrival.callback.rawValue)
        }
      }
    }
  }
}
