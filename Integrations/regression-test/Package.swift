// swift-tools-version: 6.0
import PackageDescription

// An app's test package as docs/regression-tests.md writes it: the regression test that
// `spatial-replay testgen` generated, run against this checkout (CI: .ci/regression_test.sh).
let package = Package(
  name: "regression-test",
  platforms: [.macOS(.v15), .iOS(.v18)],
  dependencies: [.package(name: "spatial-replay", path: "../..")],
  targets: [
    .testTarget(
      name: "RegressionTests",
      dependencies: [.product(name: "SpatialTesting", package: "spatial-replay")]
    )
  ]
)
