// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "regression-test",
  platforms: [.macOS(.v15), .iOS(.v18)],
  dependencies: [
    .package(name: "spatial-replay", path: "../..")
  ],
  targets: [
    .testTarget(
      name: "RegressionTests",
      dependencies: [.product(name: "SpatialTesting", package: "spatial-replay")]
    )
  ]
)
