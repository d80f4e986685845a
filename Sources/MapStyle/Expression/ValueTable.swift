/// Style values mapped to small integers (a `match`'s output indices, a legacy `in` list, categorical
/// stops). Lookups happen per feature, so small tables — nearly all of them — are scanned instead of
/// hashed: comparing a few short strings is cheaper than hashing one.
struct ValueTable: Sendable {
  private static let scanLimit = 8
  private var entries: [(key: StyleValue, index: Int)] = []
  private var hashed: [StyleValue: Int] = [:]

  var count: Int { hashed.count }

  /// Adds a key; false when it is already present.
  mutating func insert(_ key: StyleValue, index: Int) -> Bool {
    guard hashed.updateValue(index, forKey: key) == nil else { return false }
    if hashed.count <= Self.scanLimit {
      entries.append((key, index))
    } else {
      entries = []
    }
    return true
  }

  /// The index for a value equal to `key` with the same type (numbers compare as numbers).
  func index(of key: StyleValue) -> Int? {
    guard hashed.count <= Self.scanLimit else { return hashed[key] }
    for entry in entries where entry.key == key { return entry.index }
    return nil
  }
}
