import Foundation
import MapMath
import Tiles

extension Snapshotter {
  /// Refuses a request whose sizes, numbers or tile source the render cannot work with, before any work.
  static func validate(_ request: RenderRequest) throws(RenderError) {
    let size = request.size
    guard size.width >= 1, size.height >= 1, size.width.isFinite, size.height.isFinite,
      size.width == size.width.rounded(), size.height == size.height.rounded()
    else {
      throw RenderError.invalidSize(
        "image size must be whole numbers of at least 1×1 (got \(size.width)×\(size.height))")
    }
    guard request.scale >= 0.5, request.scale <= 4 else {
      throw RenderError.invalidSize("scale must be between 0.5 and 4 (got \(request.scale))")
    }
    let pixelWidth = (size.width * request.scale).rounded()
    let pixelHeight = (size.height * request.scale).rounded()
    guard pixelWidth * pixelHeight <= Double(Snapshotter.maximumPixels) else {
      throw RenderError.invalidSize(
        // %.0f, not Int(_:), which traps on sizes past Int.max.
        "a \(String(format: "%.0f", pixelWidth))×\(String(format: "%.0f", pixelHeight)) image is over the limit"
          + " of 100 megapixels")
    }
    // Cairo's image surfaces (and so PNG output) end at 32767 pixels a side; SVG and PDF do not.
    if request.format == .png && max(pixelWidth, pixelHeight) > 32_767 {
      throw RenderError.invalidSize(
        "a PNG can be at most 32767 pixels a side (this one would be \(String(format: "%.0f", pixelWidth))×"
          + "\(String(format: "%.0f", pixelHeight))); make it smaller or write SVG or PDF")
    }
    guard request.padding.isFinite, request.padding >= 0 else {
      throw RenderError.invalidSize("the padding must be a number of points ≥ 0 (got \(request.padding))")
    }
    try validateValues(request)
    if let tiles = request.tiles {
      // A source is anyone's type: its numbers go into the camera's and the mosaic's integer arithmetic.
      guard TileLimits.isUsableTileSize(tiles.tileSize) else {
        throw RenderError.tileSource(
          TileSourceError.badTileSize(
            "\(tiles)", declaredIn: "its tile size", value: String(tiles.tileSize)
          ).description)
      }
      guard tiles.zoomRange.lowerBound >= 0, tiles.zoomRange.upperBound <= 30 else {
        throw RenderError.tileSource(
          "tile source \(tiles) has zooms \(tiles.zoomRange.lowerBound)–\(tiles.zoomRange.upperBound);"
            + " zooms go from 0 to 30")
      }
    }
  }

  /// The request's coordinates and numbers: all finite and in range, so that the camera's pixels are too.
  private static func validateValues(_ request: RenderRequest) throws(RenderError) {
    func check(_ coordinate: Coordinate, _ what: @autoclosure () -> String) throws(RenderError) {
      guard abs(coordinate.latitude) <= 90, abs(coordinate.longitude) <= 180 else {
        throw RenderError.invalidValue(
          "\(what()) is not a coordinate (latitude \(coordinate.latitude), longitude \(coordinate.longitude))"
        )
      }
    }
    for annotation in request.annotations {
      try check(annotation.coordinate, "the place \(annotation.identifier.prefix(80))")
    }
    if let user = request.user {
      try check(user.coordinate, "the user's position")
      if let accuracy = user.accuracy, !(accuracy.isFinite && accuracy >= 0) {
        throw RenderError.invalidValue("the user's accuracy must be a number of metres ≥ 0 (got \(accuracy))")
      }
    }
    if let center = request.center { try check(center, "the centre") }
    if let zoom = request.zoom, !(0...30).contains(zoom) {
      throw RenderError.invalidValue("the zoom must be between 0 and 30 (got \(zoom))")
    }
    if let span = request.spanMeters, !(span.isFinite && span > 0) {
      throw RenderError.invalidValue("the span must be a number of metres above 0 (got \(span))")
    }
  }
}
