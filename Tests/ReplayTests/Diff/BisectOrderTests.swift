import Testing

@testable import spatial_replay

/// The order `bisect` takes its runs in: the numbers in their names, and the
/// `build` of their headers.
@Suite struct BisectOrderTests {
  @Test func namesEqualApartFromTheirNumbersAreSortedByThem() {
    let glob = ["build-1.ndjson", "build-10.ndjson", "build-2.ndjson", "build-3.ndjson"]
    #expect(
      BisectCommand.buildOrder(glob) == ["build-1.ndjson", "build-2.ndjson", "build-3.ndjson", "build-10.ndjson"])
    #expect(
      BisectCommand.buildOrder(["r/7/run.ndjson", "r/12/run.ndjson", "r/9/run.ndjson"])
        == ["r/7/run.ndjson", "r/9/run.ndjson", "r/12/run.ndjson"])
    #expect(BisectCommand.buildOrder(["v1.9-a", "v1.10-a", "v1.2-a"]) == ["v1.2-a", "v1.9-a", "v1.10-a"])
  }

  @Test func otherwiseTheOrderGivenStands() {
    // Already in order, leading zeros or not.
    #expect(BisectCommand.buildOrder(["build-1", "build-2", "build-10"]) == nil)
    #expect(BisectCommand.buildOrder(["build-01", "build-02", "build-10"]) == nil)
    // Names that differ in more than their numbers, or have none.
    #expect(BisectCommand.buildOrder(["good-1", "build-3", "build-2"]) == nil)
    #expect(BisectCommand.buildOrder(["b1x", "bx1"]) == nil)
    #expect(BisectCommand.buildOrder(["new.ndjson", "old.ndjson"]) == nil)
    #expect(BisectCommand.buildOrder(["build-2", "-"]) == nil)
    #expect(BisectCommand.buildOrder(["build-2"]) == nil)
  }

  @Test func buildsThatAreVersionsAreCheckedAgainstTheOrder() {
    let names = ["a", "b", "c"]
    #expect(BisectCommand.buildWarning(builds: ["2.9", "2.10", "3.0 (120)"], names: names) == nil)
    #expect(BisectCommand.buildWarning(builds: ["120", "120", "121"], names: names) == nil)
    #expect(
      BisectCommand.buildWarning(builds: ["2.9", "2.10", "2.2"], names: names)
        == "the journals' headers put the builds in another order: b is build '2.10', c after it is build '2.2'; "
        + "bisect assumes the runs are in build order")
    // Not every run has a build, or one is not a version: nothing to say.
    #expect(BisectCommand.buildWarning(builds: ["2.9", nil, "2.2"], names: names) == nil)
    #expect(BisectCommand.buildWarning(builds: ["2.9", "nightly", "2.2"], names: names) == nil)
  }

  @Test(arguments: [
    ("120", true), ("2.4.1", true), ("2.4 (120)", true), ("v3.2", true), ("1.0-2+3_4", true),
    ("nightly", false), ("2.4-beta", false), ("", false), ("v", false), ("()", false),
  ])
  func versionNumbers(_ build: String, _ isVersion: Bool) {
    #expect(BisectCommand.isVersion(build) == isVersion)
  }
}
