import Journal

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Counts the paths of one session: every run of K consecutive entries of its
/// screen sequence (overlapping runs included).
///
/// ```swift
/// var counter = PathCounter(steps: 3, key: .class)
/// for step in steps { counter.add(step) }
/// counter.paths  // [(["Home", "Inbox", "Detail"], 4), ...]
/// ```
///
/// Memory: the session's screen sequence (4 bytes a step), one entry per distinct
/// screen and about 40 bytes per distinct path, whatever K.
///
/// Implementation note: a path is where it first occurs in the sequence, found
/// again by a rolling hash of its K screens and compared screen by screen. Keyed
/// by an array of its K screens, memory and time would grow with K (each step
/// would also shift the window).
public struct PathCounter: Sendable {
  public let steps: Int
  public let key: ScreenKey
  private var names: [ExactText: Int32] = [:]
  /// The screens by number.
  private(set) var nameList: [String] = []
  /// The session's screens, by number, in order.
  private(set) var sequence: [Int32] = []
  /// The distinct paths: their first start in `sequence` and their counts.
  private(set) var table = PathTable()
  /// The hash of the last `steps` screens.
  private var hash: UInt64 = 0
  /// `PathTable.base` to the power `steps - 1`: the weight of the oldest screen of the window.
  private let oldestWeight: UInt64

  public init(steps: Int, key: ScreenKey) {
    precondition(steps >= 1, "a path has at least one step")
    self.steps = steps
    self.key = key
    var weight: UInt64 = 1
    for _ in 1..<steps { weight = weight &* PathTable.base }
    oldestWeight = weight
  }

  public mutating func add(_ step: ScreenStep) {
    let name = step.screen(key)
    let n: Int32
    if let known = names[ExactText(name)] {
      n = known
    } else {
      n = Int32(nameList.count)
      names[ExactText(name)] = n
      nameList.append(name)
    }
    if sequence.count >= steps {
      hash = hash &- PathTable.weight(sequence[sequence.count - steps]) &* oldestWeight
    }
    hash = hash &* PathTable.base &+ PathTable.weight(n)
    sequence.append(n)
    guard sequence.count >= steps else { return }
    sequence.withUnsafeBufferPointer { all in
      _ = table.count(start: all.count - steps, length: steps, hash: hash, count: 1, in: all)
    }
  }

  /// Every path with its count, in no particular order.
  public var paths: [(path: [String], count: Int)] {
    table.indices.map { i in
      (sequence[table.starts[i]..<table.starts[i] + steps].map { nameList[Int($0)] }, table.counts[i])
    }
  }
}

/// Distinct runs of a fixed length in sequences of numbers, found by their hash
/// and compared number by number: the paths of ``PathCounter`` and ``PathTotals``.
struct PathTable: Sendable {
  static let base: UInt64 = 0x100_0000_01b3

  /// A screen's number as the hash weighs it (never 0, so runs of screen 0 differ by length).
  @inline(__always)
  static func weight(_ n: Int32) -> UInt64 { (UInt64(UInt32(bitPattern: n)) &+ 1) &* 0x9E37_79B9_7F4A_7C15 }

  /// The first path of each hash, and the next path of the same hash (-1: none).
  private var first: [UInt64: Int32] = [:]
  private var next: [Int32] = []
  /// Each path's start in the sequence and its count.
  private(set) var starts: [Int] = []
  private(set) var counts: [Int] = []

  var indices: Range<Int> { counts.indices }

  /// Adds `count` to the path of `length` numbers at `start` of `all` (the sequence every
  /// path kept starts in), a new path if none is equal to it; returns its index.
  @discardableResult
  mutating func count(start: Int, length: Int, hash: UInt64, count: Int, in all: UnsafeBufferPointer<Int32>) -> Int {
    let base = all.baseAddress!
    var i = first[hash] ?? -1
    while i >= 0 {
      let k = Int(i)
      if memcmp(base + starts[k], base + start, length * MemoryLayout<Int32>.stride) == 0 {
        counts[k] += count
        return k
      }
      i = next[k]
    }
    let k = counts.count
    next.append(first[hash] ?? -1)
    first[hash] = Int32(k)
    starts.append(start)
    counts.append(count)
    return k
  }
}

/// The paths of many sessions merged: how often each occurs, and in how many
/// sessions (by the header's session id) at least once.
///
/// Memory: each session's screen sequence (4 bytes a step) and about 60 bytes per
/// distinct path, whatever its length; ``ranked(top:)`` makes the paths' texts
/// only for the entries it hands out.
public struct PathTotals: Sendable {
  public struct Entry: Sendable, Hashable {
    public var path: [String]
    public var count: Int
    public var sessions: Int

    public init(path: [String], count: Int, sessions: Int) {
      self.path = path
      self.count = count
      self.sessions = sessions
    }
  }

  private var names: [ExactText: Int32] = [:]
  private var nameList: [String] = []
  /// The screens by number of the sessions whose paths are kept, one after the other: every
  /// path kept starts in it.
  private var arena: [Int32] = []
  /// The paths' length (all have the same in one set of totals; nil before the first).
  private var length: Int?
  private var table = PathTable()
  /// Sessions per path, and the (path, session) pairs counted.
  private var sessionCounts: [Int] = []
  private var pairs: Set<UInt64> = []
  private var sessionNumbers: [ExactText: Int] = [:]
  /// Sessions seen, with paths or not (by the bytes of their ids).
  public private(set) var sessions: Set<ExactText> = []

  public init() {}

  /// Adds one session's paths (`session`: its header's id, or the file's name without one).
  public mutating func add(_ paths: [(path: [String], count: Int)], session: String) {
    let number = note(session)
    for (path, count) in paths where !path.isEmpty {
      var sequence: [Int32] = []
      for name in path { sequence.append(intern(name)) }
      add(sequence: sequence, starts: [0], counts: [count], length: path.count, session: number)
    }
  }

  /// Adds one session's paths as its ``PathCounter`` counted them.
  public mutating func add(_ counter: PathCounter, session: String) {
    let number = note(session)
    var global: [Int32] = []
    for name in counter.nameList { global.append(intern(name)) }
    let table = counter.table
    add(
      sequence: counter.sequence.map { global[Int($0)] }, starts: table.starts, counts: table.counts,
      length: counter.steps, session: number)
  }

  private mutating func note(_ session: String) -> Int {
    let session = ExactText(session)
    sessions.insert(session)
    if let known = sessionNumbers[session] { return known }
    sessionNumbers[session] = sessionNumbers.count
    return sessionNumbers.count - 1
  }

  private mutating func intern(_ name: String) -> Int32 {
    if let known = names[ExactText(name)] { return known }
    let n = Int32(nameList.count)
    names[ExactText(name)] = n
    nameList.append(name)
    return n
  }

  /// Counts the paths of `length` at `starts` of `sequence`, kept if it holds a new one.
  private mutating func add(sequence: [Int32], starts: [Int], counts: [Int], length: Int, session: Int) {
    precondition(length == (self.length ?? length), "paths of one length in one set of totals")
    self.length = length
    let base = arena.count
    let before = table.counts.count
    arena.append(contentsOf: sequence)
    arena.withUnsafeBufferPointer { all in
      for (start, count) in zip(starts, counts) {
        var hash: UInt64 = 0
        for n in all[base + start..<base + start + length] { hash = hash &* PathTable.base &+ PathTable.weight(n) }
        let k = table.count(start: base + start, length: length, hash: hash, count: count, in: all)
        if k == sessionCounts.count { sessionCounts.append(0) }
        if pairs.insert(UInt64(k) << 32 | UInt64(session)).inserted { sessionCounts[k] += 1 }
      }
    }
    // The session's screens are kept only if a new path starts in them.
    if table.counts.count == before { arena.removeSubrange(base...) }
  }

  /// The paths by count, then sessions (both descending), then path (ascending, by
  /// the screens' bytes); the first `top` (all when nil). Each entry's texts are made
  /// when it is read.
  public func ranked(top: Int?) -> [Entry] {
    let order = rankedIndices(top: top)
    return order.map(entry)
  }

  /// ``ranked(top:)`` handed to `body` one entry at a time (memory for one path's texts).
  public func forEachRanked(top: Int?, _ body: (Entry) throws -> Void) rethrows {
    for k in rankedIndices(top: top) { try body(entry(k)) }
  }

  private func entry(_ k: Int) -> Entry {
    let start = table.starts[k]
    let path = arena[start..<start + (length ?? 0)].map { nameList[Int($0)] }
    return Entry(path: path, count: table.counts[k], sessions: sessionCounts[k])
  }

  private func rankedIndices(top: Int?) -> [Int] {
    // The screens' order by bytes, so that paths compare by number.
    var rank = [Int32](repeating: 0, count: nameList.count)
    for (r, n) in nameList.indices.sorted(by: { ExactText(nameList[$0]) < ExactText(nameList[$1]) }).enumerated() {
      rank[n] = Int32(r)
    }
    let length = self.length ?? 0
    func precedes(_ a: Int, _ b: Int) -> Bool {
      if table.counts[a] != table.counts[b] { return table.counts[a] > table.counts[b] }
      if sessionCounts[a] != sessionCounts[b] { return sessionCounts[a] > sessionCounts[b] }
      let (i, j) = (table.starts[a], table.starts[b])
      for step in 0..<length where arena[i + step] != arena[j + step] {
        return rank[Int(arena[i + step])] < rank[Int(arena[j + step])]
      }
      return false
    }
    let all = table.indices
    guard let top, top < all.count else { return all.sorted(by: precedes) }
    // The first few only: kept in order as they come, without sorting them all.
    var best: [Int] = []
    best.reserveCapacity(top + 1)
    for k in all {
      if best.count == top, let last = best.last, !precedes(k, last) { continue }
      var lower = 0
      var upper = best.count
      while lower < upper {
        let middle = (lower + upper) / 2
        if precedes(best[middle], k) { lower = middle + 1 } else { upper = middle }
      }
      best.insert(k, at: lower)
      if best.count > top { best.removeLast() }
    }
    return best
  }
}
