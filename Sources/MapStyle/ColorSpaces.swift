import Foundation

/// CIE L*a*b* and its polar form HCL, for `interpolate-lab` and `interpolate-hcl`. The D50 white point
/// and Bradford-adapted sRGB matrices are the ones MapLibre uses, so blends land on the same colours.
struct LabColor: Equatable {
  var lightness: Double
  var a: Double
  var b: Double
  var alpha: Double

  private static let white = (x: 0.96422, y: 1.0, z: 0.82521)
  private static let t0 = 4.0 / 29
  private static let t1 = 6.0 / 29
  private static let t2 = 3 * t1 * t1
  private static let t3 = t1 * t1 * t1

  init(lightness: Double, a: Double, b: Double, alpha: Double) {
    self.lightness = lightness
    self.a = a
    self.b = b
    self.alpha = alpha
  }

  init(_ color: StyleColor) {
    let r = Self.linear(color.red)
    let g = Self.linear(color.green)
    let bl = Self.linear(color.blue)
    let y = Self.compand((0.2225045 * r + 0.7168786 * g + 0.0606169 * bl) / Self.white.y)
    // Greys sit exactly on the neutral axis: no rounding noise in a and b.
    let neutral = color.red == color.green && color.green == color.blue
    let x = neutral ? y : Self.compand((0.4360747 * r + 0.3850649 * g + 0.1430804 * bl) / Self.white.x)
    let z = neutral ? y : Self.compand((0.0139322 * r + 0.0971045 * g + 0.7141733 * bl) / Self.white.z)
    self.init(lightness: max(0, 116 * y - 16), a: 500 * (x - y), b: 200 * (y - z), alpha: color.alpha)
  }

  var color: StyleColor {
    let fy = (lightness + 16) / 116
    let fx = a.isNaN ? fy : fy + a / 500
    let fz = b.isNaN ? fy : fy - b / 200
    let y = Self.white.y * Self.expand(fy)
    let x = Self.white.x * Self.expand(fx)
    let z = Self.white.z * Self.expand(fz)
    return StyleColor(
      red: Self.gamma(3.1338561 * x - 1.6168667 * y - 0.4906146 * z),
      green: Self.gamma(-0.9787684 * x + 1.9161415 * y + 0.033454 * z),
      blue: Self.gamma(0.0719453 * x - 0.2289914 * y + 1.4052427 * z), alpha: alpha)
  }

  private static func linear(_ channel: Double) -> Double {
    channel <= 0.04045 ? channel / 12.92 : pow((channel + 0.055) / 1.055, 2.4)
  }

  private static func gamma(_ channel: Double) -> Double {
    channel <= 0.00304 ? 12.92 * channel : 1.055 * pow(channel, 1 / 2.4) - 0.055
  }

  private static func compand(_ t: Double) -> Double { t > t3 ? cbrt(t) : t / t2 + t0 }

  private static func expand(_ t: Double) -> Double { t > t1 ? t * t * t : t2 * (t - t0) }

  /// Hue in degrees (NaN for greys, which have none), chroma and lightness.
  var hcl: (hue: Double, chroma: Double, lightness: Double) {
    let chroma = (a * a + b * b).squareRoot()
    guard (chroma * 10_000).rounded() != 0 else { return (.nan, chroma, lightness) }
    let degrees = (atan2(b, a) * 180 / .pi).truncatingRemainder(dividingBy: 360)
    return (degrees < 0 ? degrees + 360 : degrees, chroma, lightness)
  }

  init(hue: Double, chroma: Double, lightness: Double, alpha: Double) {
    let radians = hue.isNaN ? 0 : hue * .pi / 180
    self.init(lightness: lightness, a: cos(radians) * chroma, b: sin(radians) * chroma, alpha: alpha)
  }
}

extension StyleColor {
  /// Blends in CIE L*a*b*: perceptually even steps.
  func interpolatedInLab(to other: StyleColor, fraction t: Double) -> StyleColor {
    let from = LabColor(self)
    let to = LabColor(other)
    return LabColor(
      lightness: from.lightness + (to.lightness - from.lightness) * t, a: from.a + (to.a - from.a) * t,
      b: from.b + (to.b - from.b) * t, alpha: from.alpha + (to.alpha - from.alpha) * t
    ).color
  }

  /// Blends in HCL, turning the hue the short way round; a grey (no hue) takes the other colour's hue.
  func interpolatedInHCL(to other: StyleColor, fraction t: Double) -> StyleColor {
    let fromLab = LabColor(self)
    let toLab = LabColor(other)
    let from = fromLab.hcl
    let to = toLab.hcl
    var hue = Double.nan
    var chroma: Double?
    switch (from.hue.isNaN, to.hue.isNaN) {
    case (false, false):
      var delta = to.hue - from.hue
      if delta > 180 { delta -= 360 } else if delta < -180 { delta += 360 }
      hue = from.hue + t * delta
    case (false, true):
      hue = from.hue
      // MapLibre keeps the chroma when the other end is at lightness exactly 0 or 1.
      if to.lightness == 1 || to.lightness == 0 { chroma = from.chroma }
    case (true, false):
      hue = to.hue
      if from.lightness == 1 || from.lightness == 0 { chroma = to.chroma }
    case (true, true):
      break
    }
    return LabColor(
      hue: hue, chroma: chroma ?? from.chroma + (to.chroma - from.chroma) * t,
      lightness: from.lightness + (to.lightness - from.lightness) * t,
      alpha: fromLab.alpha + (toLab.alpha - fromLab.alpha) * t
    ).color
  }
}
