import Dispatch
import Testing

@testable import Journal

/// ``ControllerID`` is one word: ids of up to 7 bytes kept in place, longer ones interned in the
/// process's table. Whatever the form, an id gives back its exact bytes, equal ids are one word,
/// and ids are ordered and hashed as before.
@Suite struct ControllerIDTests {
  /// Around the length where an id moves from in place to the table, ASCII and not.
  static let spellings: [String] = {
    var spellings = (0...10).map { String(repeating: "a", count: $0) }
    spellings += ["c1", "c12", "abcdefg", "abcdefgh", "ComposeViewController#412", "é", "éé", "ééé", "éééé"]
    spellings += ["E\u{301}cran#1", "Écran#1", String(repeating: "z", count: ControllerID.maximumLength)]
    return spellings
  }()

  @Test func anIDGivesBackItsExactBytes() {
    for spelling in Self.spellings {
      let id = ControllerID(spelling)
      #expect(Array(id.rawValue.utf8) == Array(spelling.utf8), "\(spelling)")
      #expect(id.withUTF8 { Array($0) } == Array(spelling.utf8), "\(spelling)")
      #expect(id.utf8Count == spelling.utf8.count, "\(spelling)")
      #expect(id.isInline == (spelling.utf8.count <= ControllerID.inlineCapacity), "\(spelling)")
      #expect(id.isValid == (!spelling.isEmpty && spelling.utf8.count <= ControllerID.maximumLength))
    }
  }

  @Test func idsAreEqualExactlyWhenTheirBytesAreAndHashAlike() {
    for a in Self.spellings {
      for b in Self.spellings {
        let same = Array(a.utf8) == Array(b.utf8)
        #expect((ControllerID(a) == ControllerID(b)) == same, "\(a) and \(b)")
        if same { #expect(ControllerID(a).hashValue == ControllerID(b).hashValue) }
      }
    }
    // Canonically equivalent spellings are different bytes, so different ids.
    #expect(ControllerID("E\u{301}cran#1") != ControllerID("Écran#1"))
  }

  @Test func idsAreOrderedAsTheirStrings() {
    for a in Self.spellings {
      for b in Self.spellings {
        #expect((ControllerID(a) < ControllerID(b)) == (a < b), "\(a) < \(b)")
      }
    }
  }

  /// The hash the state's index is keyed by: the same whether the id is in place or in the table,
  /// and the same as the hash of its bytes.
  @Test func theContentHashIsTheHashOfTheBytes() {
    for spelling in Self.spellings {
      var bytes = Array(spelling.utf8)
      let expected = bytes.withUnsafeMutableBytes { ControllerID.contentHash(of: UnsafeRawBufferPointer($0)) }
      if !spelling.isEmpty { #expect(ControllerID(spelling).contentHash == expected, "\(spelling)") }
    }
  }

  /// Threads that make the same new ids at once get one entry each: the same word everywhere.
  @Test func threadsMakingTheSameIDsAtOnceGetTheSameIDs() {
    let spellings = (0..<2000).map { "ConcurrentViewController#\($0)-\(UInt64.random(in: 0...UInt64.max))" }
    let made = UnsafeMutableBufferPointer<ControllerID>.allocate(capacity: 4 * spellings.count)
    defer { made.deallocate() }
    let shared = SharedIDs(made: made)
    DispatchQueue.concurrentPerform(iterations: 4) { thread in
      for (k, spelling) in spellings.enumerated() {
        shared.made[thread * spellings.count + k] = ControllerID(spelling)
      }
    }
    for k in spellings.indices {
      let first = made[k]
      #expect(first.rawValue == spellings[k])
      for thread in 1..<4 { #expect(made[thread * spellings.count + k] == first) }
    }
  }

  /// The decoder does not keep an id it refuses (too long) in the process's table.
  @Test func anIDTooLongIsRefusedWithoutBeingKept() throws {
    let long = String(repeating: "q", count: ControllerID.maximumLength + 1)
    for escaped in [false, true] {
      let spelling = escaped ? long + "\\u0041" : long
      let line =
        #"{"seq":0,"time":"2026-01-01T00:00:00.000000Z","type":"lifecycle","controller":"\#(spelling)","#
        + #""callback":"didLoad"}"#
      #expect(throws: DecodeError.self) { try RecordDecoder.decode(line) }
    }
    for kept in [long, long + "A"] {
      var bytes = Array(kept.utf8)
      #expect(!bytes.withUnsafeMutableBytes { ControllerIDTable.shared.contains(UnsafeRawBufferPointer($0)) })
    }
  }
}

private struct SharedIDs: @unchecked Sendable {
  // @unchecked Sendable: each thread writes its own range; read after the threads are done.
  let made: UnsafeMutableBufferPointer<ControllerID>
}
