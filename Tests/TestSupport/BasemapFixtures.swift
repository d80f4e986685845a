import BasemapBuilding
import MapMath
import Tiles

/// The fixture's files as builder inputs: `land.shp` doubles as lakes, `lines.shp` as every kind of line
/// but rivers (`rivers.pn2`).
public func basemapFixtureInputs() -> BasemapBuilder.Inputs {
  func file(_ name: String) -> String { RepositoryPaths.fixture("basemap/\(name)").path }
  return BasemapBuilder.Inputs(
    land: file("land.shp"), lakes: file("land.shp"), coastline: file("lines.shp"),
    countryBorders: file("lines.shp"), stateBorders: file("lines.shp"), countries: file("land.dbf"),
    cities: file("cities.csv"), rivers: file("rivers.pn2"))
}

/// The non-zero winding number of the features' rings around a point: 0 outside, non-zero inside.
public func winding(of point: WorldPoint, in features: [BasemapFeature]) -> Int {
  var total = 0
  for ring in features.flatMap(\.parts) where ring.count >= 2 {
    for (a, b) in zip(ring, ring.dropFirst()) {
      let side = (b.x - a.x) * (point.y - a.y) - (point.x - a.x) * (b.y - a.y)
      if a.y <= point.y {
        if b.y > point.y && side > 0 { total += 1 }
      } else if b.y <= point.y && side < 0 {
        total -= 1
      }
    }
  }
  return total
}
