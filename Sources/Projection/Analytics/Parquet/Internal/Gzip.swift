import CZlib

/// Compresses one page with the system zlib, in gzip framing (RFC 1952: a 10-byte header,
/// deflate data, CRC-32 and length), which is what Parquet's `GZIP` codec means.
enum Gzip {
  /// The zlib level: 1, its fastest: on an events table much faster than level 6 for a little
  /// more size (Benchmarks/README.md#figures-behind-the-notes).
  static let level: Int32 = 1

  /// `bytes` compressed as one gzip member.
  static func compress(_ bytes: [UInt8]) -> [UInt8] {
    var stream = z_stream()
    // 15 + 16: the largest window, written with a gzip header and trailer.
    let status = deflateInit2_(
      &stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
    precondition(status == Z_OK, "zlib could not start deflating (status \(status))")
    defer { deflateEnd(&stream) }
    // deflateBound does not count the gzip header and trailer (18 bytes).
    let bound = Int(deflateBound(&stream, UInt(bytes.count))) + 32
    var out = [UInt8](repeating: 0, count: bound)
    let written = bytes.withUnsafeBufferPointer { input in
      out.withUnsafeMutableBufferPointer { output in
        stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
        stream.avail_in = UInt32(input.count)
        stream.next_out = output.baseAddress
        stream.avail_out = UInt32(output.count)
        let result = deflate(&stream, Z_FINISH)
        precondition(result == Z_STREAM_END, "zlib did not finish a page in its bound (status \(result))")
        return output.count - Int(stream.avail_out)
      }
    }
    out.removeSubrange(written...)
    return out
  }
}
