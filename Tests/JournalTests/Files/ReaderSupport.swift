import Testing

@testable import Journal

/// Builds journal text for the reader and writer tests with the encoder, so
/// every line is exactly what a writer would emit.
enum Sample {
  /// `2026-01-01T00:00:00Z` plus `milliseconds`.
  static func time(_ milliseconds: Int64) -> Timestamp { Timestamp.modelEpoch.adding(milliseconds: milliseconds) }

  static func header(seq: Int = 0, time ms: Int64 = 0) -> String {
    Record(seq: seq, time: time(ms), event: .session(SessionHeader(session: "3F2A9C1E", app: "Dicto"))).ndjson
  }

  static func alloc(_ seq: Int, _ id: String = "home", time ms: Int64? = nil) -> String {
    Record(
      seq: seq, time: time(ms ?? Int64(seq)),
      event: .alloc(controller: ControllerID(id), className: "HomeViewController")
    ).ndjson
  }

  static func move(_ seq: Int, time ms: Int64? = nil) -> String {
    Record(
      seq: seq, time: time(ms ?? Int64(seq)),
      event: .move(Move(from: "home", to: "notes", direction: .left, trigger: .pan, animated: true))
    ).ndjson
  }

  static func mark(_ seq: Int, label: String, time ms: Int64? = nil) -> String {
    Record(seq: seq, time: time(ms ?? Int64(seq)), event: .mark(label: label, fields: [])).ndjson
  }

  /// A line of an unknown type with an extra key (built by hand: the encoder writes known types).
  static func unknown(_ seq: Int, type: String) -> String {
    #"{"seq":\#(seq),"time":"\#(time(Int64(seq)).rfc3339)","type":"\#(type)","x":[1,{"y":null}]}"#
  }

  /// A valid journal of `count` lines: the header, then allocs.
  static func journal(_ count: Int) -> [String] {
    (0..<count).map { $0 == 0 ? header() : alloc($0, "c\($0)") }
  }

  /// Lines joined with `\n`, each ended by it.
  static func text(_ lines: [String]) -> [UInt8] { Array(lines.map { $0 + "\n" }.joined().utf8) }
}

/// What a reader yielded, in a form tests compare whole.
enum Seen: Hashable, CustomStringConvertible {
  case record(seq: Int, line: Int, offset: Int64)
  case finding(Diagnostic)

  var description: String {
    switch self {
    case .record(let seq, let line, let offset): "record seq \(seq) line \(line) offset \(offset)"
    case .finding(let d): d.formatted(file: "j") + " offset \(d.offset.map(String.init) ?? "-")"
    }
  }
}

extension Diagnostic {
  /// `file:line[:column]: severity: message [rule]`, as `check` writes the line.
  func formatted(file: String) -> String {
    "\(file):\(line)" + (column.map { ":\($0)" } ?? "") + ": \(severity.rawValue): \(message) [\(rule)]"
  }
}

extension JournalReader {
  /// Everything the reader yields, until the end.
  func drain() -> [Seen] {
    var seen: [Seen] = []
    while let item = next() {
      switch item {
      case .record(let record, let line, let offset): seen.append(.record(seq: record.seq, line: line, offset: offset))
      case .diagnostic(let d): seen.append(.finding(d))
      }
    }
    return seen
  }
}

/// Reads bytes with the given options and chunk size.
func read(_ bytes: [UInt8], options: ReadOptions = .init(), chunkSize: Int = 1 << 20) -> [Seen] {
  JournalReader(bytes: bytes, name: "j", options: options, chunkSize: chunkSize).drain()
}

/// Byte offsets of the starts of `lines` when each is ended by `ending`.
func offsets(_ lines: [String], ending: String = "\n", start: Int = 0) -> [Int64] {
  var result: [Int64] = []
  var offset = Int64(start)
  for line in lines {
    result.append(offset)
    offset += Int64(line.utf8.count + ending.utf8.count)
  }
  return result
}
