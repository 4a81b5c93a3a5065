import Testing

@testable import Journal

/// A writer killed mid-append leaves any prefix of a line at the end of the
/// journal. For a cut at every byte offset of the last line, the reader must
/// deliver every complete line before it and report the rest as a torn tail
/// with its offset and length, or accept it when it is the whole line.
@Suite struct ReaderTornTailTests {
  static let complete = Sample.journal(3)
  static let last = Sample.move(3)
  static let prefixLength = Int64(Sample.text(complete).count)

  @Test(arguments: 0...last.utf8.count)
  func cutAt(byte cut: Int) {
    let bytes = Sample.text(Self.complete) + Array(Self.last.utf8.prefix(cut))
    let at = offsets(Self.complete)
    var expected: [Seen] = (0..<3).map { .record(seq: $0, line: $0 + 1, offset: at[$0]) }
    if cut == Self.last.utf8.count {
      expected.append(.record(seq: 3, line: 4, offset: Self.prefixLength))
    } else if cut > 0 {
      expected.append(
        .finding(
          Diagnostic(
            rule: .tornTail, severity: .warning, line: 4, offset: Self.prefixLength, length: cut,
            message:
              "torn tail: \(cut) \(cut == 1 ? "byte" : "bytes") at offset \(Self.prefixLength) without a line end")))
    }
    #expect(read(bytes) == expected)
    #expect(read(bytes, chunkSize: 7) == expected)
  }
}
