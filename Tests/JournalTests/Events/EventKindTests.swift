import Testing

@testable import Journal

/// `Event.Kind` is the one list of types, and every small enum's `index` is its
/// position in `allCases`, so fixed-size tables indexed by them line up.
@Suite struct EventKindTests {
  @Test func indexesArePositionsInAllCases() {
    #expect(Event.Kind.allCases.map(\.index) == Array(Event.Kind.allCases.indices))
    #expect(Callback.allCases.map(\.index) == Array(Callback.allCases.indices))
    #expect(PanOutcome.allCases.map(\.index) == Array(PanOutcome.allCases.indices))
    #expect(MoveTrigger.allCases.map(\.index) == Array(MoveTrigger.allCases.indices))
  }

  @Test func knownTypeNamesComeFromTheKinds() {
    #expect(Event.knownTypeNames == Event.Kind.allCases.map(\.rawValue))
    #expect(Set(Event.knownTypeNames).count == Event.Kind.allCases.count)
  }

  @Test(arguments: CodecRoundTripTests.cases)
  func everyEventHasTheKindOfItsTypeName(_ c: CodecRoundTripTests.Case) {
    #expect(c.record.event.kind?.rawValue == c.record.event.typeName)
  }

  @Test func decoderMatchesEveryKindByItsWireName() {
    for kind in Event.Kind.allCases {
      let bytes = Array(kind.rawValue.utf8)
      let matched = bytes.withUnsafeBufferPointer {
        WireTables.shared.kinds.match($0.baseAddress!, $0.count, readable: $0.count)
      }
      #expect(matched == kind)
    }
  }

  @Test func unknownTypesHaveNoKind() {
    let event = Event.unknown(type: "zoom", raw: #"{"seq":1,"type":"zoom"}"#)
    #expect(event.kind == nil)
    #expect(event.typeName == "zoom")
  }
}
