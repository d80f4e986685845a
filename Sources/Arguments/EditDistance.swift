/// The optimal-string-alignment distance between two strings: insertions, deletions, substitutions and
/// transpositions of adjacent characters each cost one.
func editDistance(_ a: String, _ b: String) -> Int {
  let a = Array(a)
  let b = Array(b)
  if a.isEmpty { return b.count }
  if b.isEmpty { return a.count }
  var previousPrevious = [Int](repeating: 0, count: b.count + 1)
  var previous = Array(0...b.count)
  var current = [Int](repeating: 0, count: b.count + 1)
  for i in 1...a.count {
    current[0] = i
    for j in 1...b.count {
      let cost = a[i - 1] == b[j - 1] ? 0 : 1
      var best = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
      if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
        best = min(best, previousPrevious[j - 2] + 1)
      }
      current[j] = best
    }
    (previousPrevious, previous, current) = (previous, current, previousPrevious)
  }
  return previous[b.count]
}

/// The candidate a user most likely meant by `input`, or `nil` if none is close.
///
/// A candidate that `input` is a prefix of wins when it is the only one (and `input` has at least two
/// characters); otherwise the nearest by edit distance, within about a third of the longer length (at
/// least one edit). Ties go to the earlier candidate, so the answer is deterministic.
public func closestMatch(to input: String, among candidates: [String]) -> String? {
  if input.count >= 2 {
    let prefixed = candidates.filter { $0.hasPrefix(input) && $0 != input }
    if prefixed.count == 1 { return prefixed[0] }
  }
  var best: (candidate: String, distance: Int)?
  for candidate in candidates {
    let distance = editDistance(input, candidate)
    let limit = max(1, (max(input.count, candidate.count) + 1) / 3)
    if distance <= limit && distance < (best?.distance ?? Int.max) {
      best = (candidate, distance)
    }
  }
  return best?.candidate
}
