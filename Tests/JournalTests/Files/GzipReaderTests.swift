import CZlib
import Testing

@testable import Journal

/// Compresses bytes as one gzip member with zlib (level 6, as `gzip` does).
func gzip(_ bytes: [UInt8]) throws -> [UInt8] {
  var stream = z_stream()
  // 15 + 16: the largest window, with a gzip header and trailer.
  let started = deflateInit2_(
    &stream, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
  try #require(started == Z_OK)
  defer { deflateEnd(&stream) }
  var input = bytes
  var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, UInt(bytes.count))) + 64)
  let status = input.withUnsafeMutableBufferPointer { inBuffer in
    output.withUnsafeMutableBufferPointer { outBuffer in
      stream.next_in = inBuffer.baseAddress
      stream.avail_in = UInt32(inBuffer.count)
      stream.next_out = outBuffer.baseAddress
      stream.avail_out = UInt32(outBuffer.count)
      return deflate(&stream, Z_FINISH)
    }
  }
  try #require(status == Z_STREAM_END)
  return Array(output[..<Int(stream.total_out)])
}

/// gzip-compressed input reads as the text it holds, whatever the chunk size.
@Suite struct GzipReaderTests {
  static let text = Sample.text(
    [Sample.header()] + (1..<40).map { Sample.alloc($0, "c\($0)") } + [Sample.mark(40, label: "end")])

  @Test(arguments: [1, 2, 3, 7, 64, 1 << 20])
  func aCompressedJournalReadsAsThePlainOne(chunkSize: Int) throws {
    let plain = read(Self.text, chunkSize: chunkSize)
    #expect(plain.count == 41)
    #expect(read(try gzip(Self.text), chunkSize: chunkSize) == plain)
  }

  @Test func findingsKeepTheLineNumbersAndOffsetsOfThePlainText() throws {
    // A seq gap, a blank line, a malformed line and a torn tail.
    let lines = [Sample.header(), Sample.alloc(1), "", Sample.alloc(3), "{\"seq\":", Sample.alloc(4)]
    var text = Sample.text(lines)
    text += Array(Sample.alloc(5).utf8.prefix(20))
    let plain = read(text, chunkSize: 5)
    #expect(plain.count(where: { if case .finding = $0 { true } else { false } }) >= 4)
    #expect(read(try gzip(text), chunkSize: 5) == plain)
  }

  @Test func membersOneAfterTheOtherReadAsTheirConcatenation() throws {
    let half = Self.text.count / 2
    let split = Self.text.firstIndex(where: { $0 == 0x0A }).map { max($0 + 1, half) } ?? half
    let members = try gzip(Array(Self.text[..<split])) + gzip(Array(Self.text[split...]))
    #expect(read(members, chunkSize: 3) == read(Self.text))
  }

  @Test func aTruncatedStreamIsAReadErrorAfterWhatItHeld() throws {
    let compressed = try gzip(Self.text)
    let reader = JournalReader(bytes: Array(compressed.dropLast(12)), name: "j.gz", chunkSize: 16)
    let seen = reader.drain()
    #expect(!seen.isEmpty)
    #expect(
      reader.readError
        == JournalFileError(
          path: "j.gz", message: "cannot read: the gzip data is truncated (it ends inside the compressed stream)"))
  }

  @Test func corruptDataIsAReadError() throws {
    var compressed = try gzip(Self.text)
    compressed[12] ^= 0xFF
    compressed[13] ^= 0xFF
    let reader = JournalReader(bytes: compressed, name: "j.gz")
    _ = reader.drain()
    let message = try #require(reader.readError?.message)
    #expect(message.hasPrefix("cannot read: the gzip data is corrupt ("), "\(message)")
  }

  @Test func trailingBytesThatAreNotGzipAreAReadError() throws {
    let reader = JournalReader(bytes: try gzip(Self.text) + Array("tail\n".utf8), name: "j.gz")
    #expect(reader.drain().count == 41)
    #expect(
      reader.readError?.message == "cannot read: the data after the gzip stream is not gzip (incorrect header check)")
  }

  @Test func onlyTheMagicNumberMakesInputGzip() throws {
    // 1F alone, then text: read as it is (a malformed line).
    let text = [0x1F] + Array("x\n".utf8) + Sample.text([Sample.header()])
    let reader = JournalReader(bytes: text, name: "j", chunkSize: 1)
    let seen = reader.drain()
    #expect(reader.readError == nil)
    #expect(seen.last == .record(seq: 0, line: 2, offset: 3))
  }

  @Test func bytesReadCountsTheCompressedInput() throws {
    let compressed = try gzip(Self.text)
    let reader = JournalReader(bytes: compressed, name: "j.gz", chunkSize: 64)
    _ = reader.drain()
    #expect(reader.bytesRead == Int64(compressed.count))
  }
}
