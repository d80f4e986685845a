import MapMath

/// A callout's measured content and its bubble size, in points.
struct CalloutContent {
  let title: TextLayout
  let subtitle: TextLayout?
  let bubbleSize: PixelSize
  let style: CalloutStyle

  /// Space between the text and the ⓘ glyph.
  static let disclosureGap = 10.0
  /// Space between the two text lines.
  static let lineGap = 1.0
  /// The narrowest bubble, so that a short title still reads as a callout.
  static let minimumWidth = 64.0

  init(title: TextLayout, subtitle: TextLayout?, style: CalloutStyle) {
    self.title = title
    self.subtitle = subtitle
    self.style = style
    let textWidth = max(title.size.width, subtitle?.size.width ?? 0)
    let textHeight = title.size.height + (subtitle.map { CalloutContent.lineGap + $0.size.height } ?? 0)
    let width =
      style.horizontalPadding + textWidth + CalloutContent.disclosureGap + style.disclosureSize
      + style.horizontalPadding
    let height = max(textHeight, style.disclosureSize) + 2 * style.verticalPadding
    bubbleSize = PixelSize(width: max(width, CalloutContent.minimumWidth), height: height)
  }
}

/// Which side of the pin a callout sits on.
enum CalloutSide: Hashable {
  case above, below, left, right
}

/// One way of placing a callout: the bubble and the pointer's tip, in points relative to the place.
struct CalloutPlacement: Hashable {
  let side: CalloutSide
  let bubble: PixelRect
  let pointerTip: PixelPoint
  let pointerHeight: Double

  /// The bubble and its pointer together.
  var extent: PixelRect {
    switch side {
    case .above:
      return PixelRect(x: bubble.x, y: bubble.y, width: bubble.width, height: pointerTip.y - bubble.y)
    case .below:
      return PixelRect(x: bubble.x, y: pointerTip.y, width: bubble.width, height: bubble.maxY - pointerTip.y)
    case .left:
      return PixelRect(x: bubble.x, y: bubble.y, width: pointerTip.x - bubble.x, height: bubble.height)
    case .right:
      return PixelRect(x: pointerTip.x, y: bubble.y, width: bubble.maxX - pointerTip.x, height: bubble.height)
    }
  }

  func offsetBy(dx: Double, dy: Double) -> CalloutPlacement {
    CalloutPlacement(
      side: side, bubble: bubble.offsetBy(dx: dx, dy: dy),
      pointerTip: PixelPoint(x: pointerTip.x + dx, y: pointerTip.y + dy), pointerHeight: pointerHeight)
  }

  /// The candidate placements around a pin, preferred first: above and centred (as in the app), above
  /// shifted so the bubble stays inside `bounds` (relative to the place), above shifted left and right in
  /// quarter steps, then the same below, then beside the head on the right and on the left.
  static func candidates(
    size: PixelSize, pin: PinGeometry, style: CalloutStyle, bounds: PixelRect?
  ) -> [CalloutPlacement] {
    let gap = 1.5
    let maxShift = max(size.width / 2 - style.cornerRadius - style.pointerWidth / 2 - 2, 0)
    var result: [CalloutPlacement] = []
    for side in [CalloutSide.above, .below] {
      let tipY = side == .above ? pin.headRect.minY - gap : 3 + gap
      let bubbleY = side == .above ? tipY - style.pointerHeight - size.height : tipY + style.pointerHeight
      func placement(shift: Double) -> CalloutPlacement {
        CalloutPlacement(
          side: side,
          bubble: PixelRect(x: -size.width / 2 + shift, y: bubbleY, width: size.width, height: size.height),
          pointerTip: PixelPoint(x: 0, y: tipY), pointerHeight: style.pointerHeight)
      }
      var shifts = [0.0]
      if let bounds {
        // The smallest shift that brings a bubble poking out of the image back inside.
        let left = -size.width / 2
        let right = size.width / 2
        if left < bounds.minX { shifts.append(min(bounds.minX - left, maxShift)) }
        if right > bounds.maxX { shifts.append(max(bounds.maxX - right, -maxShift)) }
      }
      // Then step the bubble sideways along the pointer, a quarter of its range at a time.
      for fraction in [0.25, 0.5, 0.75, 1.0] { shifts += [-fraction * maxShift, fraction * maxShift] }
      var seen: Set<Double> = []
      for shift in shifts where seen.insert(shift).inserted {
        result.append(placement(shift: shift))
      }
    }
    let head = pin.headCenter
    for side in [CalloutSide.right, .left] {
      let tipX = side == .right ? head.x + pin.headRadius + gap : head.x - pin.headRadius - gap
      let bubbleX = side == .right ? tipX + style.pointerHeight : tipX - style.pointerHeight - size.width
      result.append(
        CalloutPlacement(
          side: side,
          bubble: PixelRect(x: bubbleX, y: head.y - size.height / 2, width: size.width, height: size.height),
          pointerTip: PixelPoint(x: tipX, y: head.y), pointerHeight: style.pointerHeight))
    }
    return result
  }
}
