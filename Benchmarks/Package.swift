// swift-tools-version: 6.0
import PackageDescription

// The benchmarks are their own package so that the library's package stays
// free of benchmark code and dependencies. Run from this directory:
//   swift run -c release codec-bench
let libraries: [Target.Dependency] = [
  .product(name: "Journal", package: "spatial-replay"),
  .product(name: "Projection", package: "spatial-replay"),
  .product(name: "Rendering", package: "spatial-replay"),
]

// One executable target a benchmark, in Sources/<name>.
let benchmarks = [
  "codec-bench", "diff-bench", "timeline-bench", "step-bench", "check-bench", "analytics-bench", "recorder-bench",
  "session-recorder-bench",
]

// The presentation libraries a benchmark uses besides the model.
let presentation: [String: [Target.Dependency]] = [
  "step-bench": [.product(name: "Stepper", package: "spatial-replay")],
  "session-recorder-bench": [.product(name: "Recording", package: "spatial-replay")],
]

// BenchSupport holds what the benchmarks share: the journal generators, timing,
// formatting and memory helpers.
let targets: [Target] =
  [.target(name: "BenchSupport", dependencies: libraries)]
  + benchmarks.map {
    .executableTarget(name: $0, dependencies: ["BenchSupport"] + libraries + presentation[$0, default: []])
  }

let package = Package(
  name: "spatial-replay-benchmarks",
  platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
  dependencies: [
    .package(name: "spatial-replay", path: "..")
  ],
  targets: targets,
  swiftLanguageModes: [.v6]
)
