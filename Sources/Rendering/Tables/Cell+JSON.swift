import Projection

extension Cell: CustomStringConvertible {
  /// The value as NDJSON writes it: `"home"`, `12`, `250.0`, `true`, `null`.
  public var description: String {
    var out: [UInt8] = []
    TableEncoder.appendJSON(self, to: &out)
    return String(decoding: out, as: UTF8.self)
  }
}
