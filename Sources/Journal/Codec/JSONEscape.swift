/// The escapes of a JSON string that stand for a control character, said once for
/// every reader that undoes them (the decoder, `Record`'s raw values, the Parquet list column).
package enum JSONEscape {
  /// The byte `\b`, `\f`, `\n`, `\r` or `\t` stands for, given the letter after the
  /// backslash; nil for any other letter.
  @inline(__always)
  package static func control(_ letter: UInt8) -> UInt8? {
    switch letter {
    case UInt8(ascii: "b"): 0x08
    case UInt8(ascii: "f"): 0x0C
    case UInt8(ascii: "n"): 0x0A
    case UInt8(ascii: "r"): 0x0D
    case UInt8(ascii: "t"): 0x09
    default: nil
    }
  }
}
