import FuzzSupport
import VectorTiles

// Mapbox Vector Tiles (protobuf, uncompressed): a tile within `VectorTileLimits` or a `VectorTileError`.
// Every feature's properties and geometry views are walked, since they index the layer's storage lazily.
Fuzz.run { input in
  let bytes = input.bytes
  let tile: VectorTile
  do {
    tile = try VectorTile(decoding: bytes)
  } catch {
    requireShortMessage("\(error)")
    return
  }
  require(tile.layers.count <= VectorTileLimits.maximumLayerCount, "\(tile.layers.count) layers")
  var features = 0
  var points = 0
  for layer in tile.layers {
    features += layer.features.count
    for feature in layer.features {
      for (key, value) in feature.properties { _ = (key, value) }
      let geometry = feature.geometry
      points += geometry.points.count
      for part in geometry.parts { _ = part.count }
      for polygon in geometry.polygons {
        for ring in polygon { _ = ring.first }
      }
    }
  }
  require(features <= VectorTileLimits.maximumFeatureCount, "\(features) features")
  require(points <= VectorTileLimits.maximumPointCount, "\(points) points")
  let names = (try? VectorTile.layerNames(in: bytes)) ?? []
  require(names.count == tile.layers.count + tile.skippedLayerNames.count, "layerNames disagrees")
  if let first = tile.layers.first {
    let one = try? VectorTile(decoding: bytes, layers: [first.name])
    require(one?.layers.allSatisfy { $0.name == first.name } ?? false, "decoding one layer fails")
  }
}
