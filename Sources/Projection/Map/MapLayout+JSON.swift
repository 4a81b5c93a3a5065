import Journal

extension MapLayout {
  /// The layout as one JSON object (no line end): `root`, `focus`, `cells`
  /// (every placement in walk order: `id`, `x`, `y`, `modal`), `collisions`
  /// (`{"kind":"cell","x":..,"y":..,"controllers":[..]}` or
  /// `{"kind":"link","from":..,"direction":..,"to":..,"fromX":..,"fromY":..,"toX":..,"toY":..}`)
  /// and `detached`.
  ///
  /// ```swift
  /// var json = ""
  /// MapLayout(state: state).writeJSON(to: &json)
  /// // {"root":"home","focus":"notes","cells":[{"id":"home","x":0,"y":0,"modal":false},...],...}
  /// ```
  public func writeJSON(to out: inout some TextOutputStream) {
    var json = JSONBuffer()
    appendJSON(to: &json)
    json.flush(to: &out)
  }

  func appendJSON(to json: inout JSONBuffer) {
    json.open("{")
    json.key("root")
    json.string(root?.rawValue)
    json.key("focus")
    json.string(focus?.rawValue)
    json.key("cells")
    json.open("[")
    for placement in placements {
      json.element()
      json.open("{")
      json.key("id")
      json.string(placement.id.rawValue)
      json.key("x")
      json.int(placement.position.x)
      json.key("y")
      json.int(placement.position.y)
      json.key("modal")
      json.bool(placement.isModal)
      json.close("}")
    }
    json.close("]")
    json.key("collisions")
    json.open("[")
    for collision in collisions {
      json.element()
      json.open("{")
      switch collision {
      case .sharedCell(let position, let ids):
        json.key("kind")
        json.string("cell")
        json.key("x")
        json.int(position.x)
        json.key("y")
        json.int(position.y)
        json.key("controllers")
        json.open("[")
        for id in ids {
          json.element()
          json.string(id.rawValue)
        }
        json.close("]")
      case .stretchedLink(let from, let direction, let to, let a, let b):
        json.key("kind")
        json.string("link")
        json.key("from")
        json.string(from.rawValue)
        json.key("direction")
        json.string(direction.rawValue)
        json.key("to")
        json.string(to.rawValue)
        for (key, value) in [("fromX", a.x), ("fromY", a.y), ("toX", b.x), ("toY", b.y)] {
          json.key(key)
          json.int(value)
        }
      }
      json.close("}")
    }
    json.close("]")
    json.key("detached")
    json.open("[")
    for id in detached {
      json.element()
      json.string(id.rawValue)
    }
    json.close("]")
    json.close("}")
  }
}
