import Journal

/// Maps controller ids to their position in allocation order.
///
/// Implementation note: the map is split into 64 shards chosen by a hash of
/// the id's bytes, so that a copied state that then allocates a
/// controller copies one small shard, not the whole map (see ``ChunkedArray``).
/// Each shard is a table with open addressing keyed by the same hash, not a
/// `Dictionary`: the fold looks up one or two ids per event, and a dictionary
/// would hash every id a second time with SipHash. Two indexes are equal when
/// they map the same ids to the same positions, whatever the order they were
/// inserted in.
package struct ControllerIndex: Sendable, Hashable {
  private static let shardCount = 64
  private var shards = [Shard](repeating: Shard(), count: ControllerIndex.shardCount)
  private var count = 0

  package init() {}

  /// A hash of the id's UTF-8 bytes (``ControllerID/contentHash``: kept with the id, not read
  /// again at each lookup).
  @inline(__always)
  static func hash(of id: ControllerID) -> UInt32 { id.contentHash }

  package subscript(id: ControllerID) -> Int32? {
    let hash = Self.hash(of: id)
    return shards[Int(hash & UInt32(Self.shardCount - 1))].find(id, hash: hash)
  }

  /// Maps `id` (not in the index yet) to `index`.
  package mutating func insert(_ id: ControllerID, at index: Int32) {
    let hash = Self.hash(of: id)
    shards[Int(hash & UInt32(Self.shardCount - 1))].insert(id, hash: hash, position: index)
    count += 1
  }

  /// Maps `id` to `index` unless it is in the index already; returns the position it had, or nil
  /// when it was inserted. One hash and one probe, where a lookup and an insert would take two of each.
  mutating func insert(_ id: ControllerID, ifAbsentAt index: Int32) -> Int32? {
    let hash = Self.hash(of: id)
    let shard = Int(hash & UInt32(Self.shardCount - 1))
    let existing = shards[shard].insert(id, hash: hash, ifAbsentAt: index)
    if existing == nil { count += 1 }
    return existing
  }

  package static func == (lhs: ControllerIndex, rhs: ControllerIndex) -> Bool {
    guard lhs.count == rhs.count else { return false }
    for shard in lhs.shards {
      for entry in shard.entries where entry.position >= 0 {
        guard rhs[entry.id] == entry.position else { return false }
      }
    }
    return true
  }

  /// Only the count: equal indexes may differ in layout (insertion order).
  package func hash(into hasher: inout Hasher) {
    hasher.combine(count)
  }
}

/// One shard of a ``ControllerIndex``: linear probing in a power-of-two table,
/// at most half full; an entry with position -1 is free.
private struct Shard: Sendable {
  struct Entry: Sendable {
    var hash: UInt32
    var position: Int32
    var id: ControllerID
  }

  var entries: [Entry] = []
  var used = 0

  /// The first slot to probe: the hash's bits above those that chose the shard.
  @inline(__always)
  private static func start(_ hash: UInt32, mask: Int) -> Int { Int(hash >> 6) & mask }

  @inline(__always)
  func find(_ id: ControllerID, hash: UInt32) -> Int32? {
    entries.withUnsafeBufferPointer { table -> Int32? in
      guard !table.isEmpty else { return nil }
      let mask = table.count - 1
      var i = Self.start(hash, mask: mask)
      while true {
        let position = table[i].position
        if position < 0 { return nil }
        if table[i].hash == hash && table[i].id == id { return position }
        i = (i + 1) & mask
      }
    }
  }

  mutating func insert(_ id: ControllerID, hash: UInt32, position: Int32) {
    if (used + 1) * 2 > entries.count { grow() }
    let mask = entries.count - 1
    var i = Self.start(hash, mask: mask)
    while entries[i].position >= 0 { i = (i + 1) & mask }
    entries[i] = Entry(hash: hash, position: position, id: id)
    used += 1
  }

  /// Inserts `id` at `position` unless it is in the table; returns the position found, or nil.
  mutating func insert(_ id: ControllerID, hash: UInt32, ifAbsentAt position: Int32) -> Int32? {
    if (used + 1) * 2 > entries.count { grow() }
    let mask = entries.count - 1
    var i = Self.start(hash, mask: mask)
    while entries[i].position >= 0 {
      if entries[i].hash == hash && entries[i].id == id { return entries[i].position }
      i = (i + 1) & mask
    }
    entries[i] = Entry(hash: hash, position: position, id: id)
    used += 1
    return nil
  }

  @inline(never)
  private mutating func grow() {
    let old = entries
    entries = Array(
      repeating: Entry(hash: 0, position: -1, id: ControllerID("")), count: Swift.max(8, old.count * 2))
    used = 0
    for entry in old where entry.position >= 0 { insert(entry.id, hash: entry.hash, position: entry.position) }
  }
}
