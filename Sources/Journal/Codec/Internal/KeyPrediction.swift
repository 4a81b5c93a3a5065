/// The order in which writers put keys, used to guess the next key of a line.
///
/// Implementation note: lines written by this project (and by any writer that
/// follows the spec) have their keys in one known order. The decoder first
/// compares the bytes at a key with the predicted `"key":` as one or two
/// words; only when that fails does it scan and recognise the key in the
/// general way. Keys in any other order are still accepted, just a little
/// more slowly.
extension JournalKey {
  /// The key writers put after `key`: `seq`, `time`, `type`, then the keys of
  /// `type` in the spec's order (nil while the type is not known, and after the last key).
  @inline(__always)
  static func predicted(after key: JournalKey, type: Event.Kind?) -> JournalKey? {
    switch key {
    case .seq: return .time
    case .time: return .type
    default: break
    }
    guard let type else { return nil }
    switch type {
    case .session:
      switch key {
      case .type: return .v
      case .v: return .session
      case .session: return .app
      case .app: return .build
      case .build: return .device
      case .device: return .profile
      case .profile: return .scenario
      default: return nil
      }
    case .alloc:
      return key == .type ? .controller : key == .controller ? .className : nil
    case .root, .dealloc:
      return key == .type ? .controller : nil
    case .link:
      return key == .type ? .from : key == .from ? .direction : key == .direction ? .to : nil
    case .unlink:
      return key == .type ? .from : key == .from ? .direction : nil
    case .modal:
      return key == .type ? .controller : key == .controller ? .presenter : nil
    case .touches:
      return key == .type ? .controller : key == .controller ? .direction : key == .direction ? .min : nil
    case .pan:
      switch key {
      case .type: return .controller
      case .controller: return .direction
      case .direction: return .touches
      case .touches: return .distance
      case .distance: return .velocity
      case .velocity: return .outcome
      default: return nil
      }
    case .move:
      switch key {
      case .type: return .from
      case .from: return .to
      case .to: return .direction
      case .direction: return .trigger
      case .trigger: return .animated
      default: return nil
      }
    case .lifecycle:
      return key == .type ? .controller : key == .controller ? .callback : nil
    case .mark:
      return key == .type ? .label : nil
    }
  }

  /// Whether the bytes at `p` are the key in quotes and a colon, as writers
  /// put it (`"seq":`); 16 bytes must be readable at `p`.
  /// - Returns: the length of that text, or nil.
  @inline(__always)
  func isQuotedWithColon(at p: UnsafePointer<UInt8>) -> Int? {
    let raw = UnsafeRawPointer(p)
    let first = UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self))
    let second = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
    @inline(__always) func test(_ literal: StaticString) -> Int? {
      let n = literal.utf8CodeUnitCount
      if n < 8 { return first & ((1 &<< UInt64(n * 8)) &- 1) == asciiWord(literal) ? n : nil }
      guard first == asciiWord(literal) else { return nil }
      return n == 8 || second & ((1 &<< UInt64((n - 8) * 8)) &- 1) == asciiWord(literal, from: 8) ? n : nil
    }
    switch self {
    case .seq: return test(#""seq":"#)
    case .time: return test(#""time":"#)
    case .type: return test(#""type":"#)
    case .v: return test(#""v":"#)
    case .session: return test(#""session":"#)
    case .app: return test(#""app":"#)
    case .build: return test(#""build":"#)
    case .device: return test(#""device":"#)
    case .profile: return test(#""profile":"#)
    case .scenario: return test(#""scenario":"#)
    case .controller: return test(#""controller":"#)
    case .className: return test(#""class":"#)
    case .from: return test(#""from":"#)
    case .direction: return test(#""direction":"#)
    case .to: return test(#""to":"#)
    case .presenter: return test(#""presenter":"#)
    case .min: return test(#""min":"#)
    case .touches: return test(#""touches":"#)
    case .distance: return test(#""distance":"#)
    case .velocity: return test(#""velocity":"#)
    case .outcome: return test(#""outcome":"#)
    case .trigger: return test(#""trigger":"#)
    case .animated: return test(#""animated":"#)
    case .callback: return test(#""callback":"#)
    case .label: return test(#""label":"#)
    }
  }
}
