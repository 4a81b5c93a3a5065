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
    var out: [UInt8] = []
    func raw(_ s: String) { out.append(contentsOf: s.utf8) }
    func int(_ v: Int) { JSONWriter.appendInt(v, to: &out) }
    func string(_ s: String) { JSONWriter.appendString(s, to: &out) }
    func event(_ run: NormalizedRun, _ i: Int) {
      vocabulary.appendJSON(run.tokens[i], seq: run.seqs[i], line: run.lines[i], to: &out)
    }
    func move(_ mark: NormalizedRun.MoveMark?) {
      guard let mark else { return raw("null") }
      vocabulary.appendJSON(mark.token, seq: mark.seq, line: mark.line, to: &out)
    }
    func position(_ i: Int, _ run: NormalizedRun) {
      raw(#"{"index":"#)
      int(i)
      if i < run.count {
        raw(#","seq":"#)
        int(run.seqs[i])
        raw(#","line":"#)
        int(run.lines[i])
      }
      raw("}")
    }
    func file(_ name: String, _ run: NormalizedRun) {
      raw(#"{"file":"#)
      string(name)
      raw(#","events":"#)
      int(run.count)
      raw(#","records":"#)
      int(run.recordCount)
      raw("}")
    }
    func side(_ r: Range<Int>, _ run: NormalizedRun) {
      raw(#"{"from":"#)
      int(r.lowerBound)
      raw(#","to":"#)
      int(r.upperBound)
      raw(#","count":"#)
      int(r.count)
      if r.isEmpty {
        raw(#","afterSeq":"#)
        if r.lowerBound > 0 { int(run.seqs[r.lowerBound - 1]) } else { raw("null") }
      }
      raw(#","events":["#)
      let shown = hunkEvents > 0 ? min(r.count, hunkEvents) : r.count
      for (k, i) in r.prefix(shown).enumerated() {
        if k > 0 { raw(",") }
        event(run, i)
      }
      raw(#"],"omitted":"#)
      int(r.count - shown)
      raw("}")
    }

    raw(#"{"identical":"#)
    raw(isIdentical ? "true" : "false")
    raw(#","a":"#)
    file(nameA, a)
    raw(#","b":"#)
    file(nameB, b)
    raw(#","compared":["#)
    for (k, t) in a.options.orderedTypes.enumerated() {
      if k > 0 { raw(",") }
      string(t)
    }
    raw(#"],"match":"#)
    string(a.options.matching.rawValue)
    raw(#","firstDivergence":"#)
    if let d = firstDivergence {
      raw(#"{"a":"#)
      position(d.a, a)
      raw(#","b":"#)
      position(d.b, b)
      raw(#","moveA":"#)
      move(d.moveA)
      raw(#","moveB":"#)
      move(d.moveB)
      raw(#","context":["#)
      for (k, pair) in d.context.enumerated() {
        let (i, j) = (pair.a, pair.b)
        if k > 0 { raw(",") }
        raw(#"{"a":{"seq":"#)
        int(a.seqs[i])
        raw(#","line":"#)
        int(a.lines[i])
        raw(#"},"b":{"seq":"#)
        int(b.seqs[j])
        raw(#","line":"#)
        int(b.lines[j])
        raw(#"},"event":"#)
        vocabulary.appendJSON(a.tokens[i], to: &out)
        raw("}")
      }
      raw("]}")
    } else {
      raw("null")
    }
    raw(#","hunks":["#)
    for (k, h) in hunks.enumerated() {
      if k > 0 { raw(",") }
      raw(#"{"kind":"#)
      string(h.kind.rawValue)
      if let s = h.side {
        raw(#","side":"#)
        string(s.rawValue)
      }
      raw(#","a":"#)
      side(h.hunk.a, a)
      raw(#","b":"#)
      side(h.hunk.b, b)
      raw("}")
    }
    raw(#"],"summary":{"hunks":"#)
    int(hunks.count)
    for kind in HunkKind.allCases {
      raw(",")
      string(kind.rawValue)
      raw(":")
      int(count(of: kind))
    }
    raw(#"},"budgetExhausted":"#)
    raw(alignment.budgetExhausted ? "true" : "false")
    raw("}")
    return String(decoding: out, as: UTF8.self)
  }
}
