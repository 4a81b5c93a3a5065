import Journal
import Testing

/// `JSONBuffer` places the commas and brackets: its member, object and array helpers
/// write what the same calls of `key`, `open`, `element` and `close` write.
@Suite struct JSONBufferTests {
  @Test func helpersWriteTheDocumentedShape() {
    var json = JSONBuffer()
    json.object {
      $0.member("events", 12)
      $0.member("files", strings: ["a.ndjson", nil])
      $0.member("empty", nil as Int?)
      $0.member("ok", true)
      $0.object("header") { $0.member("session", "S\u{1}") }
      $0.array("controllers") { list in
        for id in ["home", "notes"] { list.objectElement { $0.member("id", id) } }
      }
      $0.member("seqs", ints: [1, 2])
      $0.array("none") { _ in }
    }
    #expect(
      json.text
        == #"{"events":12,"files":["a.ndjson",null],"empty":null,"ok":true,"header":{"session":"S\u0001"},"#
        + #""controllers":[{"id":"home"},{"id":"notes"}],"seqs":[1,2],"none":[]}"#)
  }

  @Test func helpersMatchTheLowLevelCalls() {
    var a = JSONBuffer()
    a.open("[")
    a.objectElement { $0.member("x", 1) }
    a.objectElement { $0.member("y", "z") }
    a.close("]")
    var b = JSONBuffer()
    b.open("[")
    for (key, value) in [("x", "1"), ("y", "\"z\"")] {
      b.element()
      b.open("{")
      b.key(key)
      b.raw(value)
      b.close("}")
    }
    b.close("]")
    #expect(a.text == b.text)
  }

  /// The commas are right at any depth: the flags of the innermost 64 levels
  /// are kept as bits and those further out aside, and both come back as the
  /// brackets close (checked against a nesting built as text).
  @Test(arguments: [1, 63, 64, 65, 130, 300])
  func commasAreRightAtAnyDepth(depth: Int) {
    var json = JSONBuffer()
    var expected = ""
    func nest(_ level: Int) {
      json.open(level.isMultiple(of: 2) ? "[" : "{")
      expected += level.isMultiple(of: 2) ? "[" : "{"
      for k in 0..<2 {
        if level.isMultiple(of: 2) {
          json.element()
          expected += k == 0 ? "" : ","
        } else {
          json.key("k\(k)")
          expected += (k == 0 ? "" : ",") + "\"k\(k)\":"
        }
        if k == 1 && level + 1 < depth {
          nest(level + 1)
        } else {
          json.int(level)
          expected += "\(level)"
        }
      }
      json.close(level.isMultiple(of: 2) ? "]" : "}")
      expected += level.isMultiple(of: 2) ? "]" : "}"
    }
    nest(0)
    json.open("[")
    json.element()
    json.int(-1)
    json.close("]")
    expected += "[-1]"
    #expect(json.text == expected)
  }
}
