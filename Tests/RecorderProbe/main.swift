// A small app for the fault-injection tests: records events through a Recorder
// and prints what it was told. Usage: recorder-probe JOURNAL always|batch|none COUNT
//
// It records COUNT marks `e0`, `e1`, … (waiting when the queue is full), flushes
// after every third, prints `flush N ok|failed` (N: the events recorded so far),
// every fault it is called with as `fault MESSAGE`, and after `close()` one line
// `status accepted=… written=… dropped=… lost=… faults=…`. Each line is written
// with one write(2) as soon as it is known (the power-cut tests read in what
// order the probe learnt things), not through the buffered `print`.
//
// `recorder-probe --segments BASE always|batch|none COUNT` records through a
// SessionRecorder instead, rotating at every KiB (gzip, no bound on what is kept):
// three screens, then COUNT moves between two of them (a move and its four
// callbacks), each followed by a flush and `ack N` (N: the session's seq of the
// last event written and acknowledged), then `closed`. With KILL (a sixth
// argument) it sends itself SIGKILL right after recording its KILL-th move, wherever
// the writer then is (writing, rotating, compressing): the SIGKILL tests.
import Journal
import Recording
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

let arguments = CommandLine.arguments
if (5...6).contains(arguments.count) && arguments[1] == "--segments" {
  recordSegments(
    base: arguments[2], durability: arguments[3], count: arguments[4],
    killAfter: arguments.count == 6 ? arguments[5] : nil)
}
guard arguments.count == 4, let durability = Durability(rawValue: arguments[2]), let count = Int(arguments[3]) else {
  say("usage: recorder-probe JOURNAL always|batch|none COUNT")
  exit(64)
}

/// Writes a line to standard output at once.
func say(_ line: String) {
  let bytes = Array((line + "\n").utf8)
  var done = 0
  while done < bytes.count {
    let n = bytes[done...].withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
    if n <= 0 { return }
    done += n
  }
}

let faults = Mutex<[String]>([])
let recorder = Recorder(
  path: arguments[1], header: SessionHeader(session: "probe", app: "recorder-probe"),
  options: RecorderOptions(
    capacity: 4, overflow: .block, onFault: .retry(every: .milliseconds(1)), durability: durability),
  onFault: { error in faults.withLock { $0.append(error.message) } })
for i in 0..<count {
  recorder.mark("e\(i)")
  if i % 3 == 2 { say("flush \(i + 1) \(recorder.flush() ? "ok" : "failed")") }
}
let status = recorder.close()
for message in faults.withLock({ $0 }) { say("fault \(message)") }
say(
  "status accepted=\(status.accepted) written=\(status.written) dropped=\(status.dropped) lost=\(status.lost) faults=\(status.faults)"
)

/// The `--segments` mode (see the top of the file).
func recordSegments(base: String, durability: String, count: String, killAfter: String?) -> Never {
  guard let durability = Durability(rawValue: durability), let count = Int(count),
    killAfter == nil || Int(killAfter!) != nil
  else {
    say("usage: recorder-probe --segments BASE always|batch|none COUNT")
    exit(64)
  }
  let recorder = SessionRecorder(
    base: base, header: SessionHeader(session: "probe-segments", app: "recorder-probe"),
    options: SessionRecorderOptions(
      rotation: Rotation(maxSegmentBytes: 1024, maxSegmentDuration: nil, maxTotalBytes: nil, compress: true),
      durability: durability))
  recorder.alloc("home", className: "Home")
  recorder.alloc("notes", className: "Notes")
  recorder.root("home")
  recorder.didLoad("home")
  recorder.willAppear("home")
  recorder.didAppear("home")
  recorder.link("home", .right, to: "notes")
  recorder.didLoad("notes")
  var seq = 8
  var here: ControllerID = "home"
  let kill = killAfter.flatMap { Int($0) }
  for i in 0..<count {
    let there: ControllerID = here == "home" ? "notes" : "home"
    recorder.move(from: here, to: there, direction: here == "home" ? .right : .left, trigger: .pan, animated: true)
    recorder.willDisappear(here)
    recorder.willAppear(there)
    recorder.didDisappear(here)
    recorder.didAppear(there)
    seq += 5
    here = there
    if i == kill { raise(SIGKILL) }
    // Every third move is acknowledged; the others are left to the writer.
    if i % 3 == 2 && recorder.flush() { say("ack \(seq)") }
  }
  recorder.close()
  say("closed")
  exit(0)
}
