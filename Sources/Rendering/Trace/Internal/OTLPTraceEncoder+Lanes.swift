import Journal
import Projection

// What the encoder keeps of each lane and span while a run is read: a span's events (or a lane's,
// waiting for its next visit), a lane's controller as the spans write it, a visit's open span.
extension OTLPTraceEncoder {
  /// The events of a span (or waiting for one), as a JSON array being written.
  struct Events {
    var json = JSONBuffer()
    var count = 0
    var dropped = 0
    /// The events dropped, by name (``dropped`` in all): the span says which (`dropped.events`).
    ///
    /// Implementation note: empty, a dictionary allocates nothing; a lane's waiting events are one
    /// per controller ever seen.
    var droppedNames: [String: Int] = [:]
    /// `rule: message` of the first finding.
    var error: String?

    init() { json.open("[") }

    /// No events and no buffer (not even the bracket): what a span's events leave behind when
    /// they are taken out of it (``closeSpan(_:)``) without a copy.
    init(taken: Void) {}

    /// Empties the events, keeping the buffer's capacity.
    mutating func reset() {
      json.close("]")  // never closed: ``spanEvents(_:)`` writes the bracket after them
      json.drain { _ in }
      json.open("[")
      (count, dropped, error) = (0, 0, nil)
      if !droppedNames.isEmpty { droppedNames.removeAll() }
    }

    /// Counts an event the span's limit leaves out.
    mutating func drop(_ name: String, count: Int = 1) {
      dropped += count
      droppedNames[name, default: 0] += count
    }

    /// What was dropped, `N NAME` by name: `7 deallocated, 5 didLoad`.
    var droppedText: String {
      droppedNames.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
    }

    /// Appends `other`'s events (a lane's waiting ones) to these, which have none yet.
    mutating func take(_ other: Events) {
      if other.count > 0 {
        json.element()
        // Through a buffer pointer: a slice of the array would retain and release it.
        other.json.bytes.withUnsafeBufferPointer { bytes in
          json.withBytes { $0.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[1...])) }
        }
      }
      (count, dropped, error, droppedNames) = (other.count, other.dropped, other.error, other.droppedNames)
    }
  }

  /// A lane's controller as the spans write it, made at its first span or move to it.
  struct LaneText {
    var id: ControllerID
    /// `"ID"`, escaped.
    var quotedID: [UInt8]
    /// The class that ``quotedName`` and ``quotedClass`` were made for.
    var className: String?
    /// `"CLASS"` (the id's without a class): the span's name.
    var quotedName: [UInt8]

    init(_ id: ControllerID) {
      self.id = id
      quotedID = []
      JSONWriter.appendString(id.rawValue, to: &quotedID)
      quotedName = quotedID
    }

    mutating func name(_ className: String?) {
      guard className != self.className else { return }
      self.className = className
      if let className {
        quotedName.removeAll(keepingCapacity: true)
        JSONWriter.appendString(className, to: &quotedName)
      } else {
        quotedName = quotedID
      }
    }
  }

  /// A visit's span while it takes events.
  struct OpenSpan {
    var id: UInt64
    var start: Timestamp
    /// The lane of `last.screen.name`.
    var lastScreen: Int?
    var events: Events
    /// Set when the visit ended: the span still takes the willDisappear and didDisappear that follow.
    var visit: Visit?
  }

  enum SpanState: UInt8 {
    case none, open, ended
  }

  struct LaneSpans {
    var span: OpenSpan?
    var pending = Events()
  }
}
