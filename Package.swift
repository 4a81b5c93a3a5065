// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "spatial-replay",
  products: [
    .library(name: "Journal", targets: ["Journal"]),
    .library(name: "Projection", targets: ["Projection"]),
    .executable(name: "spatial-replay", targets: ["spatial-replay"]),
  ],
  targets: [
    .target(name: "Journal", linkerSettings: [.linkedLibrary("m", .when(platforms: [.linux]))]),
    .target(name: "Projection", dependencies: ["Journal"]),
    .executableTarget(name: "spatial-replay", dependencies: ["Journal", "Projection"]),
    .testTarget(name: "JournalTests", dependencies: ["Journal"]),
    .testTarget(
      name: "ReplayTests",
      dependencies: ["Journal", "Projection", "spatial-replay"],
      exclude: ["Golden"]
    ),
  ],
  swiftLanguageModes: [.v6]
)
