import Journal

@testable import Projection
@testable import TestSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// How much the hardening tests do: a fixed seed and budget in CI, more from the environment.
///
/// - `SPATIAL_REPLAY_FUZZ_SEED=S`: the seed of every fuzz test (default 1).
/// - `SPATIAL_REPLAY_FUZZ_ITERATIONS=N`: mutated lines fed to the decoder
///   (default 10,000); the other fuzz tests scale with it (reader: N/30
///   journals, commands in process: N/250 journals, the binary: N/2,500 journals).
/// - `SPATIAL_REPLAY_CRASH_TRIALS=N`: writer kills per durability policy (default 200).
/// - `SPATIAL_REPLAY_LIMITS_CONTROLLERS=N`: size of the controller chain (default 50,000; the
///   full test is 1,000,000).
///
/// See docs/hardening.md for the longer runs.
enum FuzzSettings {
  static let seed: UInt64 = environment("SPATIAL_REPLAY_FUZZ_SEED").flatMap { UInt64($0) } ?? 1
  static let iterations: Int =
    environment("SPATIAL_REPLAY_FUZZ_ITERATIONS").flatMap { Int($0) }.map { max($0, 1) }
    ?? 10_000
  static let crashTrials: Int = environment("SPATIAL_REPLAY_CRASH_TRIALS").flatMap { Int($0) }.map { max($0, 1) } ?? 200
  static let controllers: Int =
    environment("SPATIAL_REPLAY_LIMITS_CONTROLLERS").flatMap { Int($0) }.map { max($0, 2) } ?? 50_000

  /// `iterations / divisor`, at least `minimum`.
  static func scaled(_ divisor: Int, minimum: Int = 1) -> Int { max(minimum, iterations / divisor) }

  static func environment(_ name: String) -> String? { getenv(name).map { String(cString: $0) } }
}

/// A deterministic pseudo-random generator (SplitMix64): one seed, always the same sequence.
///
/// Implementation note: it draws from the simulator's ``SplitMix64`` but keeps
/// its own `below` (a modulo), so a seed gives the same inputs as it always did.
struct FuzzRandom: RandomNumberGenerator {
  private var generator: SplitMix64

  init(seed: UInt64) { generator = SplitMix64(seed: seed) }

  mutating func next() -> UInt64 { generator.next() }

  /// A number in `0..<bound`.
  mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(max(bound, 1))) }

  /// True with probability `percent` / 100.
  mutating func percent(_ percent: Int) -> Bool { below(100) < percent }

  /// One element of a non-empty array.
  mutating func pick<T>(_ values: [T]) -> T { values[below(values.count)] }
}

/// The bundled journals (`Journals/*.ndjson`), read once: the valid inputs the fuzzers mutate.
enum FuzzCorpus {
  static let directory = Repository.journals

  /// Every bundled journal, by file name, sorted.
  static let journals: [(name: String, bytes: [UInt8])] = {
    var names: [String] = []
    if let dir = opendir(directory) {
      while let entry = readdir(dir) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
          String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
        }
        if name.hasSuffix(".ndjson") { names.append(name) }
      }
      closedir(dir)
    }
    return names.sorted().map { ($0, readWholeFile(directory + "/" + $0) ?? []) }
  }()

  /// Every line of every bundled journal, without its `\n`.
  static let lines: [[UInt8]] = journals.flatMap { journal in
    journal.bytes.split(separator: 0x0A, omittingEmptySubsequences: true).map { Array($0) }
  }
}

/// The bytes of a file, or `nil` if it cannot be read.
func readWholeFile(_ path: String) -> [UInt8]? {
  let fd = open(path, O_RDONLY | O_CLOEXEC)
  guard fd >= 0 else { return nil }
  defer { close(fd) }
  var bytes: [UInt8] = []
  var chunk = [UInt8](repeating: 0, count: 1 << 16)
  while true {
    let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
    if n < 0 && errno == EINTR { continue }
    if n < 0 { return nil }
    if n == 0 { return bytes }
    bytes += chunk[..<n]
  }
}

/// Writes (creating or replacing) a file; false if it cannot.
@discardableResult
func writeWholeFile(_ path: String, _ bytes: [UInt8]) -> Bool {
  let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
  guard fd >= 0 else { return false }
  defer { close(fd) }
  var done = 0
  while done < bytes.count {
    let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + done, $0.count - done) }
    if n < 0 && errno == EINTR { continue }
    if n <= 0 { return false }
    done += n
  }
  return true
}

/// A 64-bit FNV-1a checksum: enough to tell whether a file changed.
func checksum(_ bytes: [UInt8]) -> UInt64 {
  var hash: UInt64 = 0xCBF2_9CE4_8422_2325
  for byte in bytes {
    hash ^= UInt64(byte)
    hash &*= 0x0000_0100_0000_01B3
  }
  return hash
}

/// Where a byte string breaks terminal safety: a raw ESC or other C0 control
/// (other than `\n`, and `\t` where `allowTab`), DEL, a C1 control, a bidi
/// override or isolate, a zero-width or invisible format character, a line or
/// paragraph separator, a BOM, or invalid UTF-8.
///
/// - Returns: a description of the first offending character, or `nil`.
func terminalHazard(in bytes: [UInt8], allowTab: Bool = true) -> String? {
  for (i, byte) in bytes.enumerated() where byte < 0x20 || byte == 0x7F {
    if byte == 0x0A || (allowTab && byte == 0x09) { continue }
    return "control byte 0x\(String(byte, radix: 16)) at offset \(i)"
  }
  var offset = 0
  var iterator = bytes.makeIterator()
  var decoder = UTF8()
  while true {
    switch decoder.decode(&iterator) {
    case .scalarValue(let scalar):
      let v = scalar.value
      let bad =
        (v >= 0x80 && v < 0xA0) || (0x200B...0x200F).contains(v) || (0x2028...0x202E).contains(v)
        || (0x2060...0x206F).contains(v) || v == 0xFEFF || (0xFFF9...0xFFFB).contains(v)
      if bad { return "U+\(String(v, radix: 16, uppercase: true)) at scalar \(offset)" }
      offset += 1
    case .emptyInput:
      return nil
    case .error:
      return "invalid UTF-8 after scalar \(offset)"
    }
  }
}
