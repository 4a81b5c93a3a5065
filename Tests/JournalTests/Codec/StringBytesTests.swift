import Testing

@testable import Journal

/// The decoder's SIMD string scan, its small strings and its digits read as a word.
@Suite struct StringBytesTests {
  /// Whether `c` ends the plain part of a string, byte by byte.
  static func isSpecial(_ c: UInt8) -> Bool {
    c == UInt8(ascii: "\"") || c == UInt8(ascii: "\\") || c < 0x20 || c >= 0x80
  }

  @Test func everyByteValueAtEveryPositionOfABlock() {
    var block = [UInt8](repeating: UInt8(ascii: "a"), count: 16)
    for value in 0...255 {
      for position in 0..<16 {
        block[position] = UInt8(value)
        let mask = block.withUnsafeBytes { StringBytes.specialMask($0.baseAddress!) }
        let portable = block.withUnsafeBytes { StringBytes.portableSpecialMask($0.baseAddress!) }
        let expected: UInt32 = Self.isSpecial(UInt8(value)) ? 1 << position : 0
        #expect(mask == expected, "byte \(value) at \(position)")
        #expect(portable == expected, "byte \(value) at \(position), two words at a time")
        block[position] = UInt8(ascii: "a")
      }
    }
  }

  /// Several special bytes in one block: every one is marked, not only the first.
  @Test func everyByteOfRandomBlocks() {
    var generator = SeededGenerator(seed: 16)
    for _ in 0..<20_000 {
      let block = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
      let expected = (0..<16).reduce(UInt32(0)) { $0 | (Self.isSpecial(block[$1]) ? 1 << $1 : 0) }
      #expect(block.withUnsafeBytes { StringBytes.specialMask($0.baseAddress!) } == expected)
      #expect(block.withUnsafeBytes { StringBytes.portableSpecialMask($0.baseAddress!) } == expected)
    }
  }

  @Test func firstSpecialFromEveryStartInLinesOfEveryLength() {
    var generator = SeededGenerator(seed: 48)
    let alphabet: [UInt8] = [UInt8(ascii: "a"), UInt8(ascii: "\""), UInt8(ascii: "\\"), 0x01, 0xC3, UInt8(ascii: "z")]
    for count in 16..<80 {
      for _ in 0..<20 {
        // Mostly plain bytes, now and then a special one.
        let line = (0..<count).map { _ in
          Int.random(in: 0..<12, using: &generator) == 0
            ? alphabet.randomElement(using: &generator)! : UInt8(ascii: "m")
        }
        line.withUnsafeBufferPointer { buffer in
          for start in 0...count {
            let expected = (start..<count).first { Self.isSpecial(line[$0]) } ?? count
            #expect(StringBytes.firstSpecial(buffer.baseAddress!, from: start, count: count) == expected)
          }
        }
      }
    }
  }

  @Test func smallStringsAreTheStandardLibrarys() {
    #expect(SmallASCII.isAvailable == (MemoryLayout<String>.size == 16))
    guard SmallASCII.isAvailable else { return }
    let bytes = Array("Screen12Control#xyz".utf8)
    for n in 0...SmallASCII.capacity {
      let made = bytes.withUnsafeBufferPointer { SmallASCII.string(ShortText(loading: $0.baseAddress!), n) }
      let expected = String(decoding: bytes[..<n], as: UTF8.self)
      #expect(made == expected)
      #expect(made.utf8.count == n)
      #expect(Array(made.utf8) == Array(bytes[..<n]))
      #expect(made.hashValue == expected.hashValue)
    }
  }

  /// The writer's form read in one pass gives the general parser's record for ids and class names
  /// of every length around the small strings' 15 bytes, and seqs of every number of digits.
  @Test func canonicalLinesAgreeWithTheGeneralParser() throws {
    for n in 1...40 {
      let id = String(repeating: "i", count: n - 1) + "#"
      let className = String(repeating: "C", count: n)
      let line =
        #"{"seq":3,"time":"2026-11-29T10:00:00.001000Z","type":"alloc","controller":"\#(id)","class":"\#(className)"}"#
      let record = try RecordDecoder.decode(line)
      #expect(record.event == .alloc(controller: ControllerID(id), className: className))
      var decoder = RecordDecoder.Sequential()
      let again = try Array(line.utf8).withUnsafeBytes { bytes throws(DecodeError) in try decoder.decode(bytes) }
      #expect(again == record)
    }
    func root(_ seq: String) -> String {
      #"{"seq":\#(seq),"time":"2026-11-29T10:00:00.001000Z","type":"root","controller":"c"}"#
    }
    var seq = 0
    for digits in 1...18 {
      seq = seq * 10 + digits % 10
      #expect(try RecordDecoder.decode(root("\(seq)")).seq == seq)
      // With a leading zero, or a sign: refused, as the general parser refuses them.
      #expect(decodeLine(root("0\(seq)")).failure != nil)
      #expect(decodeLine(root("-\(seq)")).failure != nil)
    }
    #expect(try RecordDecoder.decode(root("0")).seq == 0)
    let touches =
      #"{"seq":0,"time":"2026-11-29T10:00:00.001000Z","type":"touches","controller":"c","direction":"up","min":12345678}"#
    #expect(
      try RecordDecoder.decode(touches)
        == Record(
          seq: 0, time: exampleTime(micros: 1000), event: .touches(controller: "c", direction: .up, min: 12_345_678)))
  }
}
