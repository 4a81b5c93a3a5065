import Journal
import Projection

/// The HTML report: one self-contained HTML5 page (inline style and script,
/// no network access of any kind, a Content-Security-Policy that allows
/// nothing but the page's own script and style by their SHA-256) that shows
/// one run, or two runs of one scenario side by side.
///
/// The page holds a data block (`<script type="application/json">`, every
/// string escaped so that nothing in a journal can end it) written by
/// ``ReportRun`` and ``ReportComparison``; its script only applies that data.
/// With a ``ReportTrace``, a second block holds the Chrome trace of the same
/// journals (gzip, in base64), which the page's "download trace" link writes
/// out as it is. The markup tests rely on is described in `docs/report.md`.
///
/// ```swift
/// let (run, _, _) = try ReportRun.read(path: "Journals/notes.legacy.ndjson")
/// var html = ""
/// ReportPage(run: run).write(to: &html)
/// ```
public struct ReportPage: Sendable {
  private let runs: [ReportRun]
  private let comparison: ReportComparison?
  private let trace: ReportTrace.Embedded?

  /// The page of one run; with `trace` (finished), its "download trace" link.
  public init(run: ReportRun, trace: ReportTrace? = nil) {
    runs = [run]
    comparison = nil
    self.trace = trace?.embedded
  }

  /// The page of two runs of one scenario, lined up by their diff; with `trace` (finished), its
  /// "download trace" link.
  public init(a: ReportRun, b: ReportRun, comparison: ReportComparison, trace: ReportTrace? = nil) {
    runs = [a, b]
    self.comparison = comparison
    self.trace = trace?.embedded
  }

  /// Writes the page.
  public func write(to out: inout some TextOutputStream) {
    out.write(String(decoding: bytes(), as: UTF8.self))
  }

  /// The page as UTF-8 bytes.
  public func bytes() -> [UInt8] {
    var page: [UInt8] = []
    page.reserveCapacity(
      runs.reduce(64 * 1024 + (trace?.gzip.count ?? 0) * 4 / 3) { $0 + $1.json.reduce(0) { $0 + $1.count } })
    write { page.append(contentsOf: $0) }
    return page
  }

  /// Hands the page to `body` in pieces, in order (the bytes of ``bytes()``), so
  /// that a caller writing it to a file copies none of its data into one more buffer.
  ///
  /// ```swift
  /// var out: [UInt8] = []
  /// ReportPage(run: run).write { out.append(contentsOf: $0) }
  /// ```
  public func write<E: Error>(_ body: ([UInt8]) throws(E) -> Void) throws(E) {
    var page: [UInt8] = []
    page.append(contentsOf: Self.head.utf8)
    page.append(contentsOf: #"<script type="application/json" id="report-data">{"runs":["#.utf8)
    for (k, run) in runs.enumerated() {
      if k > 0 { page.append(UInt8(ascii: ",")) }
      try body(page)
      page = []
      for piece in run.json { try body(piece) }
    }
    page.append(contentsOf: #"],"cmp":"#.utf8)
    if let comparison {
      page.append(contentsOf: comparison.json)
    } else {
      page.append(contentsOf: "null".utf8)
    }
    page.append(contentsOf: "}</script>\n".utf8)
    if let trace {
      // The file's name is letters, digits, '.', '-' and '_' (ReportTrace.fileName), base64 needs no escaping.
      page.append(contentsOf: #"<script type="application/json" id="trace-data" data-encoding="gzip+base64" "#.utf8)
      page.append(contentsOf: #"data-file="\#(trace.file)" data-bytes="\#(trace.byteCount)">""#.utf8)
      Base64.encode(trace.gzip, to: &page)
      page.append(contentsOf: "\"</script>\n".utf8)
    }
    page.append(contentsOf: "<script>".utf8)
    page.append(contentsOf: ReportAssets.script.utf8)
    page.append(contentsOf: "</script>\n</body>\n</html>\n".utf8)
    try body(page)
  }

  /// The Content-Security-Policy: nothing but this page's own script and style.
  static let contentSecurityPolicy =
    "default-src 'none'; script-src 'sha256-\(SHA256.base64(Array(ReportAssets.script.utf8)))'; "
    + "style-src 'sha256-\(SHA256.base64(Array(ReportAssets.style.utf8)))'; img-src 'none'; "
    + "base-uri 'none'; form-action 'none'"

  private static let head = """
    <!DOCTYPE html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta http-equiv="Content-Security-Policy" content="\(contentSecurityPolicy)">
    <meta name="referrer" content="no-referrer">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>spatial-replay report</title>
    <style>\(ReportAssets.style)</style>
    </head>
    <body>
    <header id="header"></header>
    <div id="diff" class="panel"></div>
    <nav id="bar" class="panel">
    <input id="scrubber" type="range" min="0" max="0" value="0" aria-label="event">
    <span id="position"></span>
    <input id="search" type="search" placeholder="/ search" aria-label="search the log">
    <input id="filter" type="search" placeholder="filter: id or class" aria-label="filter lanes, state and log by controller or class">
    <span class="keys">← → event · ⇧← ⇧→ move · Home End · [ ] finding · / search</span>
    </nav>
    <main id="panels"></main>
    <section class="panel" id="lanes-panel">
    <div class="ptitle">lifecycle lanes
    <span class="legend"><i class="appearing"></i>appearing <i class="appeared"></i>appeared \
    <i class="disappearing"></i>disappearing <i class="tick"></i>callback <i class="move"></i>move \
    <i class="finding"></i>finding</span>
    <label><input id="gone" type="checkbox"> deallocated</label>
    <label><input id="axis" type="checkbox"> time axis</label>
    <button id="zoom-out" class="small">−</button><button id="zoom-fit" class="small">fit</button>\
    <button id="zoom-in" class="small">+</button>
    </div>
    <div id="lanes-wrap"><div id="lanes-spacer"><canvas id="lanes"></canvas><div id="lane-labels"></div></div></div>
    </section>
    <section class="panel" id="findings">
    <div class="ptitle">findings <span id="findings-count"></span>
    <select id="rule-filter" aria-label="rule"><option value="">every rule</option></select></div>
    <table><thead><tr><th>line</th><th>seq</th><th>rule</th><th>message</th><th>move</th></tr></thead>
    <tbody id="findings-body"></tbody></table>
    </section>
    <div id="tip" hidden></div>

    """
}
