import Journal
import Projection

/// The order `bisect` probes its runs in: files whose names number the builds
/// (`build-1.ndjson` … `build-10.ndjson`) in the order of those numbers, even
/// when a shell's glob gave them in byte order (`build-1 build-10 build-2`),
/// and the check of that order against the `build` of the journals' headers.
extension BisectCommand {
  static let keepOrder = Option.flag(
    "--keep-order",
    "probe the runs in the order given, even when their names number\nthe builds in another order (build-1 build-10 build-2)"
  )

  /// The runs in build order, when their names are equal apart from their
  /// numbers and the order given is not that of the numbers (``VersionOrder``);
  /// nil when the order given stands.
  ///
  /// ```swift
  /// BisectCommand.buildOrder(["b-1.ndjson", "b-10.ndjson", "b-2.ndjson"])  // ["b-1.ndjson", "b-2.ndjson", "b-10.ndjson"]
  /// BisectCommand.buildOrder(["good.ndjson", "b-2.ndjson"])                // nil: not numbered alike
  /// ```
  static func buildOrder(_ paths: [String]) -> [String]? {
    guard paths.count > 1, let skeleton = skeleton(paths[0]) else { return nil }
    guard paths.allSatisfy({ $0 != "-" && Self.skeleton($0) == skeleton }) else { return nil }
    // As a folder's journals are sorted (names equal by their numbers, `1` and `01`, in byte order).
    let sorted = paths.sorted { VersionOrder.precedes($0, $1) }
    return sorted == paths ? nil : sorted
  }

  /// A name with each run of digits as one 0 byte (`build-\0.ndjson` for
  /// `build-10.ndjson`); nil when it has no digit.
  private static func skeleton(_ name: String) -> [UInt8]? {
    var out: [UInt8] = []
    var numbered = false
    var inNumber = false
    for byte in name.utf8 {
      let digit = byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
      if digit && !inNumber { out.append(0) }
      if !digit { out.append(byte) }
      numbered = numbered || digit
      inNumber = digit
    }
    return numbered ? out : nil
  }

  /// What to say when the `build` of the runs' headers disagree with the order
  /// used: nil unless every run has a build that is a version number
  /// (``isVersion(_:)``) and one of them comes before the build of a run
  /// taken before it (``VersionOrder``).
  ///
  /// - Parameters:
  ///   - builds: each run's `build`, in the order used (nil: no header, or no build in it).
  ///   - names: the runs' names, in the same order.
  static func buildWarning(builds: [String?], names: [String]) -> String? {
    let versions = builds.compactMap { $0 }
    guard versions.count == builds.count, versions.count > 1, versions.allSatisfy(isVersion) else { return nil }
    for i in 1..<versions.count where VersionOrder.precedes(versions[i], versions[i - 1]) {
      return "the journals' headers put the builds in another order: "
        + "\(displayText(names[i - 1], limit: 256)) is build '\(displayText(versions[i - 1]))', "
        + "\(displayText(names[i], limit: 256)) after it is build '\(displayText(versions[i]))'; "
        + "bisect assumes the runs are in build order"
    }
    return nil
  }

  /// Whether a header's `build` reads as a version number: digits, with dots,
  /// dashes, spaces, `+`, `_` and parentheses between them, and perhaps a
  /// leading `v` (`120`, `2.4.1`, `2.4 (120)`, `v3.2`).
  static func isVersion(_ build: String) -> Bool {
    var text = Substring(build)
    if text.first == "v" || text.first == "V" { text = text.dropFirst() }
    return text.contains(where: { $0.isASCII && $0.isNumber })
      && text.allSatisfy { ($0.isASCII && $0.isNumber) || ".-_+ ()".contains($0) }
  }

  /// The `build` of a journal's header, read from its first line; nil when it
  /// has none, or cannot be read (the probe that reads it says why).
  static func build(of path: String, reading: ReadOptions) -> String? {
    guard let reader = try? JournalReader(path: path, options: reading) else { return nil }
    while let item = reader.next() {
      guard case .record(let record, _, _) = item else { continue }
      guard case .session(let header) = record.event else { return nil }
      return header.build
    }
    return nil
  }
}
