import Journal
import Projection
import Rendering

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// What the commands that read journals share: how a path is named in
/// messages, the reading options they accept, and how findings are printed.
enum JournalInput {
  /// How a path is shown in messages: `<stdin>` for `-`.
  static func displayName(_ path: String) -> String { path == "-" ? "<stdin>" : path }

  /// The journals named on the command line: at least one, and standard input at most once.
  /// A directory stands for every journal below it and a glob for the files it matches
  /// (``expand(_:)``), so a fleet of journals is one argument. The segments of one recorded
  /// session are read as one journal (``SegmentJoin``).
  static func paths(_ arguments: ParsedArguments, command: String) throws(UsageError) -> [String] {
    let given = arguments.positionals
    guard !given.isEmpty else { throw UsageError("\(command) needs at least one FILE ('-' for standard input)") }
    try checkStandardInputOnce(given)
    return SegmentJoin.join(given.flatMap(expand))
  }

  /// Refuses a directory given where a command reads one journal (`log`, `at`, `map`, `tail`; each
  /// of `step`, `trace` and `diff`'s runs): a usage error that says what the command reads and names
  /// the first few journals below it, so that one can be picked. `reads` completes
  /// `COMMAND reads …`: `one journal`, `two journals, A and B`. A directory with no journal below
  /// it is left to the reader, which says so (status 2).
  ///
  /// ```
  /// at reads one journal; Journals/ is a directory holding 13 journals (bisect/build-01.ndjson,
  /// bisect/build-02.ndjson, bisect/build-03.ndjson, …): name one
  /// ```
  static func refuseDirectories(
    _ paths: [String], command: String, reads: String = "one journal"
  ) throws(UsageError) {
    for path in paths where path != "-" {
      var info = stat()
      guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else { continue }
      var found: [String] = []
      collectJournals(in: path, into: &found)
      guard !found.isEmpty else { continue }
      let prefix = path.hasSuffix("/") ? path : path + "/"
      let names = found.sorted { VersionOrder.precedes($0, $1) }.prefix(3).map {
        displayText($0.hasPrefix(prefix) ? String($0.dropFirst(prefix.count)) : $0, limit: .max)
      }
      throw UsageError(
        "\(command) reads \(reads); \(displayText(path, limit: .max)) is a directory holding "
          + "\(found.count.counted("journal")) (\(names.joined(separator: ", "))\(found.count > 3 ? ", …" : "")): name one"
      )
    }
  }

  /// The names a directory's journals end with.
  static let journalSuffixes = [".ndjson", ".jsonl", ".ndjson.gz", ".jsonl.gz"]

  /// `-` and files as they are (a missing one is reported when it is read); a directory as
  /// every journal below it, recursively, sorted by path in version order (``VersionOrder``:
  /// `build-9.2` before `build-10.0`); a pattern with `*`, `?` or `[` that names no file as the
  /// files it matches (glob(3)), in version order too. A directory without a journal and
  /// a pattern that matches nothing stay as they are, and are then reported as unreadable (2).
  static func expand(_ argument: String) -> [String] {
    guard argument != "-" else { return [argument] }
    var info = stat()
    if stat(argument, &info) == 0 {
      guard info.st_mode & S_IFMT == S_IFDIR else { return [argument] }
      var found: [String] = []
      collectJournals(in: argument, into: &found)
      return found.isEmpty ? [argument] : found.sorted { VersionOrder.precedes($0, $1) }
    }
    guard argument.contains(where: { "*?[".contains($0) }) else { return [argument] }
    var matches = glob_t()
    defer { globfree(&matches) }
    guard glob(argument, 0, nil, &matches) == 0, matches.gl_pathc > 0 else { return [argument] }
    return (0..<Int(matches.gl_pathc)).compactMap { i in
      matches.gl_pathv[i].map { String(cString: $0) }
    }.sorted { VersionOrder.precedes($0, $1) }
  }

  /// What a folder walk found besides its journals: warnings for the command to print.
  private struct Walk {
    var found: [String] = []
    /// Folders already read (a link back to one of them is a loop).
    var folders: Set<FileIdentity> = []
    /// Journals already found, by the path that found them first.
    var files: [FileIdentity: String] = [:]
  }

  /// Every journal below `directory`. Links are followed, to files and to folders: a linked
  /// journal counts like any other. A link to a folder already read (a loop) and a second
  /// path to a journal already found are skipped with a warning on stderr; a link named like a
  /// journal that leads nowhere, and a folder that cannot be read, are kept so that reading
  /// them reports why (status 2): nothing is skipped in silence.
  private static func collectJournals(in directory: String, into found: inout [String]) {
    var walk = Walk()
    if let folder = FileIdentity(path: directory) { walk.folders.insert(folder) }
    collect(in: directory, &walk)
    found = walk.found
  }

  private static func collect(in directory: String, _ walk: inout Walk) {
    guard let handle = opendir(directory) else {
      walk.found.append(directory)
      return
    }
    defer { closedir(handle) }
    let prefix = directory.hasSuffix("/") ? directory : directory + "/"
    var names: [String] = []
    while let entry = readdir(handle) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      }
      guard name != "." && name != ".." && !name.hasPrefix(".") else { continue }
      names.append(name)
    }
    // In a fixed order, so that which of two paths to one journal is kept does not depend on the disk.
    for name in names.sorted(by: VersionOrder.precedes) {
      let path = prefix + name
      let isJournalName = journalSuffixes.contains(where: name.hasSuffix)
      var info = stat()
      guard lstat(path, &info) == 0 else { continue }
      if info.st_mode & S_IFMT == S_IFLNK {
        guard stat(path, &info) == 0 else {
          // A dangling link or a loop of links: named like a journal, it is reported when read.
          if isJournalName { walk.found.append(path) }
          continue
        }
      }
      switch info.st_mode & S_IFMT {
      case S_IFDIR:
        guard walk.folders.insert(FileIdentity(info)).inserted else {
          warn("\(path): a link to a folder already read (a loop): skipped")
          continue
        }
        collect(in: path, &walk)
      case S_IFREG where isJournalName:
        if let first = walk.files[FileIdentity(info)] {
          warn("\(path) is the same file as \(first): read once")
          continue
        }
        walk.files[FileIdentity(info)] = path
        walk.found.append(path)
      default: break
      }
    }
  }

  /// A warning of the folder walk, written at once (the walk runs before a command's output).
  private static func warn(_ message: String) {
    let line = Array("spatial-replay: warning: \(message)\n".utf8)
    line.withUnsafeBytes { _ = write(2, $0.baseAddress, $0.count) }
  }

  /// Whether `path` is read as a stream, once, from its start: standard input
  /// (`-`), a FIFO, a socket or a character device (`<(gunzip -c a.gz)`,
  /// `mkfifo`). Such an input cannot be read twice (`report --since`) nor
  /// polled for its size (`tail`): those commands treat it as standard input.
  static func isStream(_ path: String) -> Bool {
    guard path != "-" else { return true }
    var info = stat()
    guard stat(path, &info) == 0 else { return false }
    let type = info.st_mode & S_IFMT
    return type == S_IFIFO || type == S_IFSOCK || type == S_IFCHR
  }

  /// `-` may be given once: standard input cannot be read twice.
  static func checkStandardInputOnce(_ paths: [String]) throws(UsageError) {
    guard paths.filter({ $0 == "-" }).count <= 1 else {
      throw UsageError("'-' (standard input) can be read only once")
    }
  }
}

/// A journal's findings on stderr, as many as `--max-errors` lets through
/// (``DiagnosticLimit``): each warning rule once, the first errors, then at the
/// journal's end a count of what was not shown.
///
/// ```swift
/// var shown = ShownFindings(name: name, limit: limit)
/// shown.write(diagnostic, &context.stderr)   // for each finding
/// shown.end(&context.stderr)                 // after the journal
/// ```
struct ShownFindings {
  /// The journal's name as shown.
  let name: String
  private var limit: DiagnosticLimit

  init(name: String, limit: DiagnosticLimit) {
    self.name = name
    self.limit = limit
  }

  /// Writes the finding unless the limit holds it back (then it is counted).
  mutating func write(_ diagnostic: Diagnostic, _ out: inout FileOutput) {
    if limit.admit(diagnostic) { out.write(diagnostic, file: name) }
  }

  /// Writes the counts of what was not shown, and starts again for another journal.
  mutating func end(_ out: inout FileOutput) {
    for line in limit.omissions(file: displayText(name, limit: .max)) { out.write(line + "\n") }
    limit = DiagnosticLimit(maxErrors: limit.maxErrors == .max ? 0 : limit.maxErrors)
  }
}

extension FileOutput {
  /// Writes a reader's finding as `file:line[:column]: severity: message [rule]`, with any
  /// control or invisible characters (from the journal or its name) escaped.
  mutating func write(_ diagnostic: Diagnostic, file: String) {
    write(CheckFinding.format(diagnostic), file: file)
  }

  /// Writes a finding as `file:line[:column]: severity: message [rule]`, the message
  /// rendered with `glyphs`, with any control or invisible characters (from the journal
  /// or its name) escaped (``CheckFinding/write(file:glyphs:escaped:color:to:)``).
  mutating func write(_ finding: CheckFinding, file: String, glyphs: Glyphs = .unicode) {
    finding.write(file: file, glyphs: glyphs, escaped: true, to: &self)
    write("\n")
  }
}
