import Journal
import Projection

extension DiffReport {
  /// The report as one JSON document (one line, no spaces). Its shape:
  ///
  /// ```
  /// {"identical":false,
  ///  "a":{"file":"build-07.ndjson","events":412,"records":498},
  ///  "b":{"file":"build-08.ndjson","events":410,"records":494},
  ///  "compared":["lifecycle","move","modal","dealloc","link","unlink"],"match":"id","matchRequested":"auto",
  ///  "idCensus":{"a":{"allocated":4,"counters":0,"addresses":0},"b":{...}},
  ///  "firstDivergence":{"a":POSITION,"b":POSITION,"moveA":EVENT|null,"moveB":EVENT|null,
  ///                     "context":[{"a":{"seq":85,"line":86},"b":{"seq":85,"line":86},"event":EVENT}]},
  ///  "hunks":[{"kind":"duplicated","side":"b","a":SIDE,"b":SIDE}],
  ///  "summary":{"hunks":2,"missing":1,"extra":0,"duplicated":1,"reordered":0,"misattributed":0,"changed":0},
  ///  "budgetExhausted":false}
  /// ```
  ///
  /// `POSITION` is `{"index":I,"seq":S,"line":L}` (`index` in the compared
  /// events; `seq` and `line` absent at the end of a run). `SIDE` is
  /// `{"from":I,"to":J,"count":N,"events":[EVENT...],"omitted":K}` with,
  /// when N is 0, `"afterSeq":S` (null at the start). `EVENT` is
  /// `{"seq":S,"line":L,"type":T,...}` with the event's keys in journal
  /// order, controllers by their diff names. `firstDivergence` is null when
  /// the runs are identical. `side` is present on `duplicated` hunks only.
  /// `match` is the matching used (`id` or `class`), `matchRequested` the one
  /// asked for (`id`, `class` or `auto`); `idCensus`, with `auto` only, is what
  /// decided it (``MatchingDecision``).
  ///
  /// - Parameter hunkEvents: events listed per side of a hunk (0: all); the rest are counted in `omitted`.
  public func json(nameA: String, nameB: String, hunkEvents: Int = 20) -> String {
    var json = JSONBuffer()
    json.object { json in
      json.member("identical", isIdentical)
      json.object("a") { file(nameA, a, to: &$0) }
      json.object("b") { file(nameB, b, to: &$0) }
      json.member("compared", strings: a.options.orderedTypes)
      json.member("match", matching.used.rawValue)
      json.member("matchRequested", matching.requested.rawValue)
      if matching.requested == .auto {
        json.object("idCensus") { json in
          for (key, census) in [("a", matching.a), ("b", matching.b)] {
            json.object(key) {
              $0.counts([
                ("allocated", census.allocated), ("counters", census.counters), ("addresses", census.addresses),
              ])
            }
          }
        }
      }
      if let d = firstDivergence {
        json.object("firstDivergence") { json in
          json.object("a") { position(d.a, a, to: &$0) }
          json.object("b") { position(d.b, b, to: &$0) }
          json.key("moveA")
          move(d.moveA, to: &json)
          json.key("moveB")
          move(d.moveB, to: &json)
          json.array("context") { json in
            for pair in d.context {
              let (i, j) = (pair.a, pair.b)
              json.objectElement { json in
                json.object("a") { $0.counts([("seq", a.seqs[i]), ("line", a.lines[i])]) }
                json.object("b") { $0.counts([("seq", b.seqs[j]), ("line", b.lines[j])]) }
                json.key("event")
                json.event { vocabulary.appendJSON(a.tokens[i], to: &$0) }
              }
            }
          }
        }
      } else {
        json.key("firstDivergence")
        json.null()
      }
      json.array("hunks") { json in
        for h in hunks {
          json.objectElement { json in
            json.member("kind", h.kind.rawValue)
            if let s = h.side { json.member("side", s.rawValue) }
            json.object("a") { side(h.hunk.a, a, hunkEvents: hunkEvents, to: &$0) }
            json.object("b") { side(h.hunk.b, b, hunkEvents: hunkEvents, to: &$0) }
          }
        }
      }
      json.object("summary") {
        $0.counts([("hunks", hunks.count)] + HunkKind.allCases.map { ($0.rawValue, count(of: $0)) })
      }
      json.member("budgetExhausted", alignment.budgetExhausted)
    }
    return json.text
  }

  private func move(_ mark: NormalizedRun.MoveMark?, to json: inout JSONBuffer) {
    guard let mark else { return json.null() }
    json.event { vocabulary.appendJSON(mark.token, seq: mark.seq, line: mark.line, to: &$0) }
  }

  /// `POSITION`'s members.
  private func position(_ i: Int, _ run: NormalizedRun, to json: inout JSONBuffer) {
    json.counts([("index", i)])
    if i < run.count { json.counts([("seq", run.seqs[i]), ("line", run.lines[i])]) }
  }

  private func file(_ name: String, _ run: NormalizedRun, to json: inout JSONBuffer) {
    json.member("file", name)
    json.counts([("events", run.count), ("records", run.recordCount)])
  }

  /// `SIDE`'s members.
  private func side(_ r: Range<Int>, _ run: NormalizedRun, hunkEvents: Int, to json: inout JSONBuffer) {
    json.counts([("from", r.lowerBound), ("to", r.upperBound), ("count", r.count)])
    if r.isEmpty { json.member("afterSeq", r.lowerBound > 0 ? run.seqs[r.lowerBound - 1] : nil) }
    let shown = hunkEvents > 0 ? min(r.count, hunkEvents) : r.count
    json.array("events") { json in
      for i in r.prefix(shown) {
        json.element()
        json.event { vocabulary.appendJSON(run.tokens[i], seq: run.seqs[i], line: run.lines[i], to: &$0) }
      }
    }
    json.counts([("omitted", r.count - shown)])
  }
}

extension JSONBuffer {
  /// An event as the diff's vocabulary writes it.
  fileprivate mutating func event(_ write: (inout [UInt8]) -> Void) {
    var bytes: [UInt8] = []
    write(&bytes)
    raw(bytes)
  }
}
