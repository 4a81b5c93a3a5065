// A small app for the fault-injection tests: records events through a Recorder
// and prints what it was told. Usage: recorder-probe JOURNAL always|batch|none COUNT
//
// It records COUNT marks `e0`, `e1`, … (waiting when the queue is full), flushes
// after every third, prints `flush N ok|failed` (N: the events recorded so far),
// every fault it is called with as `fault MESSAGE`, and after `close()` one line
// `status accepted=… written=… dropped=… lost=… faults=…`.
import Journal
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

let arguments = CommandLine.arguments
guard arguments.count == 4, let durability = Durability(rawValue: arguments[2]), let count = Int(arguments[3]) else {
  print("usage: recorder-probe JOURNAL always|batch|none COUNT")
  exit(64)
}

let faults = Mutex<[String]>([])
let recorder = Recorder(
  path: arguments[1], header: SessionHeader(session: "probe", app: "recorder-probe"),
  options: RecorderOptions(
    capacity: 4, overflow: .block, onFault: .retry(every: .milliseconds(1)), durability: durability),
  onFault: { error in faults.withLock { $0.append(error.message) } })
for i in 0..<count {
  recorder.mark("e\(i)")
  if i % 3 == 2 { print("flush \(i + 1) \(recorder.flush() ? "ok" : "failed")") }
}
let status = recorder.close()
for message in faults.withLock({ $0 }) { print("fault \(message)") }
print(
  "status accepted=\(status.accepted) written=\(status.written) dropped=\(status.dropped) lost=\(status.lost) faults=\(status.faults)"
)
