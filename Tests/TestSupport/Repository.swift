/// Paths in the repository, found once from this file's place under `Tests/`, so a
/// test in any folder reaches them.
enum Repository {
  /// The repository's root: above the `Tests` folder.
  static let root: String = {
    var path = String(#filePath)
    while !path.hasSuffix("/Tests") { path = String(path[..<path.lastIndex(of: "/")!]) }
    path.removeLast("/Tests".count)
    return path
  }()

  /// The bundled journals, `Journals/`.
  static let journals = root + "/Journals"

  /// The test target's own files, `Tests/ReplayTests/`.
  static let tests = root + "/Tests/ReplayTests"
}
