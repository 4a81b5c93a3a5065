/// Values of any kind, and nested objects and arrays followed with an explicit stack.
extension JSONScanner {
  /// Scans any value at `index` (after whitespace) and moves past it.
  /// - Parameters:
  ///   - depth: the nesting depth of the container the value is in (the top-level object is 1).
  ///   - container: what the value is inside, for the end-of-line message.
  @inline(__always)
  mutating func scanValue(depth: Int, inside container: JSONContainer) throws(DecodeError) -> JSONValueRef {
    guard index < count else { throw .malformed(count, "unexpected end of line inside \(container.phrase)") }
    let start = index
    switch base[index] {
    case Self.quote:
      let escaped = try scanString()
      return JSONValueRef(kind: .string, flag: escaped, start: start, end: index)
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
      let fractional = try scanNumber()
      return JSONValueRef(kind: .number, flag: fractional, start: start, end: index)
    case UInt8(ascii: "t"):
      try scanLiteral("true", inside: container)
      return JSONValueRef(kind: .bool, flag: true, start: start, end: index)
    case UInt8(ascii: "f"):
      try scanLiteral("false", inside: container)
      return JSONValueRef(kind: .bool, flag: false, start: start, end: index)
    case UInt8(ascii: "n"):
      try scanLiteral("null", inside: container)
      return JSONValueRef(kind: .null, flag: false, start: start, end: index)
    case UInt8(ascii: "{"):
      try scanContainer(depth: depth + 1)
      return JSONValueRef(kind: .object, flag: false, start: start, end: index)
    case UInt8(ascii: "["):
      try scanContainer(depth: depth + 1)
      return JSONValueRef(kind: .array, flag: false, start: start, end: index)
    case UInt8(ascii: "+"), UInt8(ascii: "."):
      throw .malformed(start, "invalid number")
    default:
      throw expectedValue(inside: container)
    }
  }

  /// One open container of ``scanContainer(depth:)``.
  private struct Frame {
    var isObject: Bool
    /// The keys seen so far (objects only), unescaped.
    var keys: Set<[UInt8]> = []
  }

  /// Scans the object or array at `index`, with everything nested in it, and moves past it.
  ///
  /// Implementation note: nesting is followed with an explicit stack rather
  /// than recursion, and the depth is checked before each container is
  /// entered, so a hostile line can neither overflow the machine stack nor
  /// go deeper than `maxDepth`. Nested values only occur in keys the format
  /// does not define, so this path may allocate.
  /// - Parameter depth: the depth of the container at `index`.
  @inline(never)
  mutating func scanContainer(depth: Int) throws(DecodeError) {
    guard depth <= maxDepth else { throw .tooDeep(index, limit: maxDepth) }
    var frames = [Frame(isObject: base[index] == UInt8(ascii: "{"))]
    index += 1
    var first = true
    while true {
      skipWhitespace()
      var isObject = frames[frames.count - 1].isObject
      var container: JSONContainer { isObject ? .object : .array }
      let close = isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
      if first, index < count, base[index] == close {
        index += 1
        frames.removeLast()
        if frames.isEmpty { return }
      } else {
        if isObject {
          guard index < count, base[index] == Self.quote else {
            throw unexpected("expected '\"' to start a key", inside: .object)
          }
          let keyStart = index
          let escaped = try scanString()
          let key =
            escaped
            ? unescape(from: keyStart + 1, to: index - 1)
            : Array(UnsafeBufferPointer(start: base + keyStart + 1, count: index - 1 - (keyStart + 1)))
          guard frames[frames.count - 1].keys.insert(key).inserted else { throw .duplicateKey(keyStart, key) }
          skipWhitespace()
          guard index < count, base[index] == UInt8(ascii: ":") else {
            throw unexpected("expected ':' after a key", inside: .object)
          }
          index += 1
          skipWhitespace()
        }
        if index < count, base[index] == UInt8(ascii: "{") || base[index] == UInt8(ascii: "[") {
          guard depth + frames.count <= maxDepth else { throw .tooDeep(index, limit: maxDepth) }
          frames.append(Frame(isObject: base[index] == UInt8(ascii: "{")))
          index += 1
          first = true
          continue
        }
        _ = try scanValue(depth: depth + frames.count - 1, inside: container)
      }
      // After a value: a comma, or the end of one or more containers.
      while true {
        skipWhitespace()
        isObject = frames[frames.count - 1].isObject
        guard index < count else {
          throw .malformed(count, "unexpected end of line inside \(container.phrase)")
        }
        if base[index] == UInt8(ascii: ",") {
          index += 1
          first = false
          break
        }
        guard base[index] == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) else {
          throw unexpected(
            isObject ? "expected ',' or '}' after a value" : "expected ',' or ']' after a value", inside: container)
        }
        index += 1
        frames.removeLast()
        if frames.isEmpty { return }
      }
    }
  }
}
