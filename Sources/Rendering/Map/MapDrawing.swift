import Projection

/// A map as ``MapRenderer/draw(_:)`` returns it: the parts `map` prints one
/// after the other, for a caller (the stepper) that shows only some of them.
public struct MapDrawing: Sendable, Hashable {
  /// The boxes and links, a string per line (with ANSI attributes when the
  /// renderer's options ask for colour).
  public var grid: [String]
  /// `legend: [id] focus, * modal, ...`, in lines that fit the width.
  public var legend: [String]
  /// The windows shown when the grid did not fit, `x -1…2 of -3…4`; empty when it all fits.
  public var cropped: [String]
  /// What a cropped grid is centred on: `the focus` or `the root`.
  public var croppedAround: String

  /// `cropped around the focus: x -1…2 of -3…4`, nil when nothing was cropped.
  public var croppedText: String? {
    cropped.isEmpty ? nil : "cropped around \(croppedAround): " + cropped.joined(separator: ", ")
  }
}
