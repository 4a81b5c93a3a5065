import Foundation
import Testing

@testable import TestSupport

/// The layers of CONTRIBUTING.md, `Journal` → `Projection` → `Rendering` → the front ends →
/// the command line: a target imports only those below it, in its sources and in Package.swift.
@Suite struct LayeringTests {
  /// The package's modules each library may not import: those above it, and the front ends
  /// beside it.
  static let forbidden: [String: Set<String>] = [
    "Journal": ["Projection", "Rendering", "Report", "Stepper", "Recording", "SpatialTesting", "spatial_replay"],
    "Projection": ["Rendering", "Report", "Stepper", "Recording", "SpatialTesting", "spatial_replay"],
    "Rendering": ["Report", "Stepper", "Recording", "SpatialTesting", "spatial_replay"],
    "Report": ["Stepper", "Recording", "SpatialTesting", "spatial_replay"],
    "Stepper": ["Report", "Recording", "SpatialTesting", "spatial_replay"],
    "Recording": ["Report", "Stepper", "SpatialTesting", "spatial_replay"],
    "SpatialTesting": ["Report", "Stepper", "Recording", "spatial_replay"],
  ]

  /// The modules a source file imports: `import X`, `@testable import X`, `import struct X.Y`,
  /// `@_spi(S) import X`, also inside `#if`.
  static func imports(_ text: String) -> [String] {
    var modules: [String] = []
    for line in text.split(separator: "\n") {
      var words = line.split(separator: " ").map(String.init)
      while let first = words.first, first.hasPrefix("@") { words.removeFirst() }
      guard words.first == "import", words.count >= 2 else { continue }
      let path = words.count >= 3 ? words[2] : words[1]
      modules.append(String(path.prefix(while: { $0 != "." })))
    }
    return modules
  }

  /// The Swift files under a folder, relative to it.
  static func swiftFiles(_ folder: String) -> [String] {
    guard let walk = FileManager.default.enumerator(atPath: folder) else { return [] }
    return walk.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }.sorted()
  }

  @Test(arguments: forbidden.keys.sorted())
  func aLibraryImportsOnlyTheLayersBelowIt(_ target: String) throws {
    let folder = Repository.root + "/Sources/" + target
    let files = Self.swiftFiles(folder)
    #expect(!files.isEmpty, "no sources in \(folder)")
    for file in files {
      let text = try String(contentsOfFile: folder + "/" + file, encoding: .utf8)
      for module in Self.imports(text) where Self.forbidden[target]!.contains(module) {
        Issue.record("Sources/\(target)/\(file) imports \(module)")
      }
    }
  }

  @Test func thePackageDeclaresOnlyTheLayersBelowEachLibrary() throws {
    let manifest = try String(contentsOfFile: Repository.root + "/Package.swift", encoding: .utf8)
    let declaration = try Regex(#"name: "([A-Za-z-]+)",\s*dependencies: \[([^\]]*)\]"#)
    var seen: Set<String> = []
    for match in manifest.matches(of: declaration) {
      guard let name = match.output[1].substring.map(String.init),
        let list = match.output[2].substring, let forbidden = Self.forbidden[name]
      else { continue }
      seen.insert(name)
      let dependencies = list.split(separator: ",").map {
        $0.trimmingCharacters(in: .whitespacesAndNewlines).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
          .replacingOccurrences(of: "-", with: "_")
      }
      for dependency in dependencies where forbidden.contains(dependency) {
        Issue.record("Package.swift: \(name) depends on \(dependency)")
      }
    }
    #expect(seen.isSuperset(of: ["Journal", "Projection", "Report", "Stepper", "Recording", "SpatialTesting"]))
  }
}
