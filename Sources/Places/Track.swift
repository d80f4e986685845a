import Foundation
import MapMath

/// One point of a track or route: where, and when and how high if the file says.
public struct TrackPoint: Hashable, Sendable {
  public var latitude: Double
  public var longitude: Double
  /// Metres above sea level (GPX `ele`, the third GeoJSON coordinate).
  public var elevation: Double?
  public var time: Date?

  public init(latitude: Double, longitude: Double, elevation: Double? = nil, time: Date? = nil) {
    self.latitude = latitude
    self.longitude = longitude
    self.elevation = elevation
    self.time = time
  }

  public var coordinate: Coordinate { Coordinate(latitude: latitude, longitude: longitude) }
}

/// A path walked or planned: a GPX track (`trk`, recorded, in segments) or route (`rte`, planned, one
/// line), a GeoJSON LineString or MultiLineString, or a member of mymap JSON's `tracks`.
public struct Track: Hashable, Sendable, Identifiable {
  /// Whether the path was recorded or planned; GPX keeps them apart, and so does a round trip.
  public enum Kind: String, Hashable, Sendable, CaseIterable {
    case track
    case route
  }

  /// Stable across runs: taken from the file, or derived from the track's content (`derivedID`).
  public var id: String
  /// May be empty.
  public var name: String
  public var kind: Kind
  /// Like a place's category (GPX `type`); `No Category` when the file gives none.
  public var category: String
  /// May be empty (GPX `desc`).
  public var trackDescription: String
  /// The lines of the path; a route has one. A gap between segments is not drawn.
  public var segments: [[TrackPoint]]

  /// A track; without an `id` one is derived from its kind, name and points.
  public init(
    id: String? = nil, name: String = "", kind: Kind = .track, category: String = Category.default.name,
    trackDescription: String = "", segments: [[TrackPoint]]
  ) {
    self.id = id ?? Self.derivedID(kind: kind, name: name, segments: segments)
    self.name = name
    self.kind = kind
    self.category = category
    self.trackDescription = trackDescription
    self.segments = segments
  }

  /// Every point, segment after segment.
  public var points: FlattenSequence<[[TrackPoint]]> { segments.joined() }

  /// How many points the track has.
  public var pointCount: Int { segments.reduce(0) { $0 + $1.count } }

  /// The earliest and latest point times; nil when no point has a time.
  public var timeSpan: ClosedRange<Date>? {
    var earliest: Date?
    var latest: Date?
    for point in points {
      guard let time = point.time else { continue }
      if earliest.map({ time < $0 }) ?? true { earliest = time }
      if latest.map({ time > $0 }) ?? true { latest = time }
    }
    guard let earliest, let latest else { return nil }
    return earliest...latest
  }

  /// The length along the ground in metres: great-circle distances between neighbours in each segment.
  public var lengthMeters: Double {
    var total = 0.0
    for segment in segments {
      for index in segment.indices.dropFirst() {
        total += GreatCircle.distanceMeters(segment[index - 1].coordinate, segment[index].coordinate)
      }
    }
    return total
  }

  /// The title a list shows: the name, else `(No Name)`.
  public var title: String { name.isEmpty ? "(No Name)" : name }

  /// The id of a track that has none of its own: `trk-` (or `rte-`) and 16 hex digits of a hash of its
  /// name and points (positions and times), so the same file gives the same id on every run and machine and
  /// importing it again finds it. Category and description are left out: editing them keeps the id.
  public static func derivedID(kind: Kind, name: String, segments: [[TrackPoint]]) -> String {
    var hash = FNV1a64()
    hash.add(kind.rawValue)
    hash.add("|\(name)|")
    for segment in segments {
      hash.add("[")
      for point in segment {
        // Adding 0 turns -0.0 into 0.0, which would otherwise hash differently for the same point.
        hash.add(point.latitude + 0)
        hash.add(point.longitude + 0)
        hash.add(point.time?.timeIntervalSince1970 ?? .nan)
      }
    }
    return FNV1a64.id(prefix: kind == .track ? "trk-" : "rte-", hash.value)
  }
}
