import Projection
import Rendering

/// How the commands that draw the map (`at`, `map`) draw it: `--ascii` and `--width`, read once, turned into
/// the renderer's options (what the renderer draws is a ``MapDrawing``).
struct MapOptions {
  /// Its options, as those commands list them.
  static let options = [Option.ascii, Option.width]
  /// The narrowest `--width` accepted.
  static let minimumWidth = 10

  /// `--ascii`: plain ASCII instead of box drawing.
  var ascii: Bool
  /// `--width`; nil for the terminal's.
  var width: Int?

  init(_ arguments: ParsedArguments) throws(UsageError) {
    ascii = arguments.flag(Option.ascii)
    width = try arguments.int(Option.width, min: Self.minimumWidth)
  }

  var glyphs: Glyphs { Glyphs(ascii: ascii) }

  /// The renderer's options for `context`'s standard output: the width asked for, else the terminal's.
  func rendererOptions(_ context: Context) -> MapRenderer.Options {
    MapRenderer.Options(width: width ?? Self.defaultWidth(context), glyphs: glyphs, color: context.useColor)
  }

  /// The terminal's width when stdout is one (and says a width of at least ``minimumWidth``), else 80.
  static func defaultWidth(_ context: Context) -> Int {
    guard context.stdoutIsTerminal, let columns = RawTerminal.columns(), columns >= minimumWidth else { return 80 }
    return columns
  }
}
