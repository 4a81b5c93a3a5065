// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "spatial-replay",
  // Mutex and Atomic (the writer, the recorder) need these on Apple platforms; Linux has no minimum.
  platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
  products: [
    .library(name: "Journal", targets: ["Journal"]),
    .library(name: "Projection", targets: ["Projection"]),
    .executable(name: "spatial-replay", targets: ["spatial-replay"]),
  ],
  targets: [
    // The system's zlib, for reading gzip-compressed journals and writing GZIP Parquet pages: its header and `libz`
    // come with zlib1g-dev on Debian and Ubuntu and with the SDK on Apple platforms.
    .systemLibrary(name: "CZlib"),
    .target(
      name: "Journal", dependencies: ["CZlib"], linkerSettings: [.linkedLibrary("m", .when(platforms: [.linux]))]),
    // The report's page is written in Report/Assets (report.js, report.css) and embedded by Assets/embed.sh.
    .target(name: "Projection", dependencies: ["Journal", "CZlib"], exclude: ["Report/Assets"]),
    .executableTarget(name: "spatial-replay", dependencies: ["Journal", "Projection", "CZlib"]),
    .testTarget(name: "JournalTests", dependencies: ["Journal", "CZlib"]),
    // A small app that records through a Recorder, run by the fault-injection tests.
    .executableTarget(name: "recorder-probe", dependencies: ["Journal"], path: "Tests/RecorderProbe"),
    .testTarget(
      name: "ReplayTests",
      dependencies: ["Journal", "Projection", "spatial-replay", "recorder-probe"],
      exclude: ["Golden", "FaultInjection"]
    ),
  ],
  swiftLanguageModes: [.v6]
)
