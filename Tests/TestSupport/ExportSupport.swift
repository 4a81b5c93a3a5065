import Journal
import Projection
import Rendering
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A small journal whose rows, stats and findings are written out by hand in
/// the export and stats tests. What happens in it, line by line:
///
/// - 1 header: session S1, app Dicto, no build, device and profile.
/// - 2-3 alloc home and notes (notes with an unknown key `color`).
/// - 4-7 root home and its initial display: home's visit 1 starts at seq 6 (10:00:00.003).
/// - 8-9 link home left notes, notes didLoad.
/// - 10 touches home up 2; 11 a refused pan up (1 finger, min 2); 12 a blocked pan right.
/// - 13-18 a committed pan left and its move home → notes, animated: home's visit ends at
///   seq 14 (10:00:01.000, 997 ms); notes' visit 1 starts at seq 17 (10:00:01.250); the move
///   completes 250 ms after it starts.
/// - 19 a mark with keys x and y; 20 an unknown type `swipe` (an unknown-type warning).
/// - 21 notes willAppear again (will-repeated, the one finding of the callback; visible-count).
/// - 22 a `root` without its controller (malformed, column 61): no row but a finding.
/// - 23 a last mark at 10:00:02.000: notes' visit is still open there (750 ms).
enum AnalyticsFixture {
  static let text = """
    {"seq":0,"time":"2026-11-29T10:00:00.000000Z","type":"session","v":1,"session":"S1","app":"Dicto","device":"iPhone","profile":"intended"}
    {"seq":1,"time":"2026-11-29T10:00:00.001000Z","type":"alloc","controller":"home","class":"Home"}
    {"seq":2,"time":"2026-11-29T10:00:00.002000Z","type":"alloc","controller":"notes","class":"Notes","color":"blue"}
    {"seq":3,"time":"2026-11-29T10:00:00.003000Z","type":"root","controller":"home"}
    {"seq":4,"time":"2026-11-29T10:00:00.003000Z","type":"lifecycle","controller":"home","callback":"didLoad"}
    {"seq":5,"time":"2026-11-29T10:00:00.003000Z","type":"lifecycle","controller":"home","callback":"willAppear"}
    {"seq":6,"time":"2026-11-29T10:00:00.003000Z","type":"lifecycle","controller":"home","callback":"didAppear"}
    {"seq":7,"time":"2026-11-29T10:00:00.004000Z","type":"link","from":"home","direction":"left","to":"notes"}
    {"seq":8,"time":"2026-11-29T10:00:00.004000Z","type":"lifecycle","controller":"notes","callback":"didLoad"}
    {"seq":9,"time":"2026-11-29T10:00:00.005000Z","type":"touches","controller":"home","direction":"up","min":2}
    {"seq":10,"time":"2026-11-29T10:00:00.006000Z","type":"pan","controller":"home","direction":"up","touches":1,"distance":30,"velocity":0,"outcome":"refused"}
    {"seq":11,"time":"2026-11-29T10:00:00.007000Z","type":"pan","controller":"home","direction":"right","touches":1,"distance":80.5,"velocity":120.25,"outcome":"blocked"}
    {"seq":12,"time":"2026-11-29T10:00:01.000000Z","type":"pan","controller":"home","direction":"left","touches":1,"distance":120,"velocity":300,"outcome":"committed"}
    {"seq":13,"time":"2026-11-29T10:00:01.000000Z","type":"move","from":"home","to":"notes","direction":"left","trigger":"pan","animated":true}
    {"seq":14,"time":"2026-11-29T10:00:01.000000Z","type":"lifecycle","controller":"home","callback":"willDisappear"}
    {"seq":15,"time":"2026-11-29T10:00:01.000000Z","type":"lifecycle","controller":"notes","callback":"willAppear"}
    {"seq":16,"time":"2026-11-29T10:00:01.250000Z","type":"lifecycle","controller":"home","callback":"didDisappear"}
    {"seq":17,"time":"2026-11-29T10:00:01.250000Z","type":"lifecycle","controller":"notes","callback":"didAppear"}
    {"seq":18,"time":"2026-11-29T10:00:01.300000Z","type":"mark","label":"tap","x":1,"y":"a,b"}
    {"seq":19,"time":"2026-11-29T10:00:01.301000Z","type":"swipe","fingers":3}
    {"seq":20,"time":"2026-11-29T10:00:01.302000Z","type":"lifecycle","controller":"notes","callback":"willAppear"}
    {"seq":21,"time":"2026-11-29T10:00:01.303000Z","type":"root"}
    {"seq":22,"time":"2026-11-29T10:00:02.000000Z","type":"mark","label":"end"}

    """

  static var bytes: [UInt8] { Array(text.utf8) }

  /// `2026-11-29T10:00:SS.ffffffZ` as a timestamp cell.
  static func time(_ secondsAndFraction: String) -> Cell {
    // The fixture's times all fall in one minute.
    let t = try? Timestamp(rfc3339: "2026-11-29T10:00:\(secondsAndFraction)Z")
    return t.map(Cell.timestamp) ?? .null
  }

  /// The rows of one table built from the fixture by the library, with their contexts.
  static func rows(_ table: Table, file: String = "j.ndjson") -> (rows: [TableRow], context: RowContext) {
    let reader = JournalReader(bytes: bytes, name: file)
    var builder = TableBuilder(table: table, file: file)
    var rows: [TableRow] = []
    while let item = reader.next() { builder.consume(item, into: &rows) }
    builder.finish(into: &rows)
    return (rows, builder.context)
  }
}

/// A row of `events` written out by column name: every column not named is null.
func eventRow(_ line: Int, _ seq: Int, _ time: String, _ type: String, _ values: [String: Cell] = [:]) -> TableRow {
  var cells: [Cell] = []
  for column in Table.events.ownColumns {
    switch column.name {
    case "line": cells.append(.integer(line))
    case "seq": cells.append(.integer(seq))
    case "time": cells.append(AnalyticsFixture.time(time))
    case "type": cells.append(.string(type))
    default: cells.append(values[column.name] ?? .null)
    }
  }
  #expect(Set(values.keys).isSubset(of: Set(Table.events.ownColumns.map(\.name))), "unknown column in \(values.keys)")
  return TableRow(cells)
}

/// Rows compared one by one, so that a failure names the first row that differs.
func expectRows(_ actual: [TableRow], _ expected: [TableRow], sourceLocation: SourceLocation = #_sourceLocation) {
  #expect(actual.count == expected.count, "row count", sourceLocation: sourceLocation)
  for (i, (a, e)) in zip(actual, expected).enumerated() where a != e {
    let diff = zip(a.cells, e.cells).enumerated().filter { $0.element.0 != $0.element.1 }.map { k, pair in
      "\(k): got \(pair.0), expected \(pair.1)"
    }
    Issue.record("row \(i) differs: \(diff.joined(separator: "; "))", sourceLocation: sourceLocation)
  }
}
