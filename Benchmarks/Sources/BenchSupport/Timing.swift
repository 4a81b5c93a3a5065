#if canImport(Glibc)
  import Glibc
#endif

/// The monotonic clock, in seconds since an arbitrary start: subtract two readings.
@inlinable
public func now() -> Double {
  var time = timespec()
  clock_gettime(CLOCK_MONOTONIC, &time)
  return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

/// The seconds elapsed since `start`, a reading of `now()`.
@inlinable
public func seconds(since start: Double) -> Double { now() - start }

/// The elapsed (wall) time `body` takes, in seconds.
@inlinable
public func seconds(_ body: () throws -> Void) rethrows -> Double {
  let start = now()
  try body()
  return now() - start
}

/// The shortest elapsed time, in seconds, of `runs` runs of `body` (infinity for no run).
@inlinable
public func best(of runs: Int, _ body: () throws -> Void) rethrows -> Double {
  var best = Double.infinity
  for _ in 0..<runs { best = min(best, try seconds(body)) }
  return best
}

/// The median of `values`: the middle one, or the mean of the two middle ones
/// when there is an even number of them. `values` must not be empty.
public func median(_ values: [Double]) -> Double {
  let sorted = values.sorted()
  let middle = sorted.count / 2
  return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}
