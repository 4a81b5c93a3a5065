/// One step of the alignment of a segment's expected and recorded events.
enum SegmentStep: Equatable {
  /// expected[i] is recorded as found[j].
  case match(Int, Int)
  /// expected[i] is not in the recording.
  case missing(Int)
  /// found[j] is not in the model's events.
  case extra(Int)
}

/// Aligns two short event lists by a longest common subsequence (common prefix
/// and suffix first); a middle too large for the table becomes one hunk.
///
/// - Complexity: O(n + m) plus O(n' · m') for the differing middle, at most `budget` cells.
func alignSegment<T: Equatable>(_ expected: [T], _ found: [T], budget: Int = 1 << 22) -> [SegmentStep] {
  var steps: [SegmentStep] = []
  var prefix = 0
  while prefix < expected.count, prefix < found.count, expected[prefix] == found[prefix] {
    steps.append(.match(prefix, prefix))
    prefix += 1
  }
  var suffix = 0
  while suffix < expected.count - prefix, suffix < found.count - prefix,
    expected[expected.count - 1 - suffix] == found[found.count - 1 - suffix]
  {
    suffix += 1
  }
  let n = expected.count - prefix - suffix
  let m = found.count - prefix - suffix
  if n > 0 && m > 0 && (n + 1) * (m + 1) <= budget {
    // lcs[i][j]: length of the LCS of expected[prefix+i...] and found[prefix+j...], flattened.
    let width = m + 1
    var lcs = [Int32](repeating: 0, count: (n + 1) * width)
    for i in stride(from: n - 1, through: 0, by: -1) {
      for j in stride(from: m - 1, through: 0, by: -1) {
        lcs[i * width + j] =
          expected[prefix + i] == found[prefix + j]
          ? lcs[(i + 1) * width + j + 1] + 1 : max(lcs[(i + 1) * width + j], lcs[i * width + j + 1])
      }
    }
    var i = 0
    var j = 0
    while i < n || j < m {
      if i < n, j < m, expected[prefix + i] == found[prefix + j] {
        steps.append(.match(prefix + i, prefix + j))
        i += 1
        j += 1
      } else if i < n, j == m || lcs[(i + 1) * width + j] >= lcs[i * width + j + 1] {
        steps.append(.missing(prefix + i))
        i += 1
      } else {
        steps.append(.extra(prefix + j))
        j += 1
      }
    }
  } else {
    for i in 0..<n { steps.append(.missing(prefix + i)) }
    for j in 0..<m { steps.append(.extra(prefix + j)) }
  }
  for k in 0..<suffix { steps.append(.match(prefix + n + k, prefix + m + k)) }
  return steps
}
