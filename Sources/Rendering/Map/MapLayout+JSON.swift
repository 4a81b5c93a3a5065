import Journal
import Projection

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
    json.object { json in
      json.member("root", root?.rawValue)
      json.member("focus", focus?.rawValue)
      json.array("cells") { json in
        for placement in placements {
          json.objectElement { json in
            json.member("id", placement.id.rawValue)
            json.member("x", placement.position.x)
            json.member("y", placement.position.y)
            json.member("modal", placement.isModal)
          }
        }
      }
      json.array("collisions") { json in
        for collision in collisions {
          json.objectElement { json in
            switch collision {
            case .sharedCell(let position, let ids):
              json.member("kind", "cell")
              json.member("x", position.x)
              json.member("y", position.y)
              json.member("controllers", strings: ids.map(\.rawValue))
            case .stretchedLink(let from, let direction, let to, let a, let b):
              json.member("kind", "link")
              json.member("from", from.rawValue)
              json.member("direction", direction.rawValue)
              json.member("to", to.rawValue)
              for (key, value) in [("fromX", a.x), ("fromY", a.y), ("toX", b.x), ("toY", b.y)] {
                json.member(key, value)
              }
            }
          }
        }
      }
      json.member("detached", strings: detached.map(\.rawValue))
    }
  }
}
