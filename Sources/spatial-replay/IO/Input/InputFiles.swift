import Journal

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The files a command reads, by device and inode, so that no output is
/// written over one of them: `report a.ndjson -o a.ndjson` would otherwise
/// replace the recording with the page.
///
/// Files are compared after following symbolic links, so a symlink to an
/// input, a hard link to it and the same file under another spelling of its
/// path are all the input. Every output is checked before it is opened
/// (``refuse(_:)``), including each file `export --partition` creates below
/// its folder, and an ``AtomicFile`` is checked on its target, not on the
/// temporary file it renames over it.
///
/// ```swift
/// let inputs = InputFiles(paths)        // the journals, a folder's already expanded
/// try inputs.refuse("report.html")      // UsageError (64) if it is one of them
/// ```
struct InputFiles: Sendable {
  /// Each input that exists, with the path it was given as.
  private var identities: [FileIdentity: String] = [:]

  /// - Parameter paths: the inputs as read (`-` and files that do not exist are left out).
  init(_ paths: [String]) {
    // A session's segments joined into one temporary journal are inputs too (``SegmentJoin``).
    for path in paths.flatMap({ [$0] + SegmentJoin.segments(joinedInto: $0) }) where path != "-" {
      if let identity = FileIdentity(path: path), identities[identity] == nil { identities[identity] = path }
    }
  }

  /// The input that `output` is (the same file, through a symlink or a hard link), if any.
  func input(at output: String) -> String? {
    guard !identities.isEmpty, let identity = FileIdentity(path: output) else { return nil }
    return identities[identity]
  }

  /// Refuses an output that is one of the inputs.
  /// - Throws: ``UsageError`` (status 64) naming both.
  func refuse(_ output: String) throws(UsageError) {
    guard let input = input(at: output) else { return }
    let same = input == output ? "" : " (\(displayText(input, limit: .max)))"
    throw UsageError(
      "the output \(displayText(output, limit: .max)) is an input\(same): writing it would destroy what is read; "
        + "choose another output")
  }
}

extension InputFiles {
  /// Refuses an output folder below which an input has the name of a file the
  /// output writes (`export --partition`: `part.ndjson` in each partition's folder).
  /// - Throws: ``UsageError`` (status 64) naming both.
  func refuse(filesNamed name: String, below directory: String) throws(UsageError) {
    guard let folder = FileIdentity(path: directory) else { return }
    for (_, input) in identities where input.split(separator: "/").last.map(String.init) == name {
      guard let real = realpath(input, nil) else { continue }
      var path = String(cString: real)
      free(real)
      while let slash = path.lastIndex(of: "/") {
        path = slash == path.startIndex ? "/" : String(path[..<slash])
        if FileIdentity(path: path) == folder {
          throw UsageError(
            "the output folder \(displayText(directory, limit: .max)) holds the input \(displayText(input, limit: .max)), "
              + "which a partition would replace; choose another output")
        }
        if path == "/" { break }
      }
    }
  }
}
