import Foundation
import MapMath
import Tiles

/// Times what a renderer asks of the data for one 800×600 view (every kind, the view's band), at zooms
/// 2, 6, 10 and 16 around a few cities; prints features, points and milliseconds (median of the runs, and
/// the first, cold, run).
func measureQueries(path: String) throws {
  let data = try BasemapData(path: path)
  let centres = [
    ("Paris", Coordinate(latitude: 48.8566, longitude: 2.3522)),
    ("Tokyo", Coordinate(latitude: 35.6762, longitude: 139.6503)),
    ("New York", Coordinate(latitude: 40.7128, longitude: -74.0060)),
    ("Oslo fjord", Coordinate(latitude: 59.75, longitude: 10.6)),
  ]
  let runs = 9
  print("view 800x600 points; ms = median of \(runs) runs (first run in brackets)")
  print("zoom  band  centre        features    points     ms")
  for zoom in [2.0, 6, 10, 16] {
    let band = BasemapBand.band(forZoom: zoom)
    for (name, centre) in centres {
      let middle = WebMercator.project(centre)
      let halfWidth = 400 / (256 * pow(2, zoom))
      let halfHeight = 300 / (256 * pow(2, zoom))
      let windows = split(
        minimum: WorldPoint(x: middle.x - halfWidth, y: max(middle.y - halfHeight, 0)),
        maximum: WorldPoint(x: middle.x + halfWidth, y: min(middle.y + halfHeight, 1)))
      var times: [Double] = []
      var features = 0
      var points = 0
      for _ in 0..<runs {
        let start = DispatchTime.now().uptimeNanoseconds
        features = 0
        points = 0
        for kind in BasemapKind.allCases {
          for (minimum, maximum) in windows {
            let found = try data.features(kind, band: band, from: minimum, to: maximum)
            features += found.count
            points += found.reduce(0) { $0 + $1.parts.reduce(0) { $0 + $1.count } }
          }
        }
        times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
      }
      let first = times[0]
      let median = times.sorted()[times.count / 2]
      print(
        String(
          format: "%4.0f  %4d  %@ %9d %9d %6.2f (%.2f)", zoom, band,
          name.padding(toLength: 12, withPad: " ", startingAt: 0), features, points, median, first))
    }
  }
}

/// A window split at the world's edges into windows with x inside [0, 1].
private func split(minimum: WorldPoint, maximum: WorldPoint) -> [(WorldPoint, WorldPoint)] {
  if maximum.x - minimum.x >= 1 {
    return [(WorldPoint(x: 0, y: minimum.y), WorldPoint(x: 1, y: maximum.y))]
  }
  var windows: [(WorldPoint, WorldPoint)] = []
  let low = minimum.x - minimum.x.rounded(.down)
  let high = low + (maximum.x - minimum.x)
  if high <= 1 {
    windows.append((WorldPoint(x: low, y: minimum.y), WorldPoint(x: high, y: maximum.y)))
  } else {
    windows.append((WorldPoint(x: low, y: minimum.y), WorldPoint(x: 1, y: maximum.y)))
    windows.append((WorldPoint(x: 0, y: minimum.y), WorldPoint(x: high - 1, y: maximum.y)))
  }
  return windows
}
