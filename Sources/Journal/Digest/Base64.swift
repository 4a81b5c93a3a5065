/// Base64 (RFC 4648, with padding), for the policy's hashes and the trace a page carries.
package enum Base64 {
  private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

  /// Appends the base64 text of `bytes` to `out`.
  package static func encode(_ bytes: [UInt8], to out: inout [UInt8]) {
    out.reserveCapacity(out.count + (bytes.count + 2) / 3 * 4)
    bytes.withUnsafeBufferPointer { input in
      alphabet.withUnsafeBufferPointer { alphabet in
        var i = 0
        while i + 3 <= input.count {
          let v = UInt32(input[i]) << 16 | UInt32(input[i + 1]) << 8 | UInt32(input[i + 2])
          out.append(alphabet[Int(v >> 18 & 63)])
          out.append(alphabet[Int(v >> 12 & 63)])
          out.append(alphabet[Int(v >> 6 & 63)])
          out.append(alphabet[Int(v & 63)])
          i += 3
        }
        let n = input.count - i
        guard n > 0 else { return }
        let v = UInt32(input[i]) << 16 | (n > 1 ? UInt32(input[i + 1]) << 8 : 0)
        out.append(alphabet[Int(v >> 18 & 63)])
        out.append(alphabet[Int(v >> 12 & 63)])
        out.append(n > 1 ? alphabet[Int(v >> 6 & 63)] : UInt8(ascii: "="))
        out.append(UInt8(ascii: "="))
      }
    }
  }

  /// The base64 text of `bytes`.
  package static func encode(_ bytes: [UInt8]) -> String {
    var out: [UInt8] = []
    encode(bytes, to: &out)
    return String(decoding: out, as: UTF8.self)
  }
}
