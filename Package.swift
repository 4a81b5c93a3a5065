// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "spatial-replay",
  // Mutex and Atomic (the writer, the recorder) need these on Apple platforms; Linux has no minimum.
  platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
  products: [
    .library(name: "Journal", targets: ["Journal"]),
    .library(name: "Projection", targets: ["Projection"]),
    .library(name: "Rendering", targets: ["Rendering"]),
    .library(name: "Report", targets: ["Report"]),
    .library(name: "Stepper", targets: ["Stepper"]),
    .library(name: "SpatialTesting", targets: ["SpatialTesting"]),
    .library(name: "Recording", targets: ["Recording"]),
    .executable(name: "spatial-replay", targets: ["spatial-replay"]),
  ],
  targets: [
    // The system's zlib, for reading gzip-compressed journals and writing GZIP Parquet pages: its header and `libz`
    // come with zlib1g-dev on Debian and Ubuntu and with the SDK on Apple platforms.
    .systemLibrary(name: "CZlib"),
    .target(
      name: "Journal", dependencies: ["CZlib"], linkerSettings: [.linkedLibrary("m", .when(platforms: [.linux]))]),
    .target(name: "Projection", dependencies: ["Journal", "CZlib"]),
    // Words and file formats: every sentence, glyph, escape and encoder (text, JSON, CSV, Parquet, traces, the
    // map's drawing). The model (Projection) gives values; this layer puts them into words and bytes.
    .target(name: "Rendering", dependencies: ["Journal", "Projection", "CZlib"]),
    // The report's page is written in Assets (report.js, report.css) and embedded by Assets/embed.sh.
    .target(name: "Report", dependencies: ["Journal", "Projection", "Rendering"], exclude: ["Assets"]),
    .target(name: "Stepper", dependencies: ["Journal", "Projection", "Rendering"]),
    // Regression tests of an app's lifecycle: a runner protocol, the reference runner and the assertions
    // (docs/regression-tests.md). Only Journal, Projection and Rendering (the words of a failure), so that an app's
    // tests build no more.
    .target(name: "SpatialTesting", dependencies: ["Journal", "Projection", "Rendering"]),
    // The production recorder: rotating segments, the flight recorder and its on-device checker, redaction,
    // sampling. Apart from Journal, because rebuilding a segment's state and checking need Projection.
    .target(name: "Recording", dependencies: ["Journal", "Projection", "Rendering"]),
    .executableTarget(
      name: "spatial-replay",
      dependencies: ["Journal", "Projection", "Rendering", "Report", "Stepper", "SpatialTesting", "Recording", "CZlib"]),
    .testTarget(name: "JournalTests", dependencies: ["Journal", "CZlib"]),
    // What the test targets but JournalTests share: the temporary directory, running the built command, the
    // repository's paths, the system calls and the model's fixtures (imported with `@testable import TestSupport`).
    .target(name: "TestSupport", dependencies: ["Journal", "Projection", "Rendering"], path: "Tests/TestSupport"),
    .testTarget(name: "ProjectionTests", dependencies: ["Journal", "Projection", "Rendering", "TestSupport"]),
    .testTarget(name: "ReportTests", dependencies: ["Journal", "Projection", "Rendering", "Report", "TestSupport"]),
    .testTarget(name: "StepperTests", dependencies: ["Journal", "Projection", "Rendering", "Stepper", "TestSupport"]),
    .testTarget(
      name: "RecordingTests",
      dependencies: ["Journal", "Projection", "Rendering", "Recording", "SpatialTesting", "TestSupport"]),
    // A small app that records through a Recorder, run by the fault-injection tests.
    .executableTarget(name: "recorder-probe", dependencies: ["Journal", "Recording"], path: "Tests/RecorderProbe"),
    .testTarget(
      name: "ReplayTests",
      dependencies: [
        "Journal", "Projection", "Rendering", "Report", "Stepper", "SpatialTesting", "Recording", "spatial-replay",
        "recorder-probe",
        "TestSupport",
      ],
      exclude: ["Golden", "FaultInjection"]
    ),
  ],
  swiftLanguageModes: [.v6]
)
