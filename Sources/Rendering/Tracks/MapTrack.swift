import MapMath

/// A line drawn on the map under the pins: a recorded track, a planned route, or the route through the
/// places in date order (`MapTrack.route(through:)`). Rendering knows lines, not the store's tracks.
public struct MapTrack: Sendable {
  public var id: String
  public var name: String
  /// The lines; a gap between segments is not drawn. Longitudes may leave −180…180 (a line is drawn the
  /// short way between neighbours in any case).
  public var segments: [[Coordinate]]
  /// Draws small chevrons along the line, pointing the way it goes.
  public var showsDirection: Bool
  /// The length along the ground, in metres (great-circle distances between neighbours).
  public let lengthMeters: Double
  /// A few coordinates whose box is the line's box (the short way across 180°), for the map's region.
  public let extremes: [Coordinate]

  public init(id: String, name: String, segments: [[Coordinate]], showsDirection: Bool = false) {
    self.id = id
    self.name = name
    self.segments = segments
    self.showsDirection = showsDirection
    var length = 0.0
    for segment in segments {
      for index in segment.indices.dropFirst() {
        length += GreatCircle.distanceMeters(segment[index - 1], segment[index])
      }
    }
    lengthMeters = length
    extremes = Self.extremes(of: segments)
  }

  /// The route through `stops` in their order: great-circle arcs sampled every degree at most, so a long
  /// leg curves as on a globe and one across 180° goes the short way. Nil for fewer than two stops.
  public static func route(through stops: [Coordinate], id: String = "route", name: String = "Route")
    -> MapTrack?
  {
    guard stops.count >= 2 else { return nil }
    var line: [Coordinate] = [stops[0]]
    for index in stops.indices.dropFirst() {
      let start = line[line.count - 1]
      // Each leg starts at the copy where the last one ended, so the whole route is continuous.
      let end = Coordinate(latitude: stops[index].latitude, longitude: stops[index].longitude)
      line += GreatCircle.arc(from: start, to: end, maximumStep: 1).dropFirst()
    }
    return MapTrack(id: id, name: name, segments: [line], showsDirection: true)
  }

  /// The line's northmost and southmost latitudes at its west and east ends (unwrapped: each point taken
  /// in the copy nearest the one before), plus a point every 90° between them, so that a box around them is
  /// the short way for a line across 180° and the long way for one around the world.
  private static func extremes(of segments: [[Coordinate]]) -> [Coordinate] {
    var north = -90.0
    var south = 90.0
    var west = Double.infinity
    var east = -Double.infinity
    var previous: Double?
    for segment in segments {
      for point in segment where point.isFiniteCoordinate {
        var longitude = point.longitude
        if let previous {
          while longitude - previous > 180 { longitude -= 360 }
          while longitude - previous < -180 { longitude += 360 }
        }
        previous = longitude
        north = max(north, point.latitude)
        south = min(south, point.latitude)
        west = min(west, longitude)
        east = max(east, longitude)
      }
    }
    guard west <= east else { return [] }
    var longitudes = [west]
    var next = west + 90
    while next < east && longitudes.count < 8 {
      longitudes.append(next)
      next += 90
    }
    longitudes.append(east)
    return longitudes.flatMap { longitude in
      [north, south].map { Coordinate(latitude: $0, longitude: normalizedLongitude(longitude)) }
    }
  }
}

extension Coordinate {
  var isFiniteCoordinate: Bool { latitude.isFinite && longitude.isFinite }
}
