import Testing

@testable import Journal

/// The decoder's cache of ids (``IDCache``) hands out what decoding without it
/// gives, and ``ControllerID``'s `==` agrees with the strings'.
@Suite struct IDCacheTests {
  /// Ids of every length the cache keeps and around it, with some that share
  /// their first, middle and last words, decoded many times in a mixed order.
  static let ids: [String] = {
    var ids = ["c1", "ComposeViewController", "ComposeViewController#1", "ComposeViewController#12"]
    ids += (1...300).map { "ActivityViewController#\($0)" }
    ids += (1...40).map { String(repeating: "x", count: $0) }  // 1 to 40 bytes, one byte apart
    ids += (60...70).map { String(repeating: "y", count: $0 - 1) + "#" }  // around the longest kept
    ids += ["ÉcranViewController#7", "E\u{301}cranViewController#7", "Écran#7"]  // not ASCII
    // Canonically equivalent, of one length (5 bytes each): different bytes, so different ids.
    ids += ["a\u{301}\u{323}", "a\u{323}\u{301}"]
    return ids
  }()

  @Test func decodedIDsAreTheSameWithAndWithoutTheCache() throws {
    let cache = IDCache()
    var minute = CanonicalMinute()
    var generator = SystemRandomNumberGenerator()
    for round in 0..<4 {
      for (k, id) in Self.ids.shuffled(using: &generator).enumerated() {
        let line =
          #"{"seq":\#(k),"time":"2026-01-01T00:00:00.000000Z","type":"lifecycle","controller":"\#(id)","#
          + #""callback":"didLoad"}"#
        var bytes = Array(line.utf8)
        let cached = try decode(&bytes, &minute, cache)
        let plain = try RecordDecoder.decode(line)
        #expect(cached == plain, "round \(round), id \(id)")
        guard case .lifecycle(let controller, _) = cached.event else {
          Issue.record("not a lifecycle event: \(cached.event)")
          continue
        }
        #expect(Array(controller.rawValue.utf8) == Array(id.utf8))
      }
    }
  }

  @Test func escapedIDsDecodeAsWithoutTheCache() throws {
    let cache = IDCache()
    var minute = CanonicalMinute()
    let line =
      #"{"seq":1,"time":"2026-01-01T00:00:00.000000Z","type":"dealloc","#
      + #""controller":"Compose\u0056iewController#3"}"#
    var bytes = Array(line.utf8)
    let cached = try decode(&bytes, &minute, cache)
    #expect(cached == (try RecordDecoder.decode(line)))
    #expect(cached.event == .dealloc(controller: "ComposeViewController#3"))
  }

  private func decode(_ bytes: inout [UInt8], _ minute: inout CanonicalMinute, _ cache: IDCache) throws -> Record {
    try bytes.withUnsafeMutableBytes { buffer in
      try RecordDecoder.decode(UnsafeRawBufferPointer(buffer), limits: DecodeLimits(), minute: &minute, ids: cache)
    }
  }

  @Test func equalityOfIDsIsTheBytes() {
    for a in Self.ids {
      for b in Self.ids {
        let bytesEqual = Array(a.utf8) == Array(b.utf8)
        #expect((ControllerID(a) == ControllerID(b)) == bytesEqual, "\(a) and \(b)")
        if bytesEqual { #expect(ControllerID(a).hashValue == ControllerID(b).hashValue) }
      }
    }
  }

  /// Ids of one length that differ in one byte, at every position, with storage of their own
  /// (`==` compares them a word at a time, then byte by byte) or shared.
  @Test func idsOfOneLengthDifferingInOneByteAreDifferent() {
    for length in 1...40 {
      let base = (0..<length).map { UInt8(ascii: "a") + UInt8($0 % 26) }
      let id = ControllerID(String(decoding: base, as: UTF8.self))
      #expect(id == ControllerID(String(decoding: base, as: UTF8.self)), "length \(length), its own storage")
      #expect(id == ControllerID(id.rawValue), "length \(length), shared")
      for position in 0..<length {
        for replacement: UInt8 in [UInt8(ascii: "#"), base[position] ^ 0x01, 0x7F] where replacement != base[position] {
          var other = base
          other[position] = replacement
          let changed = ControllerID(String(decoding: other, as: UTF8.self))
          #expect(id != changed, "length \(length), byte \(position) set to \(replacement)")
          #expect(changed != id)
        }
      }
      // The same bytes and one more: the lengths tell them apart.
      #expect(id != ControllerID(String(decoding: base + [UInt8(ascii: "a")], as: UTF8.self)))
    }
  }
}
