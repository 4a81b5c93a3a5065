import Journal

extension Callback {
  /// The short name of docs/model.md: `L`, `W+`, `D+`, `W-`, `D-` (`step`'s transitions, the
  /// lifecycles of SpatialTesting and the tests `testgen` writes).
  public var short: String {
    switch self {
    case .didLoad: "L"
    case .willAppear: "W+"
    case .didAppear: "D+"
    case .willDisappear: "W-"
    case .didDisappear: "D-"
    }
  }
}
