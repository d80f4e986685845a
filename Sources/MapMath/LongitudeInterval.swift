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
}
