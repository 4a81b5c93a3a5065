import Journal
import Projection

/// Draws a ``MapLayout`` as text: a box per placed controller with its id,
/// lines between linked neighbours (double when either side needs two or more
/// fingers that way), the focus highlighted, modals marked, then a legend and
/// the lists of collisions and detached controllers.
///
/// ```swift
/// var text = ""
/// MapRenderer(options: .init(width: 80, glyphs: .ascii)).render(MapLayout(state: state), to: &text)
/// ```
///
/// Without colour the focus is a box drawn with a double frame (`#`/`=` in
/// ASCII) and its id stands in brackets, `[notes]`; with colour it is also bold
/// and inverse. A modal's id is followed by `*`. A cell holding several
/// controllers shows the first one placed and `+N` on its frame; a link whose
/// ends are not one step apart leaves a `?` stub. When the map is wider than
/// `width` (or taller than `height`), only the columns (rows) around the focus
/// (the root when the focus is not on the map) are drawn, and a line says which.
/// The output depends only on the layout and the options.
public struct MapRenderer: Sendable {
  public struct Options: Sendable, Hashable {
    /// Columns available (default 80). At least one box is always drawn.
    public var width: Int
    /// Lines available for the boxes, nil for no limit (the default).
    public var height: Int?
    /// Unicode box drawing and arrows, or plain ASCII.
    public var glyphs: Glyphs
    /// ANSI attributes (bold, inverse, colours); only for a terminal.
    public var color: Bool
    /// Columns for an id in a box; nil picks the longest placed id's width (at least 3).
    /// Narrowed, down to 12 columns, when the map's columns would not fit the width
    /// otherwise, and always to the width of one box: an id is cut only when it cannot
    /// fit, keeping its end (`…troller#12`), and two ids on the map never look alike.
    public var idWidth: Int?

    public init(
      width: Int = 80, height: Int? = nil, glyphs: Glyphs = .unicode, color: Bool = false, idWidth: Int? = nil
    ) {
      self.width = width
      self.height = height
      self.glyphs = glyphs
      self.color = color
      self.idWidth = idWidth
    }
  }

  public var options: Options

  public init(options: Options = Options()) {
    self.options = options
  }

  /// Columns between two boxes side by side (the horizontal link).
  static let horizontalGap = 2
  /// Lines of a box.
  static let boxHeight = 3

  /// Writes the map, legend and lists to `out`.
  ///
  /// - Complexity: O(n log n) in the placed controllers, plus the size of the drawn area.
  public func render(_ layout: MapLayout, to out: inout some TextOutputStream) {
    if let drawing = draw(layout) {
      for line in drawing.grid { out.write(line + "\n") }
      out.write("\n")
      for line in drawing.legend {
        out.write(TerminalStyle.dim.apply(line, color: options.color) + "\n")
      }
      if let cropped = drawing.croppedText {
        out.write(TerminalStyle.dim.apply(cropped, color: options.color) + "\n")
      }
    } else {
      out.write("(nothing to draw: no root)\n")
    }
    writeLists(layout, glyphs: options.glyphs.box, to: &out)
  }

  /// The map as parts: the grid of boxes and links, the legend, what was cropped.
  /// Nil when there is nothing to draw (no root).
  public func draw(_ layout: MapLayout) -> MapDrawing? {
    guard let bounds = layout.bounds else { return nil }
    return drawGrid(layout, bounds: bounds, glyphs: options.glyphs.box)
  }

  /// The geometry of one rendering.
  private struct Frame {
    var idWidth: Int
    var inner: Int { idWidth + 3 }
    var boxWidth: Int { inner + 2 }
    var pitch: Int { boxWidth + MapRenderer.horizontalGap }
    var center: Int { 1 + inner / 2 }
  }

  private func drawGrid(
    _ layout: MapLayout, bounds: (min: MapLayout.Position, max: MapLayout.Position), glyphs: BoxGlyphs
  ) -> MapDrawing {
    let natural = options.idWidth ?? automaticIDWidth(layout)
    // As wide as the longest id, unless the map's columns then no longer fit: then
    // narrower, but never below 12 columns (fewer columns of the map are drawn instead).
    let columns = bounds.max.x - bounds.min.x + 1
    let fitting = (options.width + Self.horizontalGap) / columns - Self.horizontalGap - 5
    var frame = Frame(idWidth: max(min(natural, fitting), min(natural, 12)))
    frame.idWidth = max(1, min(frame.idWidth, options.width - 5))
    let fitColumns = max(1, (options.width + Self.horizontalGap) / frame.pitch)
    let fitRows = options.height.map { max(1, ($0 + 1) / (Self.boxHeight + 1)) } ?? Int.max
    let anchor =
      layout.focusPlacement >= 0
      ? layout.placements[Int(layout.focusPlacement)].position : MapLayout.Position(x: 0, y: 0)
    let xs = window(bounds.min.x, bounds.max.x, fit: fitColumns, around: anchor.x)
    let ys = window(bounds.min.y, bounds.max.y, fit: fitRows, around: anchor.y)

    // The first controller placed on each visible cell is drawn, or the focus when it is
    // there (it is never hidden); the others are counted.
    var owner: [MapLayout.Position: Int] = [:]
    var occupants: [MapLayout.Position: Int] = [:]
    var rows: [Int: [Int]] = [:]
    for (p, placement) in layout.placements.enumerated()
    where xs.contains(placement.position.x) && ys.contains(placement.position.y) {
      occupants[placement.position, default: 0] += 1
      if let first = owner[placement.position] {
        guard p == Int(layout.focusPlacement) else { continue }
        owner[placement.position] = p
        rows[placement.position.y] = rows[placement.position.y]!.map { $0 == first ? p : $0 }
      } else {
        owner[placement.position] = p
        rows[placement.position.y, default: []].append(p)
      }
    }

    let labels = IDLabels.labels(
      owner.values.map { displayText(layout.placements[$0].id.rawValue, limit: .max) }, width: frame.idWidth,
      ellipsis: options.glyphs.ellipsis)
    let canvasWidth = xs.count * frame.pitch - Self.horizontalGap
    var grid: [String] = []
    var offView = false
    for y in ys {
      let last = y == ys.upperBound
      var canvas = Canvas(width: canvasWidth, height: Self.boxHeight + (last ? 0 : 1))
      for p in rows[y] ?? [] {
        let placement = layout.placements[p]
        let left = (placement.position.x - xs.lowerBound) * frame.pitch
        offView =
          drawBox(
            layout, p, at: left, frame: frame, window: (xs, ys), occupants: occupants[placement.position] ?? 1,
            glyphs: glyphs, label: labels[displayText(placement.id.rawValue, limit: .max)] ?? "", on: &canvas)
          || offView
      }
      if !last {
        // Stubs of stretched links going up from the next row share the gap line.
        for p in rows[y + 1] ?? [] where layout.links[p * 4 + Direction.up.index] >= 0 {
          let placement = layout.placements[p]
          let target = layout.placements[Int(layout.links[p * 4 + Direction.up.index])].position
          if target != placement.position.moved(.up), xs.contains(target.x), ys.contains(target.y) {
            let left = (placement.position.x - xs.lowerBound) * frame.pitch
            canvas.put(glyphs.stretched, x: left + frame.center, y: Self.boxHeight, style: .red)
          }
        }
      }
      grid += canvas.rendered(color: options.color)
    }

    var cropped: [String] = []
    if xs.count < bounds.max.x - bounds.min.x + 1 {
      cropped.append(
        "x \(xs.lowerBound)\(options.glyphs.range)\(xs.upperBound) of \(bounds.min.x)\(options.glyphs.range)\(bounds.max.x)"
      )
    }
    if ys.count < bounds.max.y - bounds.min.y + 1 {
      cropped.append(
        "y \(ys.lowerBound)\(options.glyphs.range)\(ys.upperBound) of \(bounds.min.y)\(options.glyphs.range)\(bounds.max.y)"
      )
    }
    return MapDrawing(
      grid: grid, legend: legendLines(glyphs, offView: offView), cropped: cropped,
      croppedAround: layout.focusPlacement >= 0 ? "the focus" : "the root")
  }

  /// `legend: [id] focus, * modal, ...` in lines of at most `width` columns (one entry per line at least).
  private func legendLines(_ glyphs: BoxGlyphs, offView: Bool) -> [String] {
    let entries = glyphs.legend + (offView ? [glyphs.offViewLegend] : [])
    var lines: [String] = []
    var line = "legend:"
    for (i, entry) in entries.enumerated() {
      let piece = " " + entry + (i < entries.count - 1 ? "," : "")
      if TextWidth.columns(of: line) + TextWidth.columns(of: piece) > options.width, line != "legend:" {
        lines.append(line)
        line = "       "
      }
      line += piece
    }
    lines.append(line)
    return lines
  }

  /// `fit` consecutive values of `low...high` around `center`, all of them if they fit.
  private func window(_ low: Int, _ high: Int, fit: Int, around center: Int) -> ClosedRange<Int> {
    guard high - low + 1 > fit else { return low...high }
    let start = min(max(center - (fit - 1) / 2, low), high - fit + 1)
    return start...(start + fit - 1)
  }

  private func automaticIDWidth(_ layout: MapLayout) -> Int {
    var widest = 3
    for placement in layout.placements where widest < options.width {
      widest = max(widest, TextWidth.columns(of: displayText(placement.id.rawValue, limit: options.width)))
    }
    return widest
  }

  /// Draws one box and the links leaving it; true when a link leads out of the window
  /// (drawn as an arrow on the frame, ``BoxGlyphs/offView``).
  @discardableResult
  private func drawBox(
    _ layout: MapLayout, _ p: Int, at left: Int, frame: Frame,
    window: (xs: ClosedRange<Int>, ys: ClosedRange<Int>), occupants: Int, glyphs: BoxGlyphs, label id: String,
    on canvas: inout Canvas
  ) -> Bool {
    var offView = false
    let placement = layout.placements[p]
    let isFocus = p == Int(layout.focusPlacement)
    let box = isFocus ? glyphs.focusFrame : glyphs.frame
    let frameStyle: TerminalStyle = isFocus ? .bold : .plain
    let right = left + frame.boxWidth - 1

    // Frame.
    canvas.put(box.topLeft, x: left, y: 0, style: frameStyle)
    canvas.put(box.topRight, x: right, y: 0, style: frameStyle)
    canvas.put(box.bottomLeft, x: left, y: 2, style: frameStyle)
    canvas.put(box.bottomRight, x: right, y: 2, style: frameStyle)
    for x in (left + 1)..<right {
      canvas.put(box.horizontal, x: x, y: 0, style: frameStyle)
      canvas.put(box.horizontal, x: x, y: 2, style: frameStyle)
    }
    canvas.put(box.vertical, x: left, y: 1, style: frameStyle)
    canvas.put(box.vertical, x: right, y: 1, style: frameStyle)

    // Content: [id] for the focus, a trailing * for a modal.
    var x = canvas.put(isFocus ? "[" : " ", x: left + 1, y: 1)
    x = canvas.put(id, x: x, y: 1)
    x = canvas.put(isFocus ? "]" : " ", x: x, y: 1)
    if placement.isModal { canvas.put("*", x: x, y: 1, style: .magenta) }
    if isFocus { canvas.style((left + 1)..<(x), y: 1, .inverse) }
    if occupants > 1 { canvas.put("+\(occupants - 1)", x: left + 1, y: 0, style: .red) }

    // Links: a junction on the frame, the line in the gap on that side.
    for direction in Direction.slotOrder {
      let q = layout.links[p * 4 + direction.index]
      guard q >= 0 else { continue }
      let double = layout.doubleLinks[p] & (1 << UInt8(direction.index)) != 0
      let target = layout.placements[Int(q)].position
      guard window.xs.contains(target.x), window.ys.contains(target.y) else {
        // The box it leads to is cropped: an arrow on the frame, no line into the gap.
        let x = direction == .left ? left : direction == .right ? right : left + frame.center
        canvas.put(glyphs.offView[direction.index], x: x, y: direction == .up ? 0 : direction == .down ? 2 : 1)
        offView = true
        continue
      }
      let oneStep = target == placement.position.moved(direction)
      let junction = glyphs.junction(direction, focus: isFocus, double: double)
      let line: Character
      switch direction {
      case .left, .right: line = oneStep ? (double ? glyphs.doubleLink : glyphs.link) : glyphs.stretched
      case .up, .down: line = oneStep ? (double ? glyphs.doubleVerticalLink : glyphs.verticalLink) : glyphs.stretched
      }
      let lineStyle: TerminalStyle = oneStep ? .plain : .red
      switch direction {
      case .left:
        canvas.put(junction, x: left, y: 1, style: frameStyle)
        canvas.put(line, x: left - 1, y: 1, style: lineStyle)
        if oneStep { canvas.put(line, x: left - 2, y: 1, style: lineStyle) }
      case .right:
        canvas.put(junction, x: right, y: 1, style: frameStyle)
        canvas.put(line, x: right + 1, y: 1, style: lineStyle)
        if oneStep { canvas.put(line, x: right + 2, y: 1, style: lineStyle) }
      case .up:
        canvas.put(junction, x: left + frame.center, y: 0, style: frameStyle)
      case .down:
        canvas.put(junction, x: left + frame.center, y: 2, style: frameStyle)
        canvas.put(line, x: left + frame.center, y: 3, style: lineStyle)
      }
    }
    return offView
  }

  private func writeLists(_ layout: MapLayout, glyphs: BoxGlyphs, to out: inout some TextOutputStream) {
    if layout.collisions.isEmpty {
      out.write("collisions: none\n")
    } else {
      out.write("collisions (\(layout.collisions.count)):\n")
      for collision in layout.collisions {
        out.write("  " + TerminalStyle.red.apply(collision.description(options.glyphs), color: options.color) + "\n")
      }
    }
    if layout.detached.isEmpty {
      out.write("detached: none\n")
    } else {
      let names = layout.detached.map { $0 == layout.focus ? "[\(options.glyphs.id($0))]" : options.glyphs.id($0) }
      for line in Self.wrapped(names, first: "detached (\(layout.detached.count)): ", width: options.width) {
        out.write(line + "\n")
      }
    }
  }

  /// The most lines a list (detached controllers) takes before the rest is counted.
  static let listLines = 4

  /// `names` after `first`, comma-separated, wrapped at `width` columns (continuation lines
  /// indented by two), at most ``listLines`` lines: what does not fit is counted, `and 2990 more`.
  static func wrapped(_ names: [String], first: String, width: Int) -> [String] {
    var lines = [first]
    var placed = 0
    for (i, name) in names.enumerated() {
      let piece = name + (i == names.count - 1 ? "" : ",")
      let current = lines[lines.count - 1]
      let empty = current == first || current == "  "
      // The last line keeps room for ` and 99999 more`.
      let room = width - (lines.count == listLines && i < names.count - 1 ? 16 : 0)
      if empty || TextWidth.columns(of: current) + 1 + TextWidth.columns(of: piece) <= room {
        lines[lines.count - 1] += (empty ? "" : " ") + piece
        placed += 1
      } else if lines.count < listLines {
        lines.append("  " + piece)
        placed += 1
      } else {
        break
      }
    }
    if placed < names.count { lines[lines.count - 1] += " and \(names.count - placed) more" }
    return lines
  }
}
