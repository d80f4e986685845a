/// The geometry command stream of spec §4.3, decoded straight into a layer's flat vertex storage.
///
/// Structural damage (unknown commands, missing parameters, LineTo without MoveTo, counts larger than the
/// bytes left) fails the tile. Degenerate parts are dropped and counted instead: lines with fewer than two
/// vertices, rings of zero area, and holes that come before any exterior ring. A ring that repeats its
/// first vertex at the end loses the repeat, so every ring is open.
struct GeometryDecoder {
  private static let moveTo: UInt32 = 1
  private static let lineTo: UInt32 = 2
  private static let closePath: UInt32 = 7

  let type: VectorTileGeometryType
  /// Version 1 layers did not fix the winding order: there the first ring's orientation marks exteriors.
  let firstRingDecidesWinding: Bool
  private var cursorX: Int32 = 0
  private var cursorY: Int32 = 0
  private var partOpen = false
  private var partStart = 0
  private var polygonOpen = false
  private var exteriorSign = 1
  private var keptRing = false

  init(type: VectorTileGeometryType, layerVersion: Int) {
    self.type = type
    self.firstRingDecidesWinding = layerVersion < 2
  }

  /// Decodes the packed geometry in `reader` and appends its parts to `layer`.
  mutating func decode(_ reader: inout ProtobufReader, into layer: inout LayerBuilder) throws(VectorTileError)
  {
    while !reader.isAtEnd {
      let offset = reader.position
      let command = try Self.readInteger(&reader)
      let id = command & 7
      let count = Int(command >> 3)
      switch id {
      case Self.moveTo, Self.lineTo:
        if id == Self.lineTo {
          guard type != .point else {
            throw VectorTileError(.commandNotAllowed(command: Int(id), type: type), offset: offset)
          }
          guard partOpen else { throw VectorTileError(.missingMoveTo, offset: offset) }
        }
        // Every parameter takes at least one byte: refuse counts the data cannot hold before reserving.
        guard count <= reader.remaining / 2 else {
          throw VectorTileError(.commandCountTooLarge(count), offset: offset)
        }
        try layer.checkRoom(forPoints: count, offset: offset)
        try appendPoints(count, startingParts: id == Self.moveTo, from: &reader, into: &layer)
      case Self.closePath:
        guard type == .polygon else {
          throw VectorTileError(.commandNotAllowed(command: Int(id), type: type), offset: offset)
        }
        guard count == 1 else { throw VectorTileError(.closePathCount(count), offset: offset) }
        guard partOpen else { throw VectorTileError(.missingMoveTo, offset: offset) }
        finishPart(&layer)
      default:
        throw VectorTileError(.unknownCommand(Int(id)), offset: offset)
      }
    }
    finishPart(&layer)
    closePolygon(&layer)
  }

  private mutating func appendPoints(
    _ count: Int, startingParts: Bool, from reader: inout ProtobufReader, into layer: inout LayerBuilder
  ) throws(VectorTileError) {
    for _ in 0..<count {
      let offset = reader.position
      let dx = Self.zigzag(try Self.readInteger(&reader))
      let dy = Self.zigzag(try Self.readInteger(&reader))
      let (x, xOverflow) = cursorX.addingReportingOverflow(dx)
      let (y, yOverflow) = cursorY.addingReportingOverflow(dy)
      guard !xOverflow, !yOverflow else { throw VectorTileError(.coordinateOutOfRange, offset: offset) }
      cursorX = x
      cursorY = y
      if startingParts && (type != .point || !partOpen) {
        finishPart(&layer)
        partStart = layer.points.count
        partOpen = true
      }
      layer.points.append(VectorTilePoint(x: x, y: y))
    }
  }

  /// Ends the open line or ring (if any): keeps it, files it under a polygon, or drops it.
  private mutating func finishPart(_ layer: inout LayerBuilder) {
    guard partOpen else { return }
    partOpen = false
    var end = layer.points.count
    switch type {
    case .point:
      layer.partEnds.append(end)
    case .lineString:
      guard end - partStart >= 2 else { return layer.dropPart(from: partStart) }
      layer.partEnds.append(end)
    case .polygon:
      // Rings are kept open; some encoders (tilemaker) repeat the first vertex at the end anyway.
      if end - partStart >= 2 && layer.points[end - 1] == layer.points[partStart] {
        layer.points.removeLast()
        end -= 1
      }
      let sign = Self.areaSign(layer.points[partStart..<end])
      guard sign != 0 else { return layer.dropPart(from: partStart) }
      if firstRingDecidesWinding && !keptRing { exteriorSign = sign }
      keptRing = true
      if sign == exteriorSign {
        closePolygon(&layer)
        polygonOpen = true
      } else if !polygonOpen {
        return layer.dropPart(from: partStart)
      }
      layer.partEnds.append(end)
    }
  }

  private mutating func closePolygon(_ layer: inout LayerBuilder) {
    guard polygonOpen else { return }
    polygonOpen = false
    layer.polygonEnds.append(layer.partEnds.count)
  }

  /// Reads one geometry integer, which the spec makes a 32-bit unsigned value.
  @inline(__always)
  private static func readInteger(_ reader: inout ProtobufReader) throws(VectorTileError) -> UInt32 {
    let offset = reader.position
    let value = try reader.readVarint()
    guard value <= UInt64(UInt32.max) else {
      throw VectorTileError(.geometryIntegerTooLarge(value), offset: offset)
    }
    return UInt32(truncatingIfNeeded: value)
  }

  @inline(__always)
  private static func zigzag(_ value: UInt32) -> Int32 {
    Int32(bitPattern: (value >> 1) ^ (0 &- (value & 1)))
  }

  /// The sign of a ring's area by the surveyor's formula in tile coordinates (y down), so +1 for a
  /// ring that runs clockwise on screen.
  static func areaSign(_ ring: ArraySlice<VectorTilePoint>) -> Int {
    guard ring.count >= 3, var previous = ring.last else { return 0 }
    var sum: Int64 = 0
    for point in ring {
      // Each term fits in 63 bits (products of 32-bit values); only the running sum can overflow.
      let term = Int64(previous.x) * Int64(point.y) - Int64(point.x) * Int64(previous.y)
      let (next, overflow) = sum.addingReportingOverflow(term)
      guard !overflow else { return areaSignInDoubles(ring) }
      sum = next
      previous = point
    }
    return Int(sum.signum())
  }

  /// The same sum for rings so large that 64-bit integers overflow (only hostile tiles have them).
  private static func areaSignInDoubles(_ ring: ArraySlice<VectorTilePoint>) -> Int {
    guard var previous = ring.last else { return 0 }
    var sum = 0.0
    for point in ring {
      sum += Double(previous.x) * Double(point.y) - Double(point.x) * Double(previous.y)
      previous = point
    }
    return sum > 0 ? 1 : (sum < 0 ? -1 : 0)
  }
}
