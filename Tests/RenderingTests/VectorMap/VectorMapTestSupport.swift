import Foundation
import MapMath
import MapStyle
import TestSupport
import Tiles
import XCTest

@testable import Rendering

/// The Helsinki example tiles and the bundled vector styles, drawn through `VectorMapLayer`.
enum VectorMapFixtures {
  static var tilesPath: String {
    RepositoryPaths.examples.appendingPathComponent("tiles/helsinki.pmtiles").path
  }

  static var referenceFolder: URL { RepositoryPaths.fixture("vector/reference") }

  static func archive() throws -> PMTilesArchive {
    try PMTilesArchive(path: tilesPath)
  }

  static func style(_ name: String) throws -> MapStyle {
    let url = RepositoryPaths.styles.appendingPathComponent("vector/\(name).json")
    return try MapStyle(bytes: [UInt8](try Data(contentsOf: url)))
  }

  /// The camera of the README's Helsinki example: its places fitted into 1200×800 points.
  static func exampleCamera(scale: Double = 1) throws -> Camera {
    let coordinates: [Coordinate] = [
      (60.17127, 24.94118), (60.17002, 24.94407), (60.16951, 24.95227), (60.17038, 24.95218),
      (60.16762, 24.95305), (60.16616, 24.95278), (60.16748, 24.94761), (60.16782, 24.94504),
      (60.16815, 24.94364), (60.16781, 24.93874), (60.16876, 24.93885),
    ].map { Coordinate(latitude: $0.0, longitude: $0.1) }
    let region = try XCTUnwrap(Region.forAnnotations(coordinates, user: nil))
    return Camera.fitting(
      region: region, size: PixelSize(width: 1200, height: 800), scale: scale, padding: 60,
      snapping: .fractional)
  }

  /// Draws a map onto a new canvas and returns the finished file; `bands` overrides the image's bands.
  static func render(
    style: MapStyle, camera: Camera, format: OutputFormat = .png, labels: Bool = true,
    obstacles: [PixelRect] = [], supply: (any VectorTileSupply)? = nil, bands: [Range<Int>]? = nil
  ) throws -> (data: Data, layer: VectorMapLayer) {
    let measuring = MeasuringContext()
    let layer = try VectorMapLayer(
      supply: try supply ?? archive(), style: style, camera: camera, obstacles: obstacles,
      measuring: measuring, drawsLabels: labels)
    let canvas = try Canvas(
      format: format, pixelWidth: Int(camera.pixelSize.width), pixelHeight: Int(camera.pixelSize.height),
      scale: camera.scale)
    layer.draw(on: canvas, bands: bands)
    return (try canvas.finish(), layer)
  }
}
