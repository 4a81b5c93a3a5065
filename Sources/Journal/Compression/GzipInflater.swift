import CZlib

/// Decompresses a gzip stream read through a byte source, a chunk at a time.
///
/// Several gzip members one after the other (`cat a.gz b.gz`) read as their
/// concatenation, as `gzip -dc` reads them. Memory stays constant: one input
/// buffer of ``inputSize`` bytes (or the first read's size) and zlib's 32 KiB window.
final class GzipInflater {
  /// What went wrong: the source's read failed, or the data is not valid gzip.
  enum Failure: Error {
    case read(Errno)
    case data(String)
  }

  /// The size of one read of compressed bytes.
  static let inputSize = 1 << 18

  private let zlib = ZlibStream(inflating: ())
  private var stream: UnsafeMutablePointer<z_stream> { zlib.z }
  private let input: UnsafeMutablePointer<UInt8>
  private let inputCapacity: Int
  private var sourceEnded = false
  /// Set at the end of a member, until the next member's first output.
  private var betweenMembers = false
  private var finished = false

  /// Starts inflating with the compressed bytes already read from the source.
  init(initial: UnsafeRawBufferPointer) {
    inputCapacity = max(Self.inputSize, initial.count)
    input = .allocate(capacity: inputCapacity)
    if let base = initial.baseAddress {
      input.initialize(from: base.assumingMemoryBound(to: UInt8.self), count: initial.count)
    }
    stream.pointee.next_in = input
    stream.pointee.avail_in = UInt32(initial.count)
  }

  deinit {
    input.deallocate()
  }

  /// Whether `bytes` starts with the gzip magic number `1F 8B`.
  static func isGzip(_ bytes: UnsafeRawBufferPointer) -> Bool {
    bytes.count >= 2 && bytes[0] == 0x1F && bytes[1] == 0x8B
  }

  /// Decompresses up to `count` bytes into `output`.
  /// - Parameter source: reads up to `count` compressed bytes into a buffer; 0 at the end.
  /// - Returns: the bytes written; 0 at the end of the last member.
  func read(
    into output: UnsafeMutableRawPointer, count: Int,
    source: (UnsafeMutableRawPointer, Int) throws(Errno) -> Int
  ) throws(Failure) -> Int {
    let wanted = UInt32(clamping: count)
    stream.pointee.next_out = output.assumingMemoryBound(to: UInt8.self)
    stream.pointee.avail_out = wanted
    while stream.pointee.avail_out == wanted && !finished {
      if stream.pointee.avail_in == 0 && !sourceEnded { try refill(from: source) }
      let status = inflate(stream, Z_NO_FLUSH)
      switch status {
      case Z_STREAM_END:
        betweenMembers = true
        // More input may hold another member: read on before deciding.
        if stream.pointee.avail_in == 0 && !sourceEnded { try refill(from: source) }
        if stream.pointee.avail_in == 0 {
          finished = true
        } else {
          inflateReset(stream)
        }
      case Z_OK:
        if stream.pointee.avail_out < wanted { betweenMembers = false }
      case Z_BUF_ERROR where stream.pointee.avail_in == 0 && sourceEnded:
        throw .data("the gzip data is truncated (it ends inside the compressed stream)")
      case Z_BUF_ERROR:
        continue
      default:
        let reason = stream.pointee.msg.map { String(cString: $0) } ?? "zlib status \(status)"
        throw .data(
          betweenMembers
            ? "the data after the gzip stream is not gzip (\(reason))" : "the gzip data is corrupt (\(reason))")
      }
    }
    return Int(wanted - stream.pointee.avail_out)
  }

  /// Reads the next compressed bytes into the (consumed) input buffer.
  private func refill(from source: (UnsafeMutableRawPointer, Int) throws(Errno) -> Int) throws(Failure) {
    let n: Int
    do {
      n = try source(UnsafeMutableRawPointer(input), inputCapacity)
    } catch {
      throw .read(error)
    }
    sourceEnded = n == 0
    stream.pointee.next_in = input
    stream.pointee.avail_in = UInt32(n)
  }
}
