import Journal

/// Maps controller ids to their position in allocation order.
///
/// Implementation note: the map is split into 64 shards chosen by an FNV-1a
/// hash of the id's bytes, so that a copied state that then allocates a
/// controller copies one small shard, not the whole map (see ``ChunkedArray``).
struct ControllerIndex: Sendable, Hashable {
  private static let shardCount = 64
  private var shards: [[ControllerID: Int32]] = Array(repeating: [:], count: ControllerIndex.shardCount)

  init() {}

  @inline(__always)
  private static func shard(of id: ControllerID) -> Int {
    var hash: UInt32 = 2_166_136_261
    for byte in id.rawValue.utf8 {
      hash = (hash ^ UInt32(byte)) &* 16_777_619
    }
    return Int(hash & UInt32(shardCount - 1))
  }

  subscript(id: ControllerID) -> Int32? {
    shards[Self.shard(of: id)][id]
  }

  mutating func insert(_ id: ControllerID, at index: Int32) {
    shards[Self.shard(of: id)][id] = index
  }
}
