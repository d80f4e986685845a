import MapMath

/// A corner of the image, where plates go.
enum PlateCorner: CaseIterable {
  case bottomRight, bottomLeft, topRight, topLeft
  /// The middle of the top edge (the title).
  case topCenter
}

/// The one placer of every plate (the attribution; later a legend, a title, a scale bar): where a plate of
/// a given size sits in each corner, `margin` points in from the image's edges, and the first corner, in a
/// plate's order of preference, where it covers nothing already drawn.
struct CornerPlacer {
  /// The image, in points.
  let imageSize: PixelSize
  let margin: Double

  /// The plate's rectangle in `corner`, in points.
  func rect(for size: PixelSize, in corner: PlateCorner) -> PixelRect {
    let left = corner == .bottomLeft || corner == .topLeft
    let top = corner == .topRight || corner == .topLeft || corner == .topCenter
    let right = imageSize.width - margin - size.width
    return PixelRect(
      x: corner == .topCenter ? ((imageSize.width - size.width) / 2).rounded() : left ? margin : right,
      y: top ? margin : imageSize.height - margin - size.height, width: size.width, height: size.height)
  }

  /// The first of `corners` where a plate of `size` overlaps none of `taken`, and its rectangle; nil when
  /// every corner is taken.
  func firstFree(for size: PixelSize, among corners: [PlateCorner], avoiding taken: [PixelRect])
    -> (corner: PlateCorner, rect: PixelRect)?
  {
    for corner in corners {
      let candidate = rect(for: size, in: corner)
      if !taken.contains(where: { $0.intersects(candidate) }) { return (corner, candidate) }
    }
    return nil
  }
}
