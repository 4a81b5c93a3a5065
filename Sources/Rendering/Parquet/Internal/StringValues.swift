/// The strings of one column in one row group: dictionary-encoded while the dictionary
/// stays small, PLAIN past that.
///
/// Implementation note: the dictionary is an open-addressing hash table over the strings'
/// UTF-8 bytes (FNV-1a), with the entries kept PLAIN-encoded (4-byte length, bytes) in one
/// buffer, which is the dictionary page's body as it stands: a `Dictionary<String, _>`
/// would hash every string through its Unicode normalisation, at every row.
struct StringValues {
  /// The dictionary's size past which a row group's strings are written PLAIN.
  static let dictionaryLimit = 1 << 20

  private(set) var isDictionary = true
  /// The dictionary entries, PLAIN-encoded one after the other.
  private(set) var dictionary: [UInt8] = []
  /// Where each entry starts in `dictionary` (at its length).
  private var entryStarts: [Int32] = []
  /// Open addressing: an entry number + 1, or 0 for an empty slot.
  private var slots: [Int32] = Array(repeating: 0, count: 1 << 10)
  /// The values as dictionary indices.
  private(set) var indices: [UInt32] = []
  /// The values PLAIN-encoded (once the dictionary is given up).
  private(set) var plain: [UInt8] = []
  /// What the values take PLAIN-encoded.
  private(set) var plainSize = 0

  var entryCount: Int { entryStarts.count }
  var count: Int { isDictionary ? indices.count : plainCount }
  private var plainCount = 0

  /// Bytes held, for sizing row groups.
  var bufferedBytes: Int { isDictionary ? dictionary.count + 4 * indices.count : plain.count }

  mutating func append(_ string: String) {
    var string = string
    string.withUTF8 { append(UnsafeRawBufferPointer($0)) }
  }

  mutating func append(_ bytes: UnsafeRawBufferPointer) {
    plainSize += 4 + bytes.count
    guard isDictionary else {
      Self.appendPlain(bytes, to: &plain)
      plainCount += 1
      return
    }
    indices.append(index(of: bytes))
    if dictionary.count > Self.dictionaryLimit { giveUpDictionary() }
  }

  /// Appends a value by its dictionary index (one ``index(of:)`` gave in this row group).
  mutating func append(index: UInt32) {
    precondition(isDictionary, "an index without a dictionary")
    plainSize += Int(entryLength(Int(index))) + 4
    indices.append(index)
  }

  /// The dictionary index of `bytes`, added when new; nil once the dictionary is given up.
  mutating func lookUp(_ string: String) -> UInt32? {
    guard isDictionary else { return nil }
    var string = string
    return string.withUTF8 { index(of: UnsafeRawBufferPointer($0)) }
  }

  private mutating func index(of bytes: UnsafeRawBufferPointer) -> UInt32 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
    let mask = slots.count - 1
    var slot = Int(truncatingIfNeeded: hash ^ (hash >> 29)) & mask
    while true {
      let entry = Int(slots[slot])
      if entry == 0 { break }
      if equals(entry - 1, bytes) { return UInt32(entry - 1) }
      slot = (slot + 1) & mask
    }
    let number = entryStarts.count
    entryStarts.append(Int32(dictionary.count))
    Self.appendPlain(bytes, to: &dictionary)
    slots[slot] = Int32(number + 1)
    if entryStarts.count * 2 > slots.count { grow() }
    return UInt32(number)
  }

  private func entryLength(_ entry: Int) -> UInt32 {
    let start = Int(entryStarts[entry])
    return UInt32(dictionary[start]) | UInt32(dictionary[start + 1]) << 8 | UInt32(dictionary[start + 2]) << 16
      | UInt32(dictionary[start + 3]) << 24
  }

  private func equals(_ entry: Int, _ bytes: UnsafeRawBufferPointer) -> Bool {
    guard Int(entryLength(entry)) == bytes.count else { return false }
    let start = Int(entryStarts[entry]) + 4
    return dictionary.withUnsafeBytes { all in
      var i = 0
      while i < bytes.count {
        if all[start + i] != bytes[i] { return false }
        i += 1
      }
      return true
    }
  }

  private mutating func grow() {
    var bigger = [Int32](repeating: 0, count: slots.count * 2)
    let mask = bigger.count - 1
    for entry in 0..<entryStarts.count {
      let start = Int(entryStarts[entry]) + 4
      let length = Int(entryLength(entry))
      var hash: UInt64 = 0xcbf2_9ce4_8422_2325
      for byte in dictionary[start..<start + length] { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
      var slot = Int(truncatingIfNeeded: hash ^ (hash >> 29)) & mask
      while bigger[slot] != 0 { slot = (slot + 1) & mask }
      bigger[slot] = Int32(entry + 1)
    }
    slots = bigger
  }

  /// Writes the values PLAIN from here on (and the ones so far).
  mutating func giveUpDictionary() {
    guard isDictionary else { return }
    plain.reserveCapacity(plainSize)
    for index in indices {
      let start = Int(entryStarts[Int(index)])
      let length = Int(entryLength(Int(index)))
      plain.append(contentsOf: dictionary[start..<start + 4 + length])
    }
    plainCount = indices.count
    isDictionary = false
    indices = []
    dictionary = []
    entryStarts = []
    slots = [0]
  }

  /// Whether the dictionary pays: its page and the indices take less than the values PLAIN.
  var dictionaryPays: Bool {
    guard isDictionary else { return false }
    let width = HybridEncoder.bitWidth(forMaximum: max(0, entryCount - 1))
    return dictionary.count + (indices.count * width + 7) / 8 < plainSize
  }

  /// Empties it for the next row group (keeping the buffers' capacity).
  mutating func reset() {
    isDictionary = true
    dictionary.removeAll(keepingCapacity: true)
    entryStarts.removeAll(keepingCapacity: true)
    if slots.count > 1 << 10 || slots.count < 1 << 10 {
      slots = Array(repeating: 0, count: 1 << 10)
    } else {
      for i in slots.indices { slots[i] = 0 }
    }
    indices.removeAll(keepingCapacity: true)
    plain.removeAll(keepingCapacity: true)
    plainSize = 0
    plainCount = 0
  }

  static func appendPlain(_ bytes: UnsafeRawBufferPointer, to out: inout [UInt8]) {
    let length = UInt32(bytes.count)
    out.append(UInt8(truncatingIfNeeded: length))
    out.append(UInt8(truncatingIfNeeded: length >> 8))
    out.append(UInt8(truncatingIfNeeded: length >> 16))
    out.append(UInt8(truncatingIfNeeded: length >> 24))
    out.append(contentsOf: bytes)
  }
}
