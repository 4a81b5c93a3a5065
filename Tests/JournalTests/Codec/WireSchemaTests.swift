import Foundation
import Testing

@testable import Journal

/// Each type's keys are stated once (`Event.Kind.keyOrder`) and every table of
/// the codec is derived from them: the order the spec lists, the order the
/// encoder writes, the names the decoder recognises.
@Suite struct WireSchemaTests {
  /// The key names of each type as `docs/journal-format.md` lists them ("Keys are listed in the order
  /// writers put them"): the rows of its tables of keys, a type's name in the first column of its first row.
  static func specKeyOrder() throws -> [String: [String]] {
    var root = String(#filePath)
    while !root.hasSuffix("/Tests") { root = String(root[..<root.lastIndex(of: "/")!]) }
    root.removeLast("/Tests".count)
    let doc = String(decoding: try contents(root + "/docs/journal-format.md"), as: UTF8.self)
    let after = try #require(doc.components(separatedBy: "\n## Event types\n").dropFirst().first)
    let section = after.components(separatedBy: "\n## ")[0]
    var keys: [String: [String]] = [:]
    var type = "session"
    for line in section.split(separator: "\n") where line.hasPrefix("| ") {
      let cells = line.split(separator: "|", omittingEmptySubsequences: false).map {
        $0.trimmingCharacters(in: .whitespaces)
      }
      guard cells.count > 3 else { continue }
      let typeCell = cells.count == 7 ? cells[1] : nil  // `| type | key | JSON type | required | meaning |`
      let keyCell = cells.count == 7 ? cells[2] : cells[1]
      if let typeCell, typeCell.hasPrefix("`") { type = String(typeCell.dropFirst().dropLast()) }
      guard keyCell.hasPrefix("`"), keyCell.hasSuffix("`"), keyCell.count > 2 else { continue }
      keys[type, default: []].append(String(keyCell.dropFirst().dropLast()))
    }
    return keys
  }

  @Test func everyTypesKeysAreInTheSpecsOrder() throws {
    let spec = try Self.specKeyOrder()
    #expect(spec.count == Event.Kind.allCases.count, "\(spec.keys.sorted())")
    for kind in Event.Kind.allCases {
      #expect(kind.keyOrder.map(\.name) == spec[kind.rawValue], "\(kind)")
    }
  }

  /// The encoder writes the envelope, the type's keys in `keyOrder` (a header's optional keys when given),
  /// then the extra keys; both of its paths.
  @Test(arguments: CodecRoundTripTests.cases)
  func theEncoderWritesTheKeysInKeyOrder(_ c: CodecRoundTripTests.Case) throws {
    let event = c.record.event
    let kind = try #require(event.kind)
    var expected = JournalKey.envelope.map(\.name)
    expected += kind.keyOrder.filter { event.value(of: $0) != nil }.map(\.name)
    if case .mark(_, let fields) = event { expected += fields.map(\.key) }
    expected += c.record.extra.map(\.key)
    var general: [UInt8] = []
    c.record.encodeEach(into: &general)
    for line in [c.record.ndjson, String(decoding: general, as: UTF8.self)] {
      #expect(try Self.topLevelKeys(line) == expected, "\(line)")
    }
  }

  /// The keys of the line's object, in order, as the decoder finds them.
  static func topLevelKeys(_ line: String) throws -> [String] {
    try Array(line.utf8).withUnsafeBytes { raw in
      try RecordParser.withParser(raw, limits: DecodeLimits()) { (parser) throws(DecodeError) -> [String] in
        var members = parser.unknown.map { (order: $0.order, key: String(decoding: $0.key, as: UTF8.self)) }
        for key in JournalKey.allCases where parser.seen & key.bit != 0 {
          members.append((parser.slots[Int(key.rawValue)].order, key.name))
        }
        return members.sorted { $0.order < $1.order }.map(\.key)
      }
    }
  }

  /// `Event.value(of:)` has a value for each key of the type (but a header's optional keys) and for no other.
  @Test(arguments: CodecRoundTripTests.cases)
  func everyEventHasAValueForEachKeyOfItsTypeAndNoOther(_ c: CodecRoundTripTests.Case) throws {
    let event = c.record.event
    let kind = try #require(event.kind)
    let optional: [JournalKey] = kind == .session ? [.app, .build, .device, .profile, .scenario] : []
    for key in JournalKey.allCases {
      if !kind.keyOrder.contains(key) {
        #expect(event.value(of: key) == nil, "\(key.name)")
      } else if !optional.contains(key) {
        #expect(event.value(of: key) != nil, "\(key.name)")
      }
    }
  }

  /// The decoder expects the envelope, then the type's keys in `keyOrder`; after a key out of
  /// that order, the keys that follow it there.
  @Test func theDecoderExpectsTheKeysInKeyOrder() {
    let tables = WireTables.shared
    #expect(Array(tables.envelope) == JournalKey.envelope)
    for kind in Event.Kind.allCases {
      #expect(Array(tables.keys(of: kind)) == kind.keyOrder, "\(kind)")
      #expect(tables.mask(of: kind) == kind.keyOrder.reduce(0) { $0 | $1.bit }, "\(kind)")
      for (k, key) in kind.keyOrder.enumerated() {
        #expect(tables.keys(of: kind).after(key).map(Array.init) == Array(kind.keyOrder[(k + 1)...]), "\(kind)")
      }
    }
    #expect(tables.keys(of: .root).after(.label) == nil)
    #expect(KeyQueue().first == nil)
  }

  /// Every name of every table is recognised from its bytes, whether 16 bytes may be read (words
  /// loaded) or only the name's (bytes copied); a name one byte longer or shorter is not.
  @Test func everyNameIsRecognisedAndNoNeighbour() {
    let tables = WireTables.shared
    expectTable(tables.keys, JournalKey.allCases.map { ($0.name, $0) })
    expectTable(tables.kinds, Event.Kind.allCases.map { ($0.rawValue, $0) })
    expectTable(tables.directions, Direction.allCases.map { ($0.rawValue, $0) })
    expectTable(tables.callbacks, Callback.allCases.map { ($0.rawValue, $0) })
    expectTable(tables.outcomes, PanOutcome.allCases.map { ($0.rawValue, $0) })
    expectTable(tables.triggers, MoveTrigger.allCases.map { ($0.rawValue, $0) })
  }

  func expectTable<T: Equatable>(_ table: NameTable<T>, _ names: [(String, T)]) {
    func match(_ name: String, padded: Bool) -> T? {
      let bytes = Array(name.utf8)
      let buffer = bytes + (padded ? Array(#"","controller":"x"}"#.utf8) : [0])
      return buffer.withUnsafeBufferPointer { p in
        table.match(p.baseAddress!, bytes.count, readable: padded ? buffer.count : bytes.count)
      }
    }
    for (name, value) in names {
      for padded in [false, true] {
        #expect(match(name, padded: padded) == value, "\(name)")
        #expect(match(name + "s", padded: padded) == nil, "\(name)s")
        #expect(match(String(name.dropLast()), padded: padded) == nil, "\(name.dropLast())")
        #expect(match(name.uppercased(), padded: padded) == nil, "\(name.uppercased())")
      }
    }
  }

  /// The decoder's guess of a key is the key in quotes and a colon, exactly.
  @Test func theExpectedKeyIsItsNameInQuotesAndAColon() {
    let tables = WireTables.shared
    for key in JournalKey.allCases {
      for (text, expected) in [("\"\(key.name)\":", true), ("\"\(key.name)\" :", false), ("\"\(key.name)x\":", false)] {
        let bytes = Array((text + "\"0123456789abcdef\"}").utf8)
        let found = bytes.withUnsafeBufferPointer { tables.quoted(key).isPrefix(at: $0.baseAddress!) }
        #expect(found == expected, "\(text)")
      }
      #expect(tables.quoted(key).count == key.name.utf8.count + 3)
    }
  }
}
