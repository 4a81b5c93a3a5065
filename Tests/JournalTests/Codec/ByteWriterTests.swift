import Journal
import Testing

/// `ByteWriter` writes its pieces after what the array held, in order, as the
/// array's own appends would, however full the array was before, whether it
/// writes into room reserved in the array or into a stack buffer it copies.
@Suite struct ByteWriterTests {
  @Test func piecesFollowWhatTheArrayHeld() {
    var random = SeededGenerator(seed: 11)
    var out: [UInt8] = []
    var expected: [UInt8] = []
    for round in 0..<5_000 {
      // Arrays of every fill, so that some reservations grow the array and some fit.
      if round % 700 == 0 {
        out = []
        expected = []
      }
      let value = Int.random(in: Int.min...Int.max, using: &random) >> Int.random(in: 0..<63, using: &random)
      let tail = (0..<Int.random(in: 0..<40, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
      let word = ["", "snapBack", "Café → home", "0x600003a2c000"][round % 4]
      let write = { (writer: inout ByteWriter) in
        writer.raw(#"{"ts":"#)
        writer.int(value)
        writer.byte(UInt8(ascii: ","))
        writer.bytes(tail)
        writer.text(word)
        writer.raw("}")
      }
      // Both ways: room reserved in the array, and a stack buffer copied.
      if round % 2 == 0 {
        ByteWriter.append(atMost: 64 + tail.count + word.utf8.count, to: &out, write)
      } else {
        ByteWriter.appendCopied(atMost: 64 + tail.count + word.utf8.count, to: &out, write)
      }
      expected += Array(#"{"ts":"#.utf8) + Array(String(value).utf8) + [UInt8(ascii: ",")] + tail
      expected += Array(word.utf8) + [UInt8(ascii: "}")]
      #expect(out == expected, "round \(round)")
      if out != expected { return }
    }
  }

  /// Six digits, zeros before: the value's decimal text padded to six, as the padded integer of
  /// any width writes it.
  @Test func sixDigitsAreTheValueZeroPadded() {
    var random = SeededGenerator(seed: 12)
    let values =
      [0, 1, 9, 10, 99, 100, 999, 1_000, 9_999, 10_000, 99_999, 100_000, 123_456, 999_999]
      + (0..<2_000).map { _ in Int.random(in: 0..<1_000_000, using: &random) }
    for value in values {
      var out: [UInt8] = Array("s".utf8)
      ByteWriter.append(atMost: 13, to: &out) { writer in
        writer.sixDigits(value)
        writer.raw("|")
        writer.int(value, width: 6)
      }
      let digits = String(value)
      let padded = String(repeating: "0", count: 6 - digits.count) + digits
      #expect(String(decoding: out, as: UTF8.self) == "s\(padded)|\(padded)", "\(value)")
    }
  }

  /// A number as the JSON writer spells it, however it is written: the short ones in place, any
  /// other through the general spelling. Each reads back as the value, and where Swift's shortest
  /// spelling has no exponent it is that spelling without a trailing `.0`.
  @Test func numbersAreSpelledAsTheJSONWriterDoes() {
    var random = SeededGenerator(seed: 13)
    var values: [Double] = [
      0, -0.0, 1, -1, 19.5, -19.5, 0.001, 0.01, 0.1, 0.125, 0.1234, 72.25, 999_999_999.999, 1e9, 1e9 + 0.5,
      9_007_199_254_740_991, 9_007_199_254_740_992, -9_007_199_254_740_991, 1e-7, 1e21, 1.5e300, .leastNonzeroMagnitude,
      .greatestFiniteMagnitude, -.greatestFiniteMagnitude, .infinity, -.infinity, .nan,
    ]
    for _ in 0..<3_000 {
      let decimals = Int.random(in: 0...4, using: &random)
      let whole = Double(Int.random(in: -2_000_000...2_000_000, using: &random))
      values.append(whole / [1, 10, 100, 1_000, 10_000][decimals])
      values.append(Double.random(in: -1e6...1e6, using: &random))
    }
    for value in values {
      var general: [UInt8] = []
      JSONWriter.appendNumber(value, to: &general)
      var out: [UInt8] = Array("n".utf8)
      var short = false
      var shortCount = 0
      ByteWriter.append(atMost: 2 * ByteWriter.maxNumberLength + 1, to: &out) { writer in
        writer.number(value)
        writer.raw("|")
        short = writer.shortNumber(value)
        shortCount = writer.count
      }
      let text = String(decoding: general, as: UTF8.self)
      #expect(String(decoding: out, as: UTF8.self) == "n\(text)|" + (short ? text : ""), "\(value)")
      #expect(shortCount == general.count + 1 + (short ? general.count : 0), "\(value)")
      guard value.isFinite else {
        #expect(text == "null" && !short, "\(value)")
        continue
      }
      #expect(Double(text) == value, "\(value) read back from \(text)")
      let swift = value == 0 ? "0.0" : value.description
      if !swift.contains("e") {
        #expect(text == (swift.hasSuffix(".0") ? String(swift.dropLast(2)) : swift), "\(value)")
      }
    }
  }

  @Test func countIsWhatWasWritten() {
    var out: [UInt8] = Array("ab".utf8)
    var counted = -1
    ByteWriter.append(atMost: ByteWriter.maxIntLength + 4, to: &out) { writer in
      writer.raw("x=")
      writer.int(Int.min)
      counted = writer.count
    }
    #expect(counted == 22)
    #expect(String(decoding: out, as: UTF8.self) == "abx=-9223372036854775808")
  }

  @Test func aJSONBufferWritesThePiecesInPlace() {
    var json = JSONBuffer()
    json.open("[")
    json.element()
    json.write(atMost: 64) { out in
      out.raw(#"{"ts":"#)
      out.int(1_500_000)
      out.raw("}")
    }
    json.element()
    json.int(7)
    json.close("]")
    #expect(json.text == #"[{"ts":1500000},7]"#)
  }
}
