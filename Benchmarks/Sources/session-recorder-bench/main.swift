// The SessionRecorder (the Recording library): its cost on the caller's thread per event in
// each mode, the flight recorder's memory as a session grows, and the bytes per event
// written with and without compression.
//
// ```
// swift run -c release session-recorder-bench [--latency-events 200000] [--memory-events 10000000] [--dir /tmp]
// ```
//
// `--latency-events 0` skips the caller's cost, so that the memory figures start from a fresh process.
//
// - Caller cost: `--latency-events` calls timed one by one (monotonic clock around each
//   call), in bursts of 1,000 with 1 ms between bursts, as recorder-bench does; median and
//   p99 in nanoseconds, for: plain (one segment), rotating (256 KiB segments, gzip), the
//   flight recorder with the on-device checker (a session sampled for its triggers only),
//   call sites on, and redaction (hashed ids, mark payloads dropped). The events are a
//   navigation: a move and its four callbacks, over and over.
// - Memory: one flight recorder (256 KiB buffer, every rule checked) fed up to
//   `--memory-events` events; the process's resident memory at 10k, 100k, 1M, 10M.
// - Bytes per event: 200,000 events into 1 MiB segments, kept as written and gzip-compressed.
import BenchSupport
import Journal
import Projection
import Recording

#if canImport(Glibc)
  import Glibc
#endif

var latencyEvents = 200_000
var memoryEvents = 10_000_000
var directory = "/tmp"

var arguments = Array(CommandLine.arguments.dropFirst())
while !arguments.isEmpty {
  let name = arguments.removeFirst()
  guard let value = arguments.first else { fail("\(name) needs a value", program: "session-recorder-bench") }
  arguments.removeFirst()
  switch name {
  case "--latency-events": latencyEvents = Int(value) ?? latencyEvents
  case "--memory-events": memoryEvents = Int(value) ?? memoryEvents
  case "--dir": directory = value
  default: fail("unknown option \(name)", program: "session-recorder-bench")
  }
}

let header = SessionHeader(session: "session-recorder-bench", app: "Bench")

/// A fresh folder for one measurement.
@MainActor func folder(_ name: String) -> String {
  let path = "\(directory)/session-recorder-bench-\(getpid())-\(name)"
  mkdir(path, 0o755)
  return path
}

func removeFolder(_ path: String) {
  if let handle = opendir(path) {
    while let entry = readdir(handle) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      }
      if name != "." && name != ".." { unlink("\(path)/\(name)") }
    }
    closedir(handle)
  }
  rmdir(path)
}

func folderBytes(_ path: String) -> Int {
  var total = 0
  if let handle = opendir(path) {
    while let entry = readdir(handle) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      }
      var info = stat()
      if name != "." && name != "..", stat("\(path)/\(name)", &info) == 0 { total += Int(info.st_size) }
    }
    closedir(handle)
  }
  return total
}

/// A navigation between two screens: call `i` of the endless cycle (move, W-, W+, D-, D+).
struct Navigation {
  var here: ControllerID = "List#1"
  var there: ControllerID = "Editor#2"
  var step = 0

  static func start(_ r: SessionRecorder) {
    r.alloc("List#1", className: "ListViewController")
    r.alloc("Editor#2", className: "EditorViewController")
    r.root("List#1")
    r.didLoad("List#1")
    r.willAppear("List#1")
    r.didAppear("List#1")
    r.link("List#1", .right, to: "Editor#2")
    r.didLoad("Editor#2")
  }

  mutating func next(_ r: SessionRecorder) {
    switch step {
    case 0:
      r.move(from: here, to: there, direction: here == "List#1" ? .right : .left, trigger: .pan, animated: true)
    case 1: r.willDisappear(here)
    case 2: r.willAppear(there)
    case 3: r.didDisappear(here)
    default:
      r.didAppear(there)
      swap(&here, &there)
    }
    step = (step + 1) % 5
  }
}

func nanoseconds(_ sorted: [Double], _ q: Double) -> String {
  format(sorted[min(sorted.count - 1, Int(Double(sorted.count) * q))] * 1e9)
}

print("session-recorder-bench: writer on \(directory), \(grouped(latencyEvents)) timed calls a mode")
let modes: [(String, SessionRecorderOptions)] = [
  ("plain", SessionRecorderOptions(rotation: Rotation(maxSegmentBytes: 1 << 30, compress: false))),
  ("rotating+gzip", SessionRecorderOptions(rotation: Rotation(maxSegmentBytes: 256 << 10, maxTotalBytes: nil))),
  (
    "flight+checker",
    SessionRecorderOptions(
      flightRecorder: FlightRecorder(triggers: [.didWithoutWill]),
      sampling: Sampling(session: 0, triggered: 1))
  ),
  ("call sites", SessionRecorderOptions(callSites: true)),
  ("redaction", SessionRecorderOptions(redaction: Redaction.hashingIDs.then(.droppingMarkPayloads))),
]
for (name, options) in modes where latencyEvents > 0 {
  let path = folder("latency")
  let recorder = SessionRecorder(base: path + "/s", header: header, options: options)
  Navigation.start(recorder)
  var navigation = Navigation()
  var samples = [Double](repeating: 0, count: latencyEvents)
  for i in 0..<latencyEvents {
    let start = now()
    navigation.next(recorder)
    samples[i] = now() - start
    if i % 1_000 == 999 { usleep(1_000) }
  }
  let status = recorder.close()
  samples.sort()
  print(
    "  \(pad(name, 15)) caller: median \(nanoseconds(samples, 0.5)) ns, p99 \(nanoseconds(samples, 0.99)) ns, "
      + "p99.9 \(nanoseconds(samples, 0.999)) ns; dropped \(status.dropped), segments \(status.segments), "
      + "findings \(status.findings)")
  removeFolder(path)
}

// The flight recorder's memory as the session grows.
do {
  let path = folder("memory")
  let recorder = SessionRecorder(
    base: path + "/s", header: header,
    options: SessionRecorderOptions(flightRecorder: FlightRecorder(), sampling: Sampling(session: 0, triggered: 1)))
  Navigation.start(recorder)
  var navigation = Navigation()
  var checkpoints = [10_000, 100_000, 1_000_000, 10_000_000, 100_000_000].filter { $0 <= memoryEvents }
  var line = "  flight recorder resident memory:"
  for i in 1...memoryEvents {
    navigation.next(recorder)
    if i % 32_768 == 0 { recorder.flush() }
    if i == checkpoints.first {
      recorder.flush()
      checkpoints.removeFirst()
      let status = recorder.status
      line +=
        " \(grouped(i)) events \(format(Double(residentBytes()) / 1_048_576)) MiB"
        + " (buffer \(grouped(status.bufferedEvents)) events, \(grouped(status.bufferedBytes)) B);"
    }
  }
  let status = recorder.close()
  print(line + " dropped \(status.dropped)")
  removeFolder(path)
}

// Bytes per event written, kept as written and compressed.
for compress in [false, true] {
  let path = folder("bytes")
  let recorder = SessionRecorder(
    base: path + "/s", header: header,
    options: SessionRecorderOptions(
      rotation: Rotation(maxSegmentBytes: 1 << 20, maxTotalBytes: nil, compress: compress), capacity: 1 << 20))
  Navigation.start(recorder)
  var navigation = Navigation()
  let count = 200_000
  for i in 0..<count {
    navigation.next(recorder)
    if i % 32_768 == 0 { recorder.flush() }
  }
  let status = recorder.close()
  let bytes = folderBytes(path)
  print(
    "  bytes per event \(compress ? "gzip" : "as written"): \(format(Double(bytes) / Double(count + 9))) "
      + "(\(grouped(bytes)) bytes, \(status.segments) segments, dropped \(status.dropped))")
  removeFolder(path)
}
