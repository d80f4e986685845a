/// A GeoPackage geometry blob: the GeoPackage binary header ("GP", version, flags, SRS id, an optional
/// envelope) and then the geometry as Well-Known Binary. Only polygons and multipolygons are read (the
/// country layer's kinds); every count and offset is checked against the blob's length.
public enum GeoPackageGeometry {
  /// A polygon: its rings (the first the outer one), each a list of longitude/latitude points.
  public typealias Polygon = [[Shapefile.Point]]

  public enum Failure: Error, Equatable {
    case notAGeoPackageBlob
    case truncated
    case unsupportedType(UInt32)
  }

  /// The polygons of a blob; an empty geometry gives none.
  public static func polygons(_ blob: [UInt8]) throws(Failure) -> [Polygon] {
    guard blob.count >= 8, blob[0] == 0x47, blob[1] == 0x50 else { throw .notAGeoPackageBlob }
    let flags = blob[3]
    if flags & 0x10 != 0 { return [] }
    let envelopeBytes: Int
    switch (flags >> 1) & 0x07 {
    case 0: envelopeBytes = 0
    case 1: envelopeBytes = 32
    case 2, 3: envelopeBytes = 48
    case 4: envelopeBytes = 64
    default: throw .notAGeoPackageBlob
    }
    var reader = WKBReader(bytes: blob, offset: 8 + envelopeBytes)
    return try reader.polygons()
  }
}

/// Reads Well-Known Binary from an offset, each value's byte order as the geometry says.
struct WKBReader {
  let bytes: [UInt8]
  var offset: Int
  private var littleEndian = true

  init(bytes: [UInt8], offset: Int) {
    self.bytes = bytes
    self.offset = offset
  }

  /// A polygon or multipolygon (2D, Z, M or ZM; ISO or extended type codes) as polygons.
  mutating func polygons() throws(GeoPackageGeometry.Failure) -> [GeoPackageGeometry.Polygon] {
    let (type, dimensions) = try header()
    switch type {
    case 3: return [try polygonBody(dimensions: dimensions)]
    case 6:
      let count = try count(minimumBytesEach: 9)
      var result: [GeoPackageGeometry.Polygon] = []
      for _ in 0..<count {
        let (inner, innerDimensions) = try header()
        guard inner == 3 else { throw .unsupportedType(inner) }
        result.append(try polygonBody(dimensions: innerDimensions))
      }
      return result
    default: throw .unsupportedType(type)
    }
  }

  /// The byte order and the type: the base type (1–7) and the number of coordinates per point.
  private mutating func header() throws(GeoPackageGeometry.Failure) -> (type: UInt32, dimensions: Int) {
    guard offset < bytes.count else { throw .truncated }
    littleEndian = bytes[offset] == 1
    offset += 1
    let raw = try uint32()
    // Extended (EWKB) flags in the high bits, ISO thousands for Z, M and ZM.
    var dimensions = 2 + (raw & 0x8000_0000 != 0 ? 1 : 0) + (raw & 0x4000_0000 != 0 ? 1 : 0)
    let code = raw & 0x0FFF_FFFF
    switch code / 1000 {
    case 1, 2: dimensions += 1
    case 3: dimensions += 2
    default: break
    }
    return (code % 1000, dimensions)
  }

  private mutating func polygonBody(dimensions: Int) throws(GeoPackageGeometry.Failure)
    -> GeoPackageGeometry.Polygon
  {
    let rings = try count(minimumBytesEach: 4)
    var result: GeoPackageGeometry.Polygon = []
    for _ in 0..<rings {
      let points = try count(minimumBytesEach: 8 * dimensions)
      var ring: [Shapefile.Point] = []
      ring.reserveCapacity(points)
      for _ in 0..<points {
        let x = try double()
        let y = try double()
        offset += 8 * (dimensions - 2)
        ring.append(Shapefile.Point(x: x, y: y))
      }
      result.append(ring)
    }
    return result
  }

  /// A count of items, refused when the bytes left cannot hold that many.
  private mutating func count(minimumBytesEach: Int) throws(GeoPackageGeometry.Failure) -> Int {
    let value = Int(try uint32())
    guard value <= (bytes.count - offset) / max(minimumBytesEach, 1) else { throw .truncated }
    return value
  }

  private mutating func uint32() throws(GeoPackageGeometry.Failure) -> UInt32 {
    UInt32(truncatingIfNeeded: try bits(4))
  }

  private mutating func double() throws(GeoPackageGeometry.Failure) -> Double {
    Double(bitPattern: try bits(8))
  }

  /// The next `count` bytes (at most 8) as an unsigned number, in the geometry's byte order.
  private mutating func bits(_ count: Int) throws(GeoPackageGeometry.Failure) -> UInt64 {
    guard offset >= 0, bytes.count - offset >= count else { throw .truncated }
    var value: UInt64 = 0
    for index in 0..<count {
      let byte = UInt64(bytes[offset + (littleEndian ? index : count - 1 - index)])
      value |= byte << (8 * UInt64(index))
    }
    offset += count
    return value
  }
}
