import Journal

extension DiffReport {
  /// The report as one JSON document (one line, no spaces). Its shape:
  ///
  /// ```
  /// {"identical":false,
  ///  "a":{"file":"build-07.ndjson","events":412,"records":498},
  ///  "b":{"file":"build-08.ndjson","events":410,"records":494},
  ///  "compared":["lifecycle","move","modal","dealloc","link","unlink"],"match":"id",
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
  ///
  /// - Parameter hunkEvents: events listed per side of a hunk (0: all); the rest are counted in `omitted`.
  public func json(nameA: String, nameB: String, hunkEvents: Int = 20) -> String {
    var json = JSONBuffer()
    /// An event as the vocabulary writes it.
    func event(_ write: (inout [UInt8]) -> Void) {
      var bytes: [UInt8] = []
      write(&bytes)
      json.raw(bytes)
    }
    func move(_ mark: NormalizedRun.MoveMark?) {
      guard let mark else { return json.null() }
      event { vocabulary.appendJSON(mark.token, seq: mark.seq, line: mark.line, to: &$0) }
    }
    func position(_ i: Int, _ run: NormalizedRun) {
      json.open("{")
      json.counts([("index", i)])
      if i < run.count { json.counts([("seq", run.seqs[i]), ("line", run.lines[i])]) }
      json.close("}")
    }
    func file(_ name: String, _ run: NormalizedRun) {
      json.open("{")
      json.key("file")
      json.string(name)
      json.counts([("events", run.count), ("records", run.recordCount)])
      json.close("}")
    }
    func side(_ r: Range<Int>, _ run: NormalizedRun) {
      json.open("{")
      json.counts([("from", r.lowerBound), ("to", r.upperBound), ("count", r.count)])
      if r.isEmpty {
        json.key("afterSeq")
        json.int(r.lowerBound > 0 ? run.seqs[r.lowerBound - 1] : nil)
      }
      json.key("events")
      json.open("[")
      let shown = hunkEvents > 0 ? min(r.count, hunkEvents) : r.count
      for i in r.prefix(shown) {
        json.element()
        event { vocabulary.appendJSON(run.tokens[i], seq: run.seqs[i], line: run.lines[i], to: &$0) }
      }
      json.close("]")
      json.counts([("omitted", r.count - shown)])
      json.close("}")
    }

    json.open("{")
    json.key("identical")
    json.bool(isIdentical)
    json.key("a")
    file(nameA, a)
    json.key("b")
    file(nameB, b)
    json.key("compared")
    json.strings(a.options.orderedTypes)
    json.key("match")
    json.string(a.options.matching.rawValue)
    json.key("firstDivergence")
    if let d = firstDivergence {
      json.open("{")
      json.key("a")
      position(d.a, a)
      json.key("b")
      position(d.b, b)
      json.key("moveA")
      move(d.moveA)
      json.key("moveB")
      move(d.moveB)
      json.key("context")
      json.open("[")
      for pair in d.context {
        let (i, j) = (pair.a, pair.b)
        json.element()
        json.open("{")
        json.key("a")
        json.open("{")
        json.counts([("seq", a.seqs[i]), ("line", a.lines[i])])
        json.close("}")
        json.key("b")
        json.open("{")
        json.counts([("seq", b.seqs[j]), ("line", b.lines[j])])
        json.close("}")
        json.key("event")
        event { vocabulary.appendJSON(a.tokens[i], to: &$0) }
        json.close("}")
      }
      json.close("]")
      json.close("}")
    } else {
      json.null()
    }
    json.key("hunks")
    json.open("[")
    for h in hunks {
      json.element()
      json.open("{")
      json.key("kind")
      json.string(h.kind.rawValue)
      if let s = h.side {
        json.key("side")
        json.string(s.rawValue)
      }
      json.key("a")
      side(h.hunk.a, a)
      json.key("b")
      side(h.hunk.b, b)
      json.close("}")
    }
    json.close("]")
    json.key("summary")
    json.open("{")
    json.counts([("hunks", hunks.count)] + HunkKind.allCases.map { ($0.rawValue, count(of: $0)) })
    json.close("}")
    json.key("budgetExhausted")
    json.bool(alignment.budgetExhausted)
    json.close("}")
    return json.text
  }
}
