import Journal
import Projection
import Rendering

/// The fleet page (`report DIR`): one self-contained HTML page over many
/// journals, drawn entirely on the server side (inline SVG, no script):
/// findings per rule per build (a chart and its table), the top paths of two
/// screens as a flow from screen to screen, the latency percentiles per screen
/// per build, and links from each build to its sessions' own reports.
///
/// Builds are in version order (``VersionOrder``). Every number the charts
/// draw is also an attribute of its element (`docs/report.md`, "The fleet
/// page"), so that tests read it back.
public struct FleetPage: Sendable {
  /// One build's journals.
  public struct Build: Sendable {
    /// The header's build; nil for journals without one.
    public var name: String?
    public var journals = 0
    public var findingsByRule: [String: Int] = [:]
    /// Sessions with a report beside their journal: (session, link).
    public var reports: [(session: String, href: String)] = []

    public init(name: String?) { self.name = name }
  }

  /// A screen's percentiles in one build (milliseconds).
  public struct Latency: Sendable {
    public var build: String?
    public var screen: String
    public var appearance: Distribution
    public var firstArrival: Distribution
    public var dwell: Distribution

    public init(
      build: String?, screen: String, appearance: Distribution, firstArrival: Distribution, dwell: Distribution
    ) {
      self.build = build
      self.screen = screen
      self.appearance = appearance
      self.firstArrival = firstArrival
      self.dwell = dwell
    }
  }

  public var builds: [Build]
  /// Rules in the order `check` lists them.
  public var rules: [String]
  /// The top paths of two screens, by class.
  public var paths: [PathTotals.Entry]
  public var latency: [Latency]
  /// Screens left out of the latency table (it shows the most visited ones).
  public var latencyScreensLeftOut: Int

  public init(
    builds: [Build], rules: [String], paths: [PathTotals.Entry], latency: [Latency], latencyScreensLeftOut: Int
  ) {
    self.builds = builds.sorted { VersionOrder.precedes($0.name, $1.name) }
    self.rules = rules
    self.paths = paths
    self.latency = latency
    self.latencyScreensLeftOut = latencyScreensLeftOut
  }

  static let style = """
    body{font:13px/1.4 system-ui,sans-serif;margin:16px;color:#222;background:#fff}
    h1{font-size:18px;margin:0 0 8px}h2{font-size:15px;margin:20px 0 6px}
    table{border-collapse:collapse;margin:4px 0}td,th{border:1px solid #ddd;padding:2px 6px;text-align:right}
    th{background:#f4f4f4}td.name,th.name{text-align:left}svg{display:block;margin:4px 0;max-width:100%}
    .note{color:#666}.flow path{fill:none;stroke-opacity:.45}.flow text{font-size:11px}
    .bar text,.axis{font-size:11px}a{color:#15c}
    """

  static let palette = [
    "#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac",
  ]

  static var contentSecurityPolicy: String {
    "default-src 'none'; style-src 'sha256-\(SHA256.base64(Array(style.utf8)))'; img-src 'none'; "
      + "base-uri 'none'; form-action 'none'"
  }

  /// The page as UTF-8 bytes.
  public func bytes() -> [UInt8] {
    var h = ""
    h += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
    h += "<meta http-equiv=\"Content-Security-Policy\" content=\"\(Self.contentSecurityPolicy)\">\n"
    h += "<meta name=\"referrer\" content=\"no-referrer\">\n<title>spatial-replay fleet</title>\n"
    h += "<style>\(Self.style)</style>\n</head>\n<body data-ready=\"true\" data-fleet>\n"
    let journals = builds.reduce(0) { $0 + $1.journals }
    h += "<h1>Fleet: \(journals.grouped) journals, \(builds.count.grouped) builds</h1>\n"
    writeFindings(&h)
    writeFlow(&h)
    writeLatency(&h)
    writeBuilds(&h)
    h += "</body>\n</html>\n"
    return Array(h.utf8)
  }

  static func buildLabel(_ name: String?) -> String { name ?? "(no build)" }

  // MARK: Findings per rule per build

  private func writeFindings(_ h: inout String) {
    guard Self.section(&h, "Findings per rule per build", isEmpty: rules.isEmpty, "No findings in any build.") else {
      return
    }
    let totals = builds.map { b in rules.reduce(0) { $0 + (b.findingsByRule[$1] ?? 0) } }
    let top = max(1, totals.max() ?? 1)
    let barWidth = 28
    let gap = 14
    let height = 160
    let width = 60 + builds.count * (barWidth + gap)
    h += "<svg class=\"bar\" data-chart=\"findings\" width=\"\(width)\" height=\"\(height + 40)\" role=\"img\">\n"
    for (i, build) in builds.enumerated() {
      let x = 50 + i * (barWidth + gap)
      var y = Double(height)
      for (r, rule) in rules.enumerated() {
        let count = build.findingsByRule[rule] ?? 0
        guard count > 0 else { continue }
        let bar = max(1, Double(height - 10) * Double(count) / Double(top))
        y -= bar
        h +=
          "<rect data-build=\"\(Self.attribute(Self.buildLabel(build.name)))\" data-rule=\"\(Self.attribute(rule))\" "
          + "data-count=\"\(count)\" x=\"\(x)\" y=\"\(Self.number(y))\" width=\"\(barWidth)\" "
          + "height=\"\(Self.number(bar))\" fill=\"\(Self.palette[r % Self.palette.count])\">"
          + "<title>\(Self.text(Self.buildLabel(build.name))): \(Self.text(rule)) \(count)</title></rect>\n"
      }
      h +=
        "<text class=\"axis\" x=\"\(x + barWidth / 2)\" y=\"\(height + 14)\" text-anchor=\"middle\">"
        + "<title>\(Self.text(Self.buildLabel(build.name)))</title>"
        + "\(Self.text(Self.short(Self.buildLabel(build.name), 10)))</text>\n"
    }
    h += "<text class=\"axis\" x=\"4\" y=\"12\">\(top.grouped)</text></svg>\n"
    h += "<table data-table=\"findings\"><thead><tr><th class=\"name\">build</th><th>journals</th>"
    for (r, rule) in rules.enumerated() {
      h +=
        "<th><svg width=\"10\" height=\"10\">"
        + "<rect width=\"10\" height=\"10\" fill=\"\(Self.palette[r % Self.palette.count])\"/></svg>"
        + "\(Self.text(rule))</th>"
    }
    h += "</tr></thead><tbody>\n"
    for build in builds {
      let label = Self.attribute(Self.buildLabel(build.name))
      h += "<tr><td class=\"name\">\(Self.text(Self.buildLabel(build.name)))</td><td>\(build.journals)</td>"
      for rule in rules {
        let count = build.findingsByRule[rule] ?? 0
        h +=
          "<td data-rule-count data-build=\"\(label)\" data-rule=\"\(Self.attribute(rule))\" data-count=\"\(count)\">"
        h += "\(count.grouped)</td>"
      }
      h += "</tr>\n"
    }
    h += "</tbody></table>\n"
  }

  /// A section's heading, and the note that stands for its content when it has none.
  /// - Returns: whether the section has content to write.
  private static func section(_ h: inout String, _ title: String, isEmpty: Bool, _ note: String) -> Bool {
    h += "<h2>\(title)</h2>\n"
    if isEmpty { h += "<p class=\"note\">\(note)</p>\n" }
    return !isEmpty
  }

  // MARK: The flow of the top paths

  private func writeFlow(_ h: inout String) {
    guard Self.section(&h, "Top paths: screen to screen", isEmpty: paths.isEmpty, "No path of two screens.") else {
      return
    }
    // Left: the screens left, right: the screens arrived at, each a bar as tall as its flows.
    func totals(_ side: Int) -> [(String, Int)] {
      var sum: [String: Int] = [:]
      var order: [String] = []
      for p in paths {
        if sum[p.path[side]] == nil { order.append(p.path[side]) }
        sum[p.path[side], default: 0] += p.count
      }
      return order.map { ($0, sum[$0]!) }
    }
    let left = totals(0)
    let right = totals(1)
    let total = paths.reduce(0) { $0 + $1.count }
    let gap = 6.0
    let height = 420.0
    let scale = (height - gap * Double(max(left.count, right.count))) / Double(max(1, total))
    func positions(_ side: [(String, Int)]) -> [String: (y: Double, used: Double)] {
      var y = 4.0
      var out: [String: (Double, Double)] = [:]
      for (name, count) in side {
        out[name] = (y, 0)
        y += Double(count) * scale + gap
      }
      return out
    }
    var from = positions(left)
    var to = positions(right)
    let width = 900.0
    let x0 = 240.0
    let x1 = width - 240
    h +=
      "<svg class=\"flow\" data-chart=\"paths\" width=\"\(Int(width))\" height=\"\(Int(height + 10))\" role=\"img\">\n"
    for (i, p) in paths.enumerated() {
      let thickness = max(1, Double(p.count) * scale)
      let a = from[p.path[0]]!
      let b = to[p.path[1]]!
      let y0 = a.y + a.used + thickness / 2
      let y1 = b.y + b.used + thickness / 2
      from[p.path[0]]!.used += thickness
      to[p.path[1]]!.used += thickness
      let mid = (x0 + x1) / 2
      h +=
        "<path data-flow data-from=\"\(Self.attribute(p.path[0]))\" data-to=\"\(Self.attribute(p.path[1]))\" "
        + "data-count=\"\(p.count)\" data-sessions=\"\(p.sessions)\" d=\"M\(Self.number(x0)) \(Self.number(y0)) "
        + "C\(Self.number(mid)) \(Self.number(y0)) \(Self.number(mid)) \(Self.number(y1)) \(Self.number(x1)) "
        + "\(Self.number(y1))\" stroke=\"\(Self.palette[i % Self.palette.count])\" "
        + "stroke-width=\"\(Self.number(thickness))\"><title>\(Self.text(p.path[0])) → \(Self.text(p.path[1])): "
        + "\(p.count.grouped) times in \(p.sessions.grouped) sessions</title></path>\n"
    }
    for (side, nodes, x, anchor) in [(0, left, x0 - 4, "end"), (1, right, x1 + 4, "start")] {
      let placed = side == 0 ? from : to
      for (name, count) in nodes {
        let y = placed[name]!.y
        h +=
          "<rect data-node=\"\(side == 0 ? "from" : "to")\" data-screen=\"\(Self.attribute(name))\" "
          + "data-count=\"\(count)\" x=\"\(Self.number(side == 0 ? x0 - 3 : x1))\" y=\"\(Self.number(y))\" "
          + "width=\"3\" height=\"\(Self.number(max(1, Double(count) * scale)))\" fill=\"#555\"/>"
          + "<text x=\"\(Self.number(x - 2))\" y=\"\(Self.number(y + max(1, Double(count) * scale) / 2 + 4))\" "
          + "text-anchor=\"\(anchor)\"><title>\(Self.text(name))</title>\(Self.text(Self.short(name, 34))) "
          + "\(count.grouped)</text>\n"
      }
    }
    h += "</svg>\n"
  }

  // MARK: Latency per screen per build

  private func writeLatency(_ h: inout String) {
    guard
      Self.section(
        &h, "Latency per screen per build (ms; nearest-rank percentiles)", isEmpty: latency.isEmpty,
        "No screen was displayed.")
    else { return }
    if latencyScreensLeftOut > 0 {
      h += "<p class=\"note\">The most visited screens; \(latencyScreensLeftOut.grouped) more are left out "
      h += "(spatial-replay latency --group build lists every one).</p>\n"
    }
    h += "<table data-table=\"latency\"><thead><tr><th class=\"name\">screen</th><th class=\"name\">build</th>"
    for measure in ["appearance", "first arrival", "dwell"] {
      h += "<th>\(measure) n</th><th>p50</th><th>p90</th><th>p99</th>"
    }
    h += "</tr></thead><tbody>\n"
    for row in latency {
      h += "<tr><td class=\"name\">\(Self.text(row.screen))</td>"
      h += "<td class=\"name\">\(Self.text(Self.buildLabel(row.build)))</td>"
      for (measure, values) in [
        ("appearance", row.appearance), ("firstArrival", row.firstArrival), ("dwell", row.dwell),
      ] {
        let s = values.summary
        h +=
          "<td data-latency data-screen=\"\(Self.attribute(row.screen))\" "
          + "data-build=\"\(Self.attribute(Self.buildLabel(row.build)))\" data-measure=\"\(measure)\" "
          + "data-count=\"\(s.count)\" data-p50=\"\(Distribution.milliseconds(s.p50))\" data-p90=\"\(Distribution.milliseconds(s.p90))\" "
          + "data-p99=\"\(Distribution.milliseconds(s.p99))\">\(s.count.grouped)</td>"
        h +=
          "<td>\(Distribution.milliseconds(s.p50))</td><td>\(Distribution.milliseconds(s.p90))</td><td>\(Distribution.milliseconds(s.p99))</td>"
      }
      h += "</tr>\n"
    }
    h += "</tbody></table>\n"
  }

  // MARK: Builds and their sessions' reports

  private func writeBuilds(_ h: inout String) {
    h += "<h2>Builds and their sessions</h2>\n<ul>\n"
    for build in builds {
      h += "<li data-build-item=\"\(Self.attribute(Self.buildLabel(build.name)))\">"
      h += "<b>\(Self.text(Self.buildLabel(build.name)))</b>: \(build.journals.grouped) journals"
      if build.reports.isEmpty {
        h += " <span class=\"note\">(no session report beside them)</span>"
      } else {
        h += "; reports: "
        h += build.reports.map {
          "<a data-session-report href=\"\(Self.attribute($0.href))\">\(Self.text($0.session))</a>"
        }.joined(separator: ", ")
      }
      h += "</li>\n"
    }
    h += "</ul>\n"
  }

  // MARK: Escaping and numbers

  /// Text content: `&`, `<`, `>`, quotes escaped, control characters shown as `\u{..}` (``MarkupText``).
  static func text(_ s: String) -> String { MarkupText.escape(s, .html) }

  /// An attribute value (double-quoted): the same escapes as text.
  static func attribute(_ s: String) -> String { text(s) }

  /// A name in at most `limit` columns, shortened in the middle as every label is
  /// (``TextWidth/middle(_:to:ellipsis:head:)``: `Checkout…Controller#115`).
  static func short(_ s: String, _ limit: Int) -> String {
    TextWidth.middle(s, to: limit, ellipsis: "…")
  }

  static func number(_ x: Double) -> String {
    let tenths = Int((x * 10).rounded())
    return tenths % 10 == 0 ? "\(tenths / 10)" : "\(tenths / 10).\(abs(tenths % 10))"
  }
}
