import Journal
import Testing

@testable import TestSupport
@testable import spatial_replay

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The follower behind `tail --follow`, polled by hand: complete lines only,
/// torn tails, truncation, replacement, a file that does not exist yet.
@Suite struct TailFollowerTests {
  /// One poll's changes, written compactly: `3@120 text`, `rewritten 40 (shrank)`, `replaced`, `long 5`.
  static func poll(_ follower: JournalFollower) throws -> [String] {
    var out: [String] = []
    try follower.poll { change in
      switch change {
      case .line(let bytes, let number, let offset, let crlf):
        out.append("\(number)@\(offset) \(String(decoding: bytes, as: UTF8.self))\(crlf ? " (crlf)" : "")")
      case .overLong(let number, let offset, let length): out.append("long \(number)@\(offset) \(length)")
      case .rewritten(let size, let shrank): out.append("rewritten \(size)\(shrank ? " (shrank)" : "")")
      case .replaced: out.append("replaced")
      }
    }
    return out
  }

  static func append(_ path: String, _ text: String) {
    let fd = open(path, O_WRONLY | O_APPEND | O_CREAT, 0o644)
    defer { close(fd) }
    _ = text.utf8CString.withUnsafeBufferPointer { write(fd, $0.baseAddress, $0.count - 1) }
  }

  @Test func handsOutCompleteLinesOnlyAndWaitsForTheRest() throws {
    let dir = try TemporaryDirectory()
    let path = dir.file("j.ndjson")
    let follower = JournalFollower(path: path)
    #expect(try Self.poll(follower) == [], "the file does not exist yet")
    #expect(!follower.isOpen)
    Self.append(path, "one\ntwo\nthr")
    #expect(try Self.poll(follower) == ["1@0 one", "2@4 two"])
    #expect(follower.unterminatedBytes == 3)
    #expect(try Self.poll(follower) == [])
    Self.append(path, "ee\r\nfour\n")
    #expect(try Self.poll(follower) == ["3@8 three (crlf)", "4@15 four"], "a \\r before \\n is dropped and noted")
    #expect(follower.unterminatedBytes == 0)
  }

  @Test func aTornTailCutOffAndAppendedAfterNeverShows() throws {
    let dir = try TemporaryDirectory()
    let path = try dir.write("j.ndjson", "a\nb\n{\"seq\":2,\"ti")
    let follower = JournalFollower(path: path)
    #expect(try Self.poll(follower) == ["1@0 a", "2@2 b"])
    // A writer repairs the tail (cuts it off) and appends: in one go or seen in two polls.
    #expect(truncate(path, 4) == 0)
    #expect(try Self.poll(follower) == [])
    Self.append(path, "c\n")
    #expect(try Self.poll(follower) == ["3@4 c"])
    Self.append(path, "{\"torn")
    #expect(try Self.poll(follower) == [])
    #expect(truncate(path, 6) == 0)
    Self.append(path, "dd\neee\n")
    #expect(try Self.poll(follower) == ["4@6 dd", "5@9 eee"], "the new bytes, not the torn ones")
  }

  @Test func aFileTruncatedBelowWhatWasReadIsReadAgainFromItsStart() throws {
    let dir = try TemporaryDirectory()
    let path = try dir.write("j.ndjson", "a\nbb\nccc\n")
    let follower = JournalFollower(path: path)
    #expect(try Self.poll(follower).count == 3)
    #expect(truncate(path, 3) == 0)
    #expect(try Self.poll(follower) == ["rewritten 3 (shrank)", "1@0 a"])
    Self.append(path, "b\nz\n")
    #expect(try Self.poll(follower) == ["2@2 bb", "3@5 z"])
  }

  /// Truncated and written again larger between two polls (copytruncate rotation, a harness
  /// reusing the path): the same inode, a larger size, other bytes before the point read.
  @Test(arguments: ["x\nyy\nzzz\nwwww\n", "cc\ndd\nee\n"])
  func aFileRewrittenLargerInOnePollIsReadAgainFromItsStart(_ next: String) throws {
    let dir = try TemporaryDirectory()
    let path = try dir.write("j.ndjson", "aa\nbb\n")
    let follower = JournalFollower(path: path)
    #expect(try Self.poll(follower) == ["1@0 aa", "2@3 bb"])
    #expect(truncate(path, 0) == 0)
    Self.append(path, next)
    let lines = next.split(separator: "\n")
    var offset = 0
    var expected = ["rewritten \(next.utf8.count)"]
    for (i, line) in lines.enumerated() {
      expected.append("\(i + 1)@\(offset) \(line)")
      offset += line.utf8.count + 1
    }
    #expect(try Self.poll(follower) == expected)
    #expect(try Self.poll(follower) == [])
    Self.append(path, "more\n")
    #expect(try Self.poll(follower) == ["\(lines.count + 1)@\(offset) more"], "appends after it are followed as usual")
  }

  @Test func aReplacedFileIsFollowedFromItsStart() throws {
    let dir = try TemporaryDirectory()
    let path = try dir.write("j.ndjson", "old 1\nold 2\n")
    let follower = JournalFollower(path: path)
    #expect(try Self.poll(follower).count == 2)
    let next = try dir.write("next.ndjson", "new 1\n")
    #expect(rename(next, path) == 0)
    #expect(try Self.poll(follower) == ["replaced", "1@0 new 1"])
    #expect(try Self.poll(follower) == [])
  }

  @Test func aLineOverTheLimitIsSkippedNotBuffered() throws {
    let dir = try TemporaryDirectory()
    let path = try dir.write("j.ndjson", "ok\n" + String(repeating: "x", count: 50) + "\nfine\n")
    let follower = JournalFollower(path: path, maxLineLength: 10)
    #expect(try Self.poll(follower) == ["1@0 ok", "long 2@3 50", "3@54 fine"])
  }

  @Test func aDirectoryIsRefused() throws {
    let dir = try TemporaryDirectory()
    let follower = JournalFollower(path: dir.path)
    #expect(throws: CommandFailure.self) { try Self.poll(follower) }
  }
}
