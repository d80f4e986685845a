/// A point of a plane the clipper can cut: image points and world points alike.
public protocol PlanePoint: Equatable {
  var x: Double { get }
  var y: Double { get }
  init(x: Double, y: Double)
}

extension PixelPoint: PlanePoint {}
extension WorldPoint: PlanePoint {}

/// One side of an axis-parallel line: the points whose x (or y) is at least, or at most, `bound`. The line
/// itself belongs to the side.
public struct HalfPlane: Hashable, Sendable {
  public enum Axis: Hashable, Sendable {
    case x
    case y
  }

  public var axis: Axis
  public var bound: Double
  /// True keeps the points at most `bound`, false those at least `bound`.
  public var keepsBelow: Bool

  public init(axis: Axis, bound: Double, keepsBelow: Bool) {
    self.axis = axis
    self.bound = bound
    self.keepsBelow = keepsBelow
  }

  @inlinable public func contains<P: PlanePoint>(_ point: P) -> Bool {
    let value = axis == .x ? point.x : point.y
    return keepsBelow ? value <= bound : value >= bound
  }

  /// Where the segment `start`→`end` crosses the line, exactly on it (so pieces cut at one line meet).
  @inlinable public func crossing<P: PlanePoint>(_ start: P, _ end: P) -> P {
    switch axis {
    case .x:
      let t = (bound - start.x) / (end.x - start.x)
      return P(x: bound, y: start.y + t * (end.y - start.y))
    case .y:
      let t = (bound - start.y) / (end.y - start.y)
      return P(x: start.x + t * (end.x - start.x), y: bound)
    }
  }
}

/// An axis-aligned rectangle to clip to, in any plane (image points, world units); edges included.
public struct ClipWindow: Hashable, Sendable {
  public var minX: Double
  public var minY: Double
  public var maxX: Double
  public var maxY: Double

  public init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
    self.minX = minX
    self.minY = minY
    self.maxX = maxX
    self.maxY = maxY
  }

  public init(_ rect: PixelRect) {
    self.init(minX: rect.minX, minY: rect.minY, maxX: rect.maxX, maxY: rect.maxY)
  }

  /// The four sides in the order the clipper cuts along them: left, right, top, bottom.
  @inlinable public var sides: [HalfPlane] {
    [
      HalfPlane(axis: .x, bound: minX, keepsBelow: false), HalfPlane(axis: .x, bound: maxX, keepsBelow: true),
      HalfPlane(axis: .y, bound: minY, keepsBelow: false), HalfPlane(axis: .y, bound: maxY, keepsBelow: true),
    ]
  }
}

/// Cutting polygons and lines to a rectangle or along one line, for drawing (the renderer keeps what Cairo
/// gets near the view) and for cutting data into grid cells (the basemap builder).
///
/// Rings are clipped with Sutherland–Hodgman, one side at a time: the result is one ring whose winding is
/// kept, where the parts outside become edges along the window (they enclose no area, so a polygon's rings,
/// holes included, clipped one by one still fill exactly its part inside, by either fill rule). Lines are
/// clipped with Liang–Barsky against a window, or run by run against one line.
public enum Clipping {
  // MARK: Rings

  /// The part of an open ring (its last point joins its first) inside `window`, as an open ring; empty when
  /// nothing is inside.
  @inlinable public static func polygon<P: PlanePoint>(_ ring: [P], to window: ClipWindow) -> [P] {
    var output = ring
    for side in window.sides {
      guard let last = output.last else { return [] }
      var next: [P] = []
      next.reserveCapacity(output.count + 4)
      _ = cut(output[...], after: last, to: side, into: &next)
      output = next
    }
    return output
  }

  /// The part of a closed ring (its last point repeats its first) inside `side`: a closed ring without
  /// repeated points, the ring itself when it lies wholly inside, nil when less than a triangle is left.
  @inlinable public static func closedRing<P: PlanePoint>(_ ring: [P], to side: HalfPlane) -> [P]? {
    guard ring.count >= 4 else { return nil }
    var output: [P] = []
    output.reserveCapacity(ring.count + 4)
    if cut(ring.dropFirst(), after: ring[0], to: side, into: &output) { return ring }
    return closedRing(output)
  }

  /// A closed ring cut to `window` side by side (see `closedRing(_:to:)` for one side); nil when nothing of
  /// it is inside.
  @inlinable public static func closedRing<P: PlanePoint>(_ ring: [P], to window: ClipWindow) -> [P]? {
    guard var result = closedRing(ring) else { return nil }
    for side in window.sides {
      guard let clipped = closedRing(result, to: side) else { return nil }
      result = clipped
    }
    return result
  }

  /// One Sutherland–Hodgman step: the edges from `start` through `points` cut to `side`, appended to
  /// `output`. Returns true when every point was inside (then `output` holds them all, unchanged).
  @inlinable static func cut<P: PlanePoint>(
    _ points: ArraySlice<P>, after start: P, to side: HalfPlane, into output: inout [P]
  ) -> Bool {
    var previous = start
    var previousInside = side.contains(start)
    var allInside = previousInside
    for current in points {
      let currentInside = side.contains(current)
      if currentInside != previousInside { output.append(side.crossing(previous, current)) }
      if currentInside { output.append(current) }
      allInside = allInside && currentInside
      previous = current
      previousInside = currentInside
    }
    return allInside
  }

  /// The points without consecutive repeats.
  @inlinable public static func withoutRepeats<P: PlanePoint>(_ points: [P]) -> [P] {
    var result: [P] = []
    result.reserveCapacity(points.count)
    for point in points where point != result.last { result.append(point) }
    return result
  }

  /// The points as a closed ring (last point equals the first) without repeated points; nil when fewer than
  /// three distinct points remain.
  @inlinable public static func closedRing<P: PlanePoint>(_ points: [P]) -> [P]? {
    var ring = withoutRepeats(points)
    if ring.count > 1, ring.first == ring.last { ring.removeLast() }
    guard ring.count >= 3 else { return nil }
    ring.append(ring[0])
    return ring
  }

  // MARK: Lines

  /// Liang–Barsky on each segment: the pieces of a line inside `window`, each of at least two points and
  /// not all at one spot (a line that only touches the window leaves nothing to draw there).
  @inlinable public static func polyline<P: PlanePoint>(_ line: [P], to window: ClipWindow) -> [[P]] {
    var parts: [[P]] = []
    var current: [P] = []
    for index in line.indices.dropFirst() {
      let a = line[index - 1]
      let b = line[index]
      guard let (t0, t1) = segment(a, b, window) else {
        if isPiece(current) { parts.append(current) }
        current = []
        continue
      }
      let start = t0 == 0 ? a : P(x: a.x + t0 * (b.x - a.x), y: a.y + t0 * (b.y - a.y))
      let end = t1 == 1 ? b : P(x: a.x + t1 * (b.x - a.x), y: a.y + t1 * (b.y - a.y))
      if t0 > 0 || current.isEmpty {
        if isPiece(current) { parts.append(current) }
        current = [start]
      }
      current.append(end)
    }
    if isPiece(current) { parts.append(current) }
    return parts
  }

  /// At least two points, not all equal.
  @inlinable static func isPiece<P: PlanePoint>(_ points: [P]) -> Bool {
    guard let first = points.first else { return false }
    return points.dropFirst().contains { $0 != first }
  }

  /// The parameters where the segment a→b enters and leaves `window`, nil when it misses it.
  @inlinable public static func segment<P: PlanePoint>(_ a: P, _ b: P, _ window: ClipWindow) -> (
    Double, Double
  )? {
    var t0 = 0.0
    var t1 = 1.0
    let dx = b.x - a.x
    let dy = b.y - a.y
    // One side: p is the direction towards the outside, q the distance from it (negative: outside).
    func narrow(_ p: Double, _ q: Double) -> Bool {
      if p == 0 { return !(q < 0) }
      let t = q / p
      if p < 0 {
        if t > t1 { return false }
        t0 = max(t0, t)
      } else {
        if t < t0 { return false }
        t1 = min(t1, t)
      }
      return true
    }
    guard narrow(-dx, a.x - window.minX), narrow(dx, window.maxX - a.x), narrow(-dy, a.y - window.minY),
      narrow(dy, window.maxY - a.y)
    else { return nil }
    return (t0, t1)
  }

  /// The runs of an open line inside `side`, each of at least two points and without repeated points; a
  /// run starts or ends exactly on the line where the line crosses it.
  @inlinable public static func line<P: PlanePoint>(_ line: [P], to side: HalfPlane) -> [[P]] {
    var pieces: [[P]] = []
    var current: [P] = []
    func finish() {
      let piece = withoutRepeats(current)
      if piece.count >= 2 { pieces.append(piece) }
      current = []
    }
    var previousInside = false
    for (index, point) in line.enumerated() {
      let pointInside = side.contains(point)
      defer { previousInside = pointInside }
      if index == 0 {
        if pointInside { current.append(point) }
        continue
      }
      let previous = line[index - 1]
      switch (previousInside, pointInside) {
      case (true, true):
        current.append(point)
      case (true, false):
        current.append(side.crossing(previous, point))
        finish()
      case (false, true):
        current = [side.crossing(previous, point), point]
      case (false, false):
        break
      }
    }
    finish()
    return pieces
  }
}
