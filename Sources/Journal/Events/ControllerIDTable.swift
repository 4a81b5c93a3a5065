import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The process's table of controller ids of more than 7 bytes: each distinct id
/// once, in an entry that is never changed, moved or freed, so that an id can
/// be the address of its entry (see ``ControllerID``).
///
/// Implementation note: lookups that make an id (the decoder's misses, `ControllerID("…")`)
/// take the lock; reading an id (its string, its bytes, its hash) takes nothing, because an
/// entry is written before its address is handed out and never written again. The decoder keeps
/// the ids it made lately in front of this table (`IDCache`), so a journal's repeated ids do not
/// come here.
@usableFromInline
final class ControllerIDTable: Sendable {
  static let shared = ControllerIDTable()

  /// One id: its string, a copy of its bytes and what is asked of it most.
  @usableFromInline
  struct Entry {
    @usableFromInline let string: String
    @usableFromInline let bytes: UnsafePointer<UInt8>
    @usableFromInline let count: Int
    @usableFromInline let hash: UInt32
    let isASCII: Bool
  }

  private let storage = Mutex(Storage())

  private init() {}

  /// Whether the id spelt by `bytes` is in the table.
  func contains(_ bytes: UnsafeRawBufferPointer) -> Bool {
    let hash = ControllerID.contentHash(of: bytes)
    return storage.withLock { $0.find(bytes, hash: hash).entry != nil }
  }

  /// The entry of the id spelt by `bytes` (more than 7 bytes), made if it is new.
  func entry(for bytes: UnsafeRawBufferPointer) -> UnsafePointer<Entry> {
    entry(for: bytes, hash: ControllerID.contentHash(of: bytes))
  }

  /// The entry of the id spelt by `bytes`, whose ``ControllerID/contentHash(of:)`` is `hash`.
  func entry(for bytes: UnsafeRawBufferPointer, hash: UInt32) -> UnsafePointer<Entry> {
    // Handed out of the lock as an address: a pointer is not Sendable, an entry never changes.
    let address = storage.withLock { UInt(bitPattern: $0.entry(for: bytes, hash: hash)) }
    return UnsafePointer(bitPattern: address).unsafelyUnwrapped
  }

  /// The slots (open addressing, half full at most) and the arenas the entries and their bytes
  /// are carved from. Nothing allocated here is ever freed: the table lives as long as the process.
  struct Storage: ~Copyable, @unchecked Sendable {
    // @unchecked Sendable: only used under the table's lock.
    var slots: UnsafeMutablePointer<UnsafePointer<Entry>?>
    var mask: Int
    var count = 0
    var arena: UnsafeMutableRawPointer? = nil
    var arenaLeft = 0
    static let arenaSize = 1 << 16

    init() {
      mask = 1023
      slots = .allocate(capacity: mask + 1)
      slots.initialize(repeating: nil, count: mask + 1)
    }

    /// The entry of the id spelt by `bytes`, or the empty slot where it would go.
    func find(_ bytes: UnsafeRawBufferPointer, hash: UInt32) -> (entry: UnsafePointer<Entry>?, slot: Int) {
      var i = Int(hash) & mask
      while let entry = slots[i] {
        if entry.pointee.hash == hash && entry.pointee.count == bytes.count
          && memcmp(entry.pointee.bytes, bytes.baseAddress!, bytes.count) == 0
        {
          return (entry, i)
        }
        i = (i + 1) & mask
      }
      return (nil, i)
    }

    mutating func entry(for bytes: UnsafeRawBufferPointer, hash: UInt32) -> UnsafePointer<Entry> {
      let (found, i) = find(bytes, hash: hash)
      if let found { return found }
      let entry = make(bytes, hash: hash)
      slots[i] = entry
      count += 1
      if count * 2 > mask + 1 { grow() }
      return entry
    }

    private mutating func make(_ bytes: UnsafeRawBufferPointer, hash: UInt32) -> UnsafePointer<Entry> {
      let size = MemoryLayout<Entry>.stride + (bytes.count + 7) & ~7
      let memory = carve(size)
      let copy = (memory + MemoryLayout<Entry>.stride).assumingMemoryBound(to: UInt8.self)
      copy.initialize(from: bytes.bindMemory(to: UInt8.self).baseAddress!, count: bytes.count)
      let string = String(decoding: bytes, as: UTF8.self)
      let isASCII = bytes.allSatisfy { $0 < 0x80 }
      let entry = memory.bindMemory(to: Entry.self, capacity: 1)
      entry.initialize(to: Entry(string: string, bytes: copy, count: bytes.count, hash: hash, isASCII: isASCII))
      return UnsafePointer(entry)
    }

    /// `size` bytes, 8-aligned, from the current arena (a new one when it is short).
    private mutating func carve(_ size: Int) -> UnsafeMutableRawPointer {
      if size > Self.arenaSize / 4 {
        return .allocate(byteCount: size, alignment: 8)
      }
      if arenaLeft < size {
        arena = .allocate(byteCount: Self.arenaSize, alignment: 8)
        arenaLeft = Self.arenaSize
      }
      let memory = arena!
      arena = memory + size
      arenaLeft -= size
      return memory
    }

    private mutating func grow() {
      let newMask = mask * 2 + 1
      let newSlots = UnsafeMutablePointer<UnsafePointer<Entry>?>.allocate(capacity: newMask + 1)
      newSlots.initialize(repeating: nil, count: newMask + 1)
      for i in 0...mask {
        guard let entry = slots[i] else { continue }
        var j = Int(entry.pointee.hash) & newMask
        while newSlots[j] != nil { j = (j + 1) & newMask }
        newSlots[j] = entry
      }
      slots.deallocate()
      slots = newSlots
      mask = newMask
    }
  }
}
