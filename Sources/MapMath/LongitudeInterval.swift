/// A stretch of longitudes from `west` eastwards to `east`, both in [-180, 180].
///
/// When `west > east` the interval crosses the 180° meridian (e.g. 170° … -170° is 20° wide).
public struct LongitudeInterval: Hashable, Sendable {
  public let west: Double
  public let east: Double

  public init(west: Double, east: Double) {
    self.west = west
    self.east = east
  }

  /// Degrees covered, in [0, 360].
  public var width: Double {
    west <= east ? east - west : east + 360 - west
  }

  public var crossesAntimeridian: Bool { west > east }

  /// The middle longitude, wrapped into [-180, 180).
  public var center: Double { normalizedLongitude(west + width / 2) }

  /// The narrowest interval holding every longitude: it leaves out the widest gap between neighbours, so a
  /// set on both sides of 180° takes the short way across it. Nil for an empty list.
  public static func enclosing(_ longitudes: [Double]) -> LongitudeInterval? {
    if longitudes.count >= bucketedCount { return bucketedEnclosing(longitudes) }
    return sortedEnclosing(longitudes)
  }

  static func sortedEnclosing(_ longitudes: [Double]) -> LongitudeInterval? {
    let sorted = longitudes.map { $0 == 180 ? -180 : normalizedLongitude($0) }.sorted()
    guard let first = sorted.first, let last = sorted.last else { return nil }
    // The gap from the last longitude eastwards round to the first is the default one left out.
    var widestGap = first + 360 - last
    var west = first
    var east = last
    for index in 1..<sorted.count {
      let gap = sorted[index] - sorted[index - 1]
      if gap > widestGap {
        widestGap = gap
        west = sorted[index]
        east = sorted[index - 1]
      }
    }
    return LongitudeInterval(west: west, east: east)
  }

  /// From this many longitudes on, `enclosing` finds the widest gap without sorting.
  static let bucketedCount = 4096

  /// `enclosing` in O(n): the longitudes go into buckets (at most 65,536, so they stay in the cache),
  /// keeping each bucket's least and greatest. A gap inside a bucket is narrower than a bucket, so when the
  /// widest gap between neighbouring non-empty buckets is at least a bucket wide, it is the widest of all,
  /// measured between the same two longitudes the sorted list would have, first one first on ties (with as
  /// many buckets as longitudes that always holds: some gap of n round the circle is 360/n wide). Otherwise
  /// the sorted way decides.
  static func bucketedEnclosing(_ longitudes: [Double]) -> LongitudeInterval? {
    guard !longitudes.isEmpty else { return nil }
    let count = min(longitudes.count, 65_536)
    var least = [Double](repeating: .infinity, count: count)
    var greatest = [Double](repeating: -.infinity, count: count)
    for longitude in longitudes {
      let value = longitude == 180 ? -180 : normalizedLongitude(longitude)
      // Not a number: no bucket (the sorted way has no place for it either).
      guard value.isFinite else { continue }
      let bucket = Int(min(max((value + 180) / 360 * Double(count), 0), Double(count - 1)))
      least[bucket] = min(least[bucket], value)
      greatest[bucket] = max(greatest[bucket], value)
    }
    let filled = (0..<count).filter { least[$0] <= greatest[$0] }
    guard let first = filled.first, let last = filled.last else { return nil }
    var widestGap = least[first] + 360 - greatest[last]
    var west = least[first]
    var east = greatest[last]
    for (previous, next) in zip(filled, filled.dropFirst()) {
      let gap = least[next] - greatest[previous]
      if gap > widestGap {
        widestGap = gap
        west = least[next]
        east = greatest[previous]
      }
    }
    guard widestGap >= 360 / Double(count) || count == longitudes.count else {
      return sortedEnclosing(longitudes)
    }
    return LongitudeInterval(west: west, east: east)
  }
}
