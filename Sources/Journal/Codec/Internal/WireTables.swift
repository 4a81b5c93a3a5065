/// The codec's tables, built once from the wire schema: the spelling of each
/// key (``JournalKey/name``), each type's keys in order (``Event/Kind/keyOrder``),
/// the type names and the small enumerations' raw values.
///
/// Implementation note: a Swift global computed at first use is checked
/// (`swift_once`) at every access, a call on every key of every line; so the
/// decoder and the encoder take ``shared`` once per line, and read the tables
/// through it. The tables are allocated once and never freed or changed, which
/// is why the class may be shared between threads.
final class WireTables: @unchecked Sendable {
  static let shared = WireTables()

  /// The keys, by spelling.
  let keys = NameTable(JournalKey.allCases.map { (name: $0.name, value: $0) })
  /// The event types, by wire name.
  let kinds = NameTable(rawValuesOf: Event.Kind.self)
  let directions = NameTable(rawValuesOf: Direction.self)
  let callbacks = NameTable(rawValuesOf: Callback.self)
  let outcomes = NameTable(rawValuesOf: PanOutcome.self)
  let triggers = NameTable(rawValuesOf: MoveTrigger.self)
  /// `seq`, `time`, `type`: the keys every line starts with.
  let envelope = KeyQueue(JournalKey.envelope)
  /// 10^0 to 10^22, each an exact `Double` (``JSONScanner/powersOfTen``), in memory never freed.
  let powersOfTen = WireTables.table(JSONScanner.powersOfTen) { $0 }
  /// Whether short strings may be made from their words (``SmallASCII/isAvailable``).
  let smallStrings = SmallASCII.isAvailable

  /// `{"seq":`, `,"time":"`, `true` and `false`: the fixed pieces of a line in the writer's form (``CanonicalLine``).
  let lineStart = ShortText("{\"seq\":")
  let timeMember = ShortText(",\"time\":\"")
  let trueText = ShortText("true")
  let falseText = ShortText("false")

  /// `"key":`, by ``JournalKey/rawValue``.
  private let quotedKeys = WireTables.table(JournalKey.allCases) { ShortText("\"\($0.name)\":") }
  /// `,"key":`, by ``JournalKey/rawValue``.
  private let members = WireTables.table(JournalKey.allCases) { ShortText(",\"\($0.name)\":") }
  /// `"name"`, by ``Event/Kind/index``.
  private let quotedKinds = WireTables.table(Event.Kind.allCases) { ShortText("\"\($0.rawValue)\"") }
  /// Each type's keys after the envelope, in order, by ``Event/Kind/index``.
  private let orders = WireTables.table(Event.Kind.allCases) { KeyQueue($0.keyOrder) }
  /// Each type's keys as a mask, by ``Event/Kind/index``.
  private let masks = WireTables.table(Event.Kind.allCases) { $0.keyOrder.reduce(0) { $0 | $1.bit } }

  private init() {
    precondition(JournalKey.allCases.map(\.rawValue) == Array(0..<UInt8(JournalKey.count)), "keys numbered 0, 1, ...")
  }

  /// The key as writers put it, `"key":`, the decoder's guess.
  @inline(__always)
  func quoted(_ key: JournalKey) -> ShortText { quotedKeys[Int(key.rawValue)] }

  /// `,"key":`, what the encoder writes before the key's value.
  @inline(__always)
  func member(_ key: JournalKey) -> ShortText { members[Int(key.rawValue)] }

  /// The type's name in quotes, the value of `type`.
  @inline(__always)
  func quoted(_ kind: Event.Kind) -> ShortText { quotedKinds[kind.index] }

  /// The type's keys after the envelope, in the order writers put them.
  @inline(__always)
  func keys(of kind: Event.Kind) -> KeyQueue { orders[kind.index] }

  /// The type's keys after the envelope, as a mask.
  @inline(__always)
  func mask(of kind: Event.Kind) -> UInt32 { masks[kind.index] }

  /// `row(item)` for each of `items` (in the order of their raw value or index), in memory never freed.
  private static func table<Item, Row>(_ items: [Item], _ row: (Item) -> Row) -> UnsafeMutableBufferPointer<Row> {
    let table = UnsafeMutableBufferPointer<Row>.allocate(capacity: items.count)
    _ = table.initialize(from: items.map(row))
    return table
  }
}
