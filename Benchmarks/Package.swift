// swift-tools-version: 6.0
import PackageDescription

// The benchmarks are their own package so that the library's package stays
// free of benchmark code and dependencies. Run from this directory:
//   swift run -c release codec-bench
let package = Package(
  name: "spatial-replay-benchmarks",
  dependencies: [
    .package(name: "spatial-replay", path: "..")
  ],
  targets: [
    .executableTarget(
      name: "codec-bench",
      dependencies: [.product(name: "Journal", package: "spatial-replay")]
    ),
    .executableTarget(
      name: "diff-bench",
      dependencies: [
        .product(name: "Journal", package: "spatial-replay"),
        .product(name: "Projection", package: "spatial-replay"),
      ]
    ),
    .executableTarget(
      name: "timeline-bench",
      dependencies: [
        .product(name: "Journal", package: "spatial-replay"),
        .product(name: "Projection", package: "spatial-replay"),
      ]
    ),
    .executableTarget(
      name: "step-bench",
      dependencies: [
        .product(name: "Journal", package: "spatial-replay"),
        .product(name: "Projection", package: "spatial-replay"),
      ]
    ),
    .executableTarget(
      name: "check-bench",
      dependencies: [
        .product(name: "Journal", package: "spatial-replay"),
        .product(name: "Projection", package: "spatial-replay"),
      ]
    ),
    .executableTarget(
      name: "analytics-bench",
      dependencies: [
        .product(name: "Journal", package: "spatial-replay"),
        .product(name: "Projection", package: "spatial-replay"),
      ]
    ),
  ],
  swiftLanguageModes: [.v6]
)
