import Foundation
import ImageCodecs
import MapMath
import MapStyle
import Tiles
import XCTest

@testable import Rendering

/// A small Mapbox Vector Tile encoder for tests: layers of features with string attributes, written
/// as the specification says (commands, zigzag deltas, packed tags), independent of the decoder.
struct SyntheticTile {
  struct Feature {
    enum Kind: UInt64 {
      case point = 1
      case line = 2
      case polygon = 3
    }

    var kind: Kind
    var id: UInt64?
    var attributes: [(String, String)]
    /// Points, lines or rings (rings open, exteriors clockwise on screen) in tile coordinates.
    var parts: [[(Int32, Int32)]]
  }

  var layers: [(name: String, features: [Feature])]
  var extent: UInt64 = 4096

  func encoded() -> [UInt8] {
    var tile: [UInt8] = []
    for layer in layers { Self.message(3, layerMessage(layer.name, layer.features), into: &tile) }
    return tile
  }

  private func layerMessage(_ name: String, _ features: [Feature]) -> [UInt8] {
    var keys: [String] = []
    var values: [String] = []
    var bytes: [UInt8] = []
    Self.varintField(15, 2, into: &bytes)
    Self.message(1, Array(name.utf8), into: &bytes)
    for feature in features {
      var tags: [UInt64] = []
      for (key, value) in feature.attributes {
        if !keys.contains(key) { keys.append(key) }
        if !values.contains(value) { values.append(value) }
        tags += [UInt64(keys.firstIndex(of: key)!), UInt64(values.firstIndex(of: value)!)]
      }
      var message: [UInt8] = []
      if let id = feature.id { Self.varintField(1, id, into: &message) }
      Self.message(2, tags.flatMap(Self.varint), into: &message)
      Self.varintField(3, feature.kind.rawValue, into: &message)
      Self.message(4, Self.geometry(feature).flatMap(Self.varint), into: &message)
      Self.message(2, message, into: &bytes)
    }
    for key in keys { Self.message(3, Array(key.utf8), into: &bytes) }
    for value in values {
      var message: [UInt8] = []
      Self.message(1, Array(value.utf8), into: &message)
      Self.message(4, message, into: &bytes)
    }
    Self.varintField(5, extent, into: &bytes)
    return bytes
  }

  private static func geometry(_ feature: Feature) -> [UInt64] {
    var commands: [UInt64] = []
    var cursor: (Int32, Int32) = (0, 0)
    func delta(_ point: (Int32, Int32)) {
      commands += [zigzag(point.0 - cursor.0), zigzag(point.1 - cursor.1)]
      cursor = point
    }
    if feature.kind == .point {
      let points = feature.parts.flatMap { $0 }
      commands.append(1 | UInt64(points.count) << 3)
      points.forEach(delta)
      return commands
    }
    for part in feature.parts {
      commands.append(1 | 1 << 3)
      delta(part[0])
      commands.append(2 | UInt64(part.count - 1) << 3)
      part.dropFirst().forEach(delta)
      if feature.kind == .polygon { commands.append(7 | 1 << 3) }
    }
    return commands
  }

  private static func zigzag(_ value: Int32) -> UInt64 {
    UInt64(UInt32(bitPattern: (value << 1) ^ (value >> 31)))
  }

  private static func varint(_ value: UInt64) -> [UInt8] {
    var value = value
    var bytes: [UInt8] = []
    while value >= 0x80 {
      bytes.append(UInt8(value & 0x7F) | 0x80)
      value >>= 7
    }
    bytes.append(UInt8(value))
    return bytes
  }

  private static func varintField(_ field: UInt64, _ value: UInt64, into bytes: inout [UInt8]) {
    bytes += varint(field << 3) + varint(value)
  }

  private static func message(_ field: UInt64, _ payload: [UInt8], into bytes: inout [UInt8]) {
    bytes += varint(field << 3 | 2) + varint(UInt64(payload.count)) + payload
  }
}

/// Tiles held in memory; tiles in `failing` throw, as a broken file would.
struct MemoryTileSupply: VectorTileSupply {
  struct Broken: Error, CustomStringConvertible {
    var description: String { "the test source cannot read this tile" }
  }

  var zoomRange: ClosedRange<Int> = 0...14
  var tiles: [TileID: [UInt8]] = [:]
  var failing: Set<TileID> = []

  func vectorTileBytes(_ tile: TileID) throws -> [UInt8]? {
    if failing.contains(tile) { throw Broken() }
    return tiles[tile]
  }
}

/// Maps over synthetic tiles, read back as pixels.
enum SyntheticMaps {
  /// A zoom 14 tile in central Helsinki.
  static let tile = TileID(z: 14, x: 9326, y: 4742)!

  /// The camera whose centre is `fraction` of the way across `tile` (0.5: its middle), at a mymap zoom:
  /// at zoom 15 the tile is 512 points wide.
  static func camera(
    zoom: Double = 15, across fraction: (x: Double, y: Double) = (0.5, 0.5), size: Double = 512,
    scale: Double = 1
  ) -> Camera {
    let count = Double(tile.gridSize)
    let world = WorldPoint(x: (Double(tile.x) + fraction.x) / count, y: (Double(tile.y) + fraction.y) / count)
    return Camera(
      center: WebMercator.unproject(world), zoom: zoom, size: PixelSize(width: size, height: size),
      scale: scale)
  }

  /// A style over the source "s" with the given layers (JSON objects), after a white background.
  static func style(_ layers: String) throws -> MapStyle {
    let text = """
      {"version": 8, "sources": {"s": {"type": "vector"}}, "layers": [
        {"id": "background", "type": "background", "paint": {"background-color": "#ffffff"}}, \(layers)]}
      """
    return try MapStyle(bytes: Array(text.utf8))
  }

  static func render(
    _ style: MapStyle, _ supply: MemoryTileSupply, camera: Camera, format: OutputFormat = .png
  ) throws -> (data: Data, layer: VectorMapLayer) {
    try VectorMapFixtures.render(style: style, camera: camera, format: format, supply: supply)
  }

  static func pixels(_ png: Data) throws -> RasterImage {
    try PNGCodec.decode(png)
  }
}

extension RasterImage {
  /// The pixel at (x, y) as (r, g, b, a).
  func pixel(_ x: Int, _ y: Int) -> [UInt8] {
    let start = (y * width + x) * 4
    return Array(rgba[start..<start + 4])
  }
}
