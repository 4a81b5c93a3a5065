import Stepper

/// Turns the bytes a terminal sends into ``StepperKey``s: printable UTF-8
/// characters, control keys, and the escape sequences of the arrows, Home,
/// End, PgUp, PgDn and F1 (both the `ESC [` and the `ESC O` forms).
///
/// Bytes arrive in arbitrary pieces, so an incomplete sequence waits for the
/// next ``feed(_:)``. A lone `ESC` is the Escape key only once no more bytes
/// came within a short delay: the caller then asks with `flush: true`.
///
/// ```swift
/// var decoder = KeyDecoder()
/// decoder.feed(Array("l\u{1B}[6~".utf8))
/// decoder.keys(flush: false)   // [.character("l"), .pageDown]
/// ```
struct KeyDecoder {
  private var pending: [UInt8] = []

  /// Whether bytes wait for the rest of a sequence (the caller then waits a little, then flushes).
  var isWaiting: Bool { !pending.isEmpty }

  mutating func feed(_ bytes: some Sequence<UInt8>) {
    pending.append(contentsOf: bytes)
  }

  /// The keys complete so far.
  ///
  /// - Parameter flush: no more bytes are coming soon: a lone `ESC` is Escape
  ///   and an unfinished sequence is dropped.
  mutating func keys(flush: Bool) -> [StepperKey] {
    var keys: [StepperKey] = []
    var i = 0
    while i < pending.count {
      switch decode(at: i, flush: flush) {
      case .key(let key, let length):
        if let key { keys.append(key) }
        i += length
      case .incomplete:
        if flush {
          i = pending.count
        } else {
          pending.removeFirst(i)
          return keys
        }
      }
    }
    pending.removeAll()
    return keys
  }

  private enum Decoded {
    /// A key (nil for bytes that mean nothing here) and the bytes it took.
    case key(StepperKey?, length: Int)
    case incomplete
  }

  private func decode(at i: Int, flush: Bool) -> Decoded {
    let byte = pending[i]
    switch byte {
    case 0x1B:
      return escape(at: i, flush: flush)
    case 0x0D, 0x0A:
      return .key(.enter, length: 1)
    case 0x7F, 0x08:
      return .key(.backspace, length: 1)
    case 0x09:
      return .key(.tab, length: 1)
    case 0x00..<0x20:
      return .key(nil, length: 1)
    case 0x20..<0x80:
      return .key(.character(Character(Unicode.Scalar(byte))), length: 1)
    default:
      return utf8(at: i)
    }
  }

  private func escape(at i: Int, flush: Bool) -> Decoded {
    guard i + 1 < pending.count else { return flush ? .key(.escape, length: 1) : .incomplete }
    let introducer = pending[i + 1]
    if introducer == UInt8(ascii: "O") {
      guard i + 2 < pending.count else { return .incomplete }
      let keys: [UInt8: StepperKey] = [
        UInt8(ascii: "A"): .up, UInt8(ascii: "B"): .down, UInt8(ascii: "C"): .right, UInt8(ascii: "D"): .left,
        UInt8(ascii: "H"): .home, UInt8(ascii: "F"): .end, UInt8(ascii: "P"): .f1,
      ]
      return .key(keys[pending[i + 2]], length: 3)
    }
    guard introducer == UInt8(ascii: "[") else {
      // ESC then another key (Alt+key): Escape, and the key on its own.
      return .key(.escape, length: 1)
    }
    // CSI: parameter bytes 0x30-0x3F, intermediates 0x20-0x2F, one final byte 0x40-0x7E.
    var j = i + 2
    var parameter = 0
    var firstParameter: Int?
    while j < pending.count, pending[j] >= 0x20, pending[j] < 0x40 {
      if pending[j] >= UInt8(ascii: "0") && pending[j] <= UInt8(ascii: "9") {
        parameter = min(parameter * 10 + Int(pending[j] - UInt8(ascii: "0")), 10_000)
      } else if pending[j] == UInt8(ascii: ";") && firstParameter == nil {
        firstParameter = parameter
      }
      j += 1
    }
    guard j < pending.count else { return .incomplete }
    let final = pending[j]
    let length = j - i + 1
    let number = firstParameter ?? parameter
    switch final {
    case UInt8(ascii: "A"): return .key(.up, length: length)
    case UInt8(ascii: "B"): return .key(.down, length: length)
    case UInt8(ascii: "C"): return .key(.right, length: length)
    case UInt8(ascii: "D"): return .key(.left, length: length)
    case UInt8(ascii: "H"): return .key(.home, length: length)
    case UInt8(ascii: "F"): return .key(.end, length: length)
    case UInt8(ascii: "P"): return .key(.f1, length: length)
    case UInt8(ascii: "~"):
      switch number {
      case 1, 7: return .key(.home, length: length)
      case 4, 8: return .key(.end, length: length)
      case 5: return .key(.pageUp, length: length)
      case 6: return .key(.pageDown, length: length)
      case 11: return .key(.f1, length: length)
      default: return .key(nil, length: length)
      }
    default:
      return .key(nil, length: length)
    }
  }

  /// One UTF-8 encoded character; invalid bytes are skipped one at a time.
  private func utf8(at i: Int) -> Decoded {
    let lead = pending[i]
    let length: Int
    switch lead {
    case 0xC2...0xDF: length = 2
    case 0xE0...0xEF: length = 3
    case 0xF0...0xF4: length = 4
    default: return .key(nil, length: 1)
    }
    guard i + length <= pending.count else { return .incomplete }
    var decoder = UTF8()
    var iterator = pending[i..<(i + length)].makeIterator()
    if case .scalarValue(let scalar) = decoder.decode(&iterator) {
      return .key(.character(Character(scalar)), length: length)
    }
    return .key(nil, length: 1)
  }
}
