import Journal
import Projection
import Testing

@testable import TestSupport

/// `spatial-replay export --format parquet`, run as a process: one file, standard output,
/// the partitioned layout, --jobs, --compression. The files' readers are in CI
/// (.ci/parquet_interop.sh); here the footer says how many rows each file holds.
@Suite struct ParquetCLITests {
  static func rowCount(_ bytes: [UInt8]) throws -> Int? {
    try ParquetFileTests.footer(bytes)[3]?.int
  }

  @Test func oneFileHoldsTheRowsOfEveryJournal() throws {
    let dir = try TemporaryDirectory()
    let a = try dir.write("a.ndjson", AnalyticsFixture.text)
    let b = try dir.write("b.ndjson", ExportCLITests.other)
    let out = dir.file("visits.parquet")
    let result = try Binary.run(["export", "--table", "visits", "--format", "parquet", "-o", out, a, b])
    #expect(result.status == 2, "journal a has a malformed line: \(result)")
    #expect(result.stdout.isEmpty)
    #expect(try Self.rowCount(dir.read(out)) == 3)
    #expect(directoryEntries(dir.path) == ["a.ndjson", "b.ndjson", "visits.parquet"], "no temporary file is left")

    let piped = try Binary.run(["export", "--table", "visits", "--format", "parquet", a, b])
    #expect(piped.stdoutBytes == (try dir.read(out)), "standard output gets the same bytes")
  }

  @Test(arguments: ["none", "gzip"])
  func twoJobsAndOneWriteTheSameBytes(codec: String) throws {
    let dir = try TemporaryDirectory()
    var files: [String] = []
    for i in 0..<4 {
      files.append(try dir.write("j\(i).ndjson", i % 2 == 0 ? AnalyticsFixture.text : ExportCLITests.other))
    }
    var outputs: [[UInt8]] = []
    for jobs in ["1", "2"] {
      let out = dir.file("events-\(jobs).parquet")
      let result = try Binary.run(
        ["export", "--table", "events", "--format", "parquet", "--compression", codec, "--jobs", jobs, "-o", out]
          + files)
      #expect(result.status == 2, "\(result)")
      outputs.append(try dir.read(out))
    }
    #expect(outputs[0] == outputs[1])
    #expect(try Self.rowCount(outputs[0]) == 2 * 22 + 2 * 7)
  }

  @Test func partitionsAreHiveFoldersOfParquetFiles() throws {
    let dir = try TemporaryDirectory()
    let a = try dir.write("a.ndjson", AnalyticsFixture.text)
    let b = try dir.write("b.ndjson", ExportCLITests.other)
    let lake = dir.file("lake")
    let result = try Binary.run([
      "export", "--table", "events", "--format", "parquet", "--compression", "gzip", "-o", lake, "--partition",
      "build", a, b,
    ])
    #expect(result.status == 2, "\(result)")
    #expect(directoryEntries(lake) == ["build=7", "build=__HIVE_DEFAULT_PARTITION__"])
    #expect(directoryEntries(lake + "/build=7") == ["part.parquet"])
    #expect(try Self.rowCount(dir.read(lake + "/build=7/part.parquet")) == 7)
    #expect(try Self.rowCount(dir.read(lake + "/build=__HIVE_DEFAULT_PARTITION__/part.parquet")) == 22)
  }

  @Test func compressionNeedsParquet() throws {
    let dir = try TemporaryDirectory()
    let a = try dir.write("a.ndjson", AnalyticsFixture.text)
    let result = try Binary.run(["export", "--table", "visits", "--compression", "gzip", a])
    #expect(result.status == 64)
    #expect(result.stderr.contains("--compression applies to --format parquet only"), "\(result)")
    let bad = try Binary.run(["export", "--table", "visits", "--format", "parquet", "--compression", "zstd", a])
    #expect(bad.status == 64, "\(bad)")
  }

  @Test func aTableWithoutRowsIsAFileWithoutRowGroups() throws {
    let dir = try TemporaryDirectory()
    let b = try dir.write("b.ndjson", ExportCLITests.other)
    let out = dir.file("pans.parquet")
    let result = try Binary.run(["export", "--table", "pans", "--format", "parquet", "-o", out, b])
    #expect(result.status == 0, "\(result)")
    let meta = try ParquetFileTests.footer(try dir.read(out))
    #expect(meta[3] == .int(0) && meta[4]?.list == [])
  }
}
