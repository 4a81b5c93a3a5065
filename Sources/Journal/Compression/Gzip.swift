import CZlib

/// Compresses bytes with the system zlib, in gzip framing (RFC 1952: a 10-byte
/// header, deflate data, CRC-32 and length): Parquet's `GZIP` pages, the trace a
/// report's page carries and the recorder's closed segments. ``GzipInflater`` reads it back.
package enum Gzip {
  /// The zlib level of Parquet pages: 1, its fastest: on an events table much faster than level 6
  /// for a little more size.
  package static let level: Int32 = 1

  /// `bytes` compressed as one gzip member.
  package static func compress(_ bytes: [UInt8], level: Int32 = Gzip.level) -> [UInt8] {
    let stream = Stream(level: level)
    stream.append(bytes)
    return stream.finish()
  }

  /// One gzip member written piece by piece: memory is zlib's state and the output so far.
  package final class Stream {
    private let zlib: ZlibStream
    private var out: [UInt8] = []
    private var finished = false
    /// Bytes taken in so far.
    package private(set) var bytesIn = 0

    package init(level: Int32) {
      zlib = ZlibStream(deflatingAt: level)
    }

    /// Compresses `bytes` (the output grows as zlib fills its blocks).
    package func append(_ bytes: [UInt8]) {
      precondition(!finished, "a finished gzip member takes no more bytes")
      bytesIn += bytes.count
      // zlib's `next_in` is not const: it reads a copy of its own, which `bytes`' owner never sees.
      var input = bytes
      input.withUnsafeMutableBufferPointer { deflate($0, flush: Z_NO_FLUSH) }
    }

    /// Ends the member and returns it whole.
    package func finish() -> [UInt8] {
      if !finished {
        finished = true
        deflate(UnsafeMutableBufferPointer(start: nil, count: 0), flush: Z_FINISH)
      }
      return out
    }

    private func deflate(_ input: UnsafeMutableBufferPointer<UInt8>, flush: Int32) {
      let stream = zlib.z
      stream.pointee.next_in = input.baseAddress
      stream.pointee.avail_in = UInt32(input.count)
      // Implementation note: through a fixed scratch buffer, so that the output grows by what
      // zlib wrote, not by room for the worst case of each piece of input.
      withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 1 << 16) { scratch in
        while true {
          stream.pointee.next_out = scratch.baseAddress
          stream.pointee.avail_out = UInt32(scratch.count)
          let result = CZlib.deflate(stream, flush)
          precondition(
            result == Z_OK || result == Z_STREAM_END || result == Z_BUF_ERROR, "zlib failed (status \(result))")
          let produced = scratch.count - Int(stream.pointee.avail_out)
          out.append(contentsOf: UnsafeBufferPointer(rebasing: scratch[..<produced]))
          let done = flush == Z_FINISH ? result == Z_STREAM_END : stream.pointee.avail_in == 0
          if done && stream.pointee.avail_out > 0 { return }
        }
      }
    }
  }
}
