import Journal
import Projection

extension HeaderGroups {
  /// A group's key in JSON, `"key":{"build":"3.2 (41)","device":null}`, the fields in the order of ``keys``.
  package func writeKey(_ key: [String?], to json: inout JSONBuffer) {
    json.object("key") { json in
      for (field, value) in zip(keys, key) { json.member(field.rawValue, value) }
    }
  }

  /// The members of a grouped result, inside its object:
  /// `"by":[KEY...],"groups":[{"key":{...},BODY}, ...],"overall":{BODY}`, each BODY written by `body`.
  package func writeJSONMembers(overall: Value, to json: inout JSONBuffer, _ body: (Value, inout JSONBuffer) -> Void) {
    json.member("by", strings: keys.map(\.rawValue))
    json.array("groups") { json in
      for group in groups {
        json.objectElement { json in
          writeKey(group.key, to: &json)
          body(group.value, &json)
        }
      }
    }
    json.object("overall") { body(overall, &$0) }
  }
}
