import MapMath

/// Where the parts of a pin lie, in points relative to the place's own pixel (the needle's tip).
struct PinGeometry: Hashable {
  let headRadius: Double
  let needleLength: Double

  init(style: PinStyle) {
    headRadius = style.headRadius
    needleLength = style.needleLength
  }

  /// Offsets of the ground shadow and the head's cast shadow (down and to the right, as in MapKit).
  static let shadowOffset = 2.5

  var headCenter: PixelPoint { PixelPoint(x: 0, y: -(needleLength + headRadius)) }

  /// The round head: what other places' callouts must not cover.
  var headRect: PixelRect {
    PixelRect(
      x: -headRadius, y: -(needleLength + 2 * headRadius), width: 2 * headRadius, height: 2 * headRadius)
  }

  /// Everything the pin paints, shadows included.
  var extent: PixelRect {
    let top = -(needleLength + 2 * headRadius) - 1
    return PixelRect(
      x: -headRadius - 1, y: top, width: 2 * headRadius + 1 + PinGeometry.shadowOffset + 1.5,
      height: -top + 3)
  }
}
