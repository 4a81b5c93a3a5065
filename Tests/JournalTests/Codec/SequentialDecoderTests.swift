import Testing

@testable import Journal

/// ``RecordDecoder/Sequential`` (the readers' way: the last minute and recent ids and class names
/// kept) decodes each line as ``RecordDecoder/decode(_:limits:)-(UnsafeRawBufferPointer,_)`` does
/// alone, and the words read at a line's end are those read byte by byte.
@Suite struct SequentialDecoderTests {
  /// Lines of every type, in several minutes, days and years, with long ids and class names (kept
  /// by the cache) and short ones, escaped ones, and lines that fail for different reasons.
  static let lines: [String] = {
    var lines: [String] = []
    let times = [
      "2026-01-01T00:00:00.000000Z", "2026-01-01T00:00:59.999999Z", "2026-01-01T00:01:00.000000Z",
      "2026-01-01T00:00:30.000000Z", "2026-12-31T23:59:60.500000Z", "2027-01-01T00:00:00.000001Z",
      "2028-02-29T12:00:00.000000Z", "2026-01-01T00:00:00.000000Z",
    ]
    let classes = [
      "A", "HomeViewController", "ComposeViewController", String(repeating: "K", count: 15),
      String(repeating: "K", count: 16), String(repeating: "L", count: 64), String(repeating: "M", count: 65),
    ]
    for (k, time) in times.enumerated() {
      for (j, className) in classes.enumerated() {
        let id = "\(className)#\(k * 10 + j)"
        lines.append(
          #"{"seq":\#(lines.count),"time":"\#(time)","type":"alloc","controller":"\#(id)","class":"\#(className)"}"#)
        lines.append(
          #"{"seq":\#(lines.count),"time":"\#(time)","type":"lifecycle","controller":"\#(id)","callback":"didLoad"}"#)
      }
      lines.append(
        #"{"seq":\#(lines.count),"time":"\#(time)","type":"move","from":"a","to":"b","direction":"up","trigger":"pan","animated":false}"#
      )
      lines.append(
        #"{"seq":\#(lines.count),"time":"\#(time)","type":"pan","controller":"a","direction":"left","touches":2,"distance":1.5,"velocity":-3e2,"outcome":"refused"}"#
      )
    }
    lines += [
      #"{"seq":90,"time":"2026-01-01T00:00:00.000000Z","type":"alloc","controller":"x","class":"Compose\u0056iewController"}"#,
      #"{"seq":91,"time":"2026-01-01T00:00:00.000000Z","type":"lifecycle","controller":"x","callback":"didLod"}"#,
      #"{"seq":92,"time":"2026-13-01T00:00:00.000000Z","type":"root","controller":"x"}"#,
      #"{"seq":93,"time":"2026-01-01T00:00:00.000000Z","type":"root","controller":"x"} "#,
      #"{"seq":94,"time":"2026-01-01T00:00:00.000000Z","type":"dealloc"}"#,
      #"{"seq":95,"time":"2026-01-01T00:00:00Z","type":"dealloc","controller":"x"}"#,
      #"{"seq":96}"#, "{}", "[1]", "",
    ]
    return lines
  }()

  @Test func eachLineDecodesAsItDoesAlone() {
    var decoder = RecordDecoder.Sequential()
    var failed: Set<String> = []
    for round in 0..<3 {
      for line in Self.lines {
        let alone = Result { () throws(DecodeError) in try RecordDecoder.decode(line) }
        var bytes = Array(line.utf8)
        let inOrder = bytes.withUnsafeMutableBytes { buffer in
          Result { () throws(DecodeError) in try decoder.decode(UnsafeRawBufferPointer(buffer)) }
        }
        #expect(inOrder == alone, "round \(round): \(line)")
        if case .failure = alone { failed.insert(line) }
      }
    }
    // The lines made to fail did, and no other: all of each type's lines decode.
    let madeToFail =
      Self.lines.filter { $0.contains("didLod") || $0.contains("2026-13") || !$0.contains("\"type\"") }
      + Self.lines.filter { $0.contains(#""type":"dealloc"}"#) }
    #expect(madeToFail.count == 7)
    #expect(Set(madeToFail).isSubset(of: failed))
    #expect(!failed.contains { $0.contains("ViewController#") || $0.contains(#""type":"pan""#) })
  }

  @Test func classNamesHandedOutByTheCacheAreTheirBytes() throws {
    let cache = IDCache()
    for length in 1...80 {
      let name = String((0..<length).map { Character(UnicodeScalar(UInt8(ascii: "a") + UInt8($0 % 26))) })
      for _ in 0..<2 {
        let kept = Array(name.utf8).withUnsafeBufferPointer { cache.string($0.baseAddress!, $0.count) }
        #expect(kept == name, "length \(length)")
      }
    }
  }

  /// Every length from 0 to 16, at the end of a line of 16 bytes or more: the words read backwards
  /// from the end are the bytes copied one by one.
  @Test func textEndingALineReadsAsCopied() {
    let line = Array("0123456789abcdefghijklmnopqrstuv".utf8)
    line.withUnsafeBufferPointer { buffer in
      let base = buffer.baseAddress!
      for n in 0...ShortText.capacity {
        let p = base + buffer.count - n
        let loaded = ShortText(endingAt: p, n)
        let copied = ShortText(copying: p, n)
        #expect(loaded.first == copied.first && loaded.second == copied.second, "\(n) bytes")
        #expect(loaded.count == copied.count)
        // Each text of `n` bytes is a prefix of it, and one that differs in its last byte is not.
        if n > 0 {
          let text = String(decoding: UnsafeBufferPointer(start: p, count: n), as: UTF8.self)
          #expect(ShortText(text).isPrefix(of: loaded), "\(text)")
          #expect(!ShortText(String(text.dropLast()) + "!").isPrefix(of: loaded), "\(text)")
        }
      }
    }
  }
}
