import CZlib

/// One zlib stream in gzip framing (RFC 1952), deflating or inflating: the package's one owner of
/// a `z_stream`, for ``Gzip/Stream`` and ``GzipInflater``.
///
/// A class: zlib's state points back at its `z_stream`, which must not move between calls.
final class ZlibStream {
  /// The stream, at a fixed address for as long as this object lives.
  let z: UnsafeMutablePointer<z_stream>
  private let inflating: Bool

  /// A deflating stream at zlib's `level` (0...9).
  init(deflatingAt level: Int32) {
    z = .allocate(capacity: 1)
    z.initialize(to: z_stream())
    inflating = false
    // 15 + 16: the largest window, written with a gzip header and trailer.
    let status = deflateInit2_(
      z, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
    precondition(status == Z_OK, "zlib could not start deflating (status \(status))")
  }

  /// An inflating stream.
  init(inflating: Void) {
    z = .allocate(capacity: 1)
    z.initialize(to: z_stream())
    self.inflating = true
    // 15 + 16: the largest window, with a gzip header and trailer (not raw deflate, not zlib).
    let status = inflateInit2_(z, 15 + 16, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
    precondition(status == Z_OK, "zlib could not start inflating (status \(status))")
  }

  deinit {
    if inflating { inflateEnd(z) } else { deflateEnd(z) }
    z.deallocate()
  }
}
