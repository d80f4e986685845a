#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Something drawn at a place: a rectangle in points relative to the place's own pixel (a pin, a callout).
public struct OverlayExtent: Hashable, Sendable {
  public var anchor: Coordinate
  /// The drawn rectangle in points, relative to the anchor's pixel (at scale 1).
  public var rect: PixelRect

  public init(anchor: Coordinate, rect: PixelRect) {
    self.anchor = anchor
    self.rect = rect
  }
}

/// How `Camera.fitting` chooses its zoom.
public enum ZoomSnapping: Sendable {
  /// Whole zooms only: tiles are drawn 1:1 and stay crisp.
  case integer
  /// Any zoom: the tightest fit.
  case fractional
}

extension Camera {
  /// The camera that shows a region and everything drawn around its places.
  ///
  /// Picks the largest zoom (inside `zoomLimits`, snapped as asked) at which the region's box and every
  /// overlay rectangle, plus `padding` points on each side, fit in the image; then centres the union of
  /// those rectangles so the margins are even. A given `center` is kept (the fit is then symmetric around
  /// it) and a given `zoom` is used as it is. Works in points, so the zoom does not depend on `scale`.
  public static func fitting(
    region: Region, size: PixelSize, scale: Double = 1, overlays: [OverlayExtent] = [],
    padding: Double = 0, snapping: ZoomSnapping = .integer, zoomLimits: ClosedRange<Double> = 0...19,
    center fixedCenter: Coordinate? = nil, zoom fixedZoom: Double? = nil
  ) -> Camera {
    let content = FittingContent(region: region, overlays: overlays)
    let reference = fixedCenter.map { WebMercator.project($0).nearestCopy(to: content.referenceX) }
    let available = PixelSize(
      width: max(size.width - 2 * padding, 1), height: max(size.height - 2 * padding, 1))

    func fits(_ zoom: Double) -> Bool {
      let extent = content.extent(worldPoints: 256 * pow(2, zoom), around: reference)
      return extent.width <= available.width + 1e-9 && extent.height <= available.height + 1e-9
    }

    let zoom: Double
    if let fixedZoom {
      zoom = fixedZoom
    } else {
      switch snapping {
      case .integer:
        var candidate = zoomLimits.upperBound.rounded(.down)
        while candidate > zoomLimits.lowerBound && !fits(candidate) { candidate -= 1 }
        zoom = max(candidate, zoomLimits.lowerBound)
      case .fractional:
        if fits(zoomLimits.upperBound) {
          zoom = zoomLimits.upperBound
        } else if !fits(zoomLimits.lowerBound) {
          zoom = zoomLimits.lowerBound
        } else {
          var low = zoomLimits.lowerBound
          var high = zoomLimits.upperBound
          for _ in 0..<60 {
            let middle = (low + high) / 2
            if fits(middle) { low = middle } else { high = middle }
          }
          zoom = low
        }
      }
    }

    let worldPoints = 256 * pow(2, zoom)
    var centerWorld: WorldPoint
    let extent = content.extent(worldPoints: worldPoints, around: nil)
    if let reference {
      centerWorld = reference
    } else {
      centerWorld = WorldPoint(x: extent.midX / worldPoints, y: extent.midY / worldPoints)
    }
    // Keep the poles' empty space out of the picture when the world is taller than the image, but never
    // so far that a pin near a pole leaves the frame.
    let halfHeight = size.height / 2 / worldPoints
    if halfHeight >= 0.5 {
      centerWorld.y = 0.5
    } else if fixedCenter == nil {
      let lowest = min(halfHeight, (extent.minY - padding) / worldPoints + halfHeight)
      let highest = max(1 - halfHeight, (extent.maxY + padding) / worldPoints - halfHeight)
      centerWorld.y = min(max(centerWorld.y, lowest), highest)
    }
    // At a whole zoom, put the world's origin on a whole point (so a whole pixel at every scale, and the
    // same layout at every scale): tiles are then copied 1:1, crisp.
    if fixedCenter == nil && zoom == zoom.rounded() {
      let originX = (size.width / 2 - centerWorld.x * worldPoints).rounded()
      let originY = (size.height / 2 - centerWorld.y * worldPoints).rounded()
      centerWorld = WorldPoint(
        x: (size.width / 2 - originX) / worldPoints, y: (size.height / 2 - originY) / worldPoints)
    }
    let center = WebMercator.unproject(WorldPoint(x: centerWorld.x, y: min(max(centerWorld.y, 0), 1)))
    return Camera(center: center, zoom: zoom, size: size, scale: scale)
  }
}

/// The region's box and the overlays, unwrapped around one world copy so that the arithmetic is linear.
private struct FittingContent {
  let referenceX: Double
  let regionMin: WorldPoint
  let regionMax: WorldPoint
  let anchors: [(point: WorldPoint, rect: PixelRect)]

  init(region: Region, overlays: [OverlayExtent]) {
    let box = region.box
    let centre = WebMercator.project(region.center)
    referenceX = centre.x
    let halfWidth = min(region.longitudeDelta, 360) / 360 / 2
    regionMin = WorldPoint(
      x: centre.x - halfWidth, y: WebMercator.project(Coordinate(latitude: box.north, longitude: 0)).y)
    regionMax = WorldPoint(
      x: centre.x + halfWidth, y: WebMercator.project(Coordinate(latitude: box.south, longitude: 0)).y)
    anchors = overlays.map {
      (WebMercator.project($0.anchor).nearestCopy(to: centre.x), $0.rect)
    }
  }

  /// The union of everything in points at a world size; around a fixed centre it is made symmetric.
  func extent(worldPoints k: Double, around center: WorldPoint?) -> PixelRect {
    var minX = regionMin.x * k
    var maxX = regionMax.x * k
    var minY = regionMin.y * k
    var maxY = regionMax.y * k
    for (point, rect) in anchors {
      minX = min(minX, point.x * k + rect.minX)
      maxX = max(maxX, point.x * k + rect.maxX)
      minY = min(minY, point.y * k + rect.minY)
      maxY = max(maxY, point.y * k + rect.maxY)
    }
    if let center {
      let cx = center.x * k
      let cy = center.y * k
      let halfWidth = max(cx - minX, maxX - cx)
      let halfHeight = max(cy - minY, maxY - cy)
      return PixelRect(x: cx - halfWidth, y: cy - halfHeight, width: 2 * halfWidth, height: 2 * halfHeight)
    }
    return PixelRect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
  }
}
