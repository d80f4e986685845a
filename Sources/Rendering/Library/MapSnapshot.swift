import Foundation
import MapMath

/// A finished map: the image file's bytes, where everything was drawn, and what the caller should know.
public struct MapSnapshot: Sendable {
  /// The image file (PNG, SVG or PDF, as `format` says).
  public let data: Data
  /// The format of `data`.
  public let format: OutputFormat
  /// What was drawn where, in image pixels: the camera, the pins and callouts, clusters, plates, labels.
  public let layout: MapLayout
  /// What was left out or drawn as a stand-in (callouts that did not fit, missing tiles…).
  public let warnings: [RenderWarning]

  init(_ result: RenderResult, format: OutputFormat) {
    data = Data(result.data)
    self.format = format
    layout = result.layout
    warnings = result.warnings
  }

  /// The camera the map was drawn with (fitted, or as given).
  public var camera: Camera { layout.camera }

  /// The image's size in pixels (`size × scale`).
  public var pixelSize: PixelSize { camera.pixelSize }

  /// The image pixel of a coordinate ((0, 0) the top-left corner; outside the image when the coordinate
  /// is not in view), in the world copy nearest the map's centre.
  public func point(for coordinate: Coordinate) -> PixelPoint { camera.pixel(for: coordinate) }

  /// The coordinate under an image pixel.
  public func coordinate(at point: PixelPoint) -> Coordinate { camera.coordinate(atPixel: point) }
}
