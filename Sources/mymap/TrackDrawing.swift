import Arguments
import Foundation
import MapMath
import Places
import Rendering

/// What `render` draws of tracks and routes: the stored (or given) tracks that pass the filters, and with
/// `--route` the line through the places in date order.
enum TrackDrawing {
  static let routeOption = OptionSpec.flag(
    "route",
    help:
      "Join the places in date order by great-circle arcs, with small chevrons for the direction (places"
      + " without a date are left out of the route).")

  /// The lines to draw over the map for these places and tracks.
  static func lines(places: [Location], tracks: [Track], route: Bool) -> [MapTrack] {
    var lines = tracks.map { track in
      MapTrack(id: track.id, name: track.name, segments: track.segments.map { $0.map(\.coordinate) })
    }
    if route {
      // A stable sort: places with the same date keep the order they came in.
      let dated = places.enumerated().compactMap { item in
        item.element.date.map { (item.offset, $0, item.element) }
      }
      .sorted { ($0.1, $0.0) < ($1.1, $1.0) }
      if let line = MapTrack.route(through: dated.map(\.2.coordinate)) { lines.append(line) }
    }
    return lines
  }
}

extension LocationFilter {
  /// The store's rules for tracks, applied to tracks read from a file: categories match without regard to
  /// case; a track is in a date range when its time span overlaps it, and one without times is outside
  /// every range.
  func includes(_ track: Track) -> Bool {
    if !categories.isEmpty && !categories.contains(where: { $0.lowercased() == track.category.lowercased() })
    {
      return false
    }
    guard since != nil || until != nil else { return true }
    guard let span = track.timeSpan else { return false }
    if let since, span.upperBound < since { return false }
    if let until, span.lowerBound > until { return false }
    return true
  }
}
