/// The candidate closest to `word` by edit distance, when it is close enough
/// to be a likely typo (at most 2 edits, or a third of the word's length);
/// the first listed on a tie. The one "did you mean" of the package: unknown
/// commands, options, rules, event types, controllers and scenario commands.
///
/// ```swift
/// closestWord(to: "modal-leek", in: ["modal-leak", "order"])  // "modal-leak"
/// closestWord(to: "zzz", in: ["modal-leak"])                  // nil
/// ```
package func closestWord(to word: String, in candidates: some Sequence<String>, ignoringCase: Bool = false)
  -> String?
{
  let target = Array((ignoringCase ? word.lowercased() : word).unicodeScalars)
  var best: (String, Int)? = nil
  for candidate in candidates {
    let d = editDistance(target, Array((ignoringCase ? candidate.lowercased() : candidate).unicodeScalars))
    if d <= max(2, target.count / 3), best.map({ d < $0.1 }) ?? true { best = (candidate, d) }
  }
  return best?.0
}

/// Levenshtein distance between two scalar sequences.
package func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
  if a.isEmpty { return b.count }
  if b.isEmpty { return a.count }
  var previous = Array(0...b.count)
  var current = [Int](repeating: 0, count: b.count + 1)
  for i in 1...a.count {
    current[0] = i
    for j in 1...b.count {
      current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
    }
    swap(&previous, &current)
  }
  return previous[b.count]
}
