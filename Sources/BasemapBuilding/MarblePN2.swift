import Foundation

/// Marble's PN2 files (Debian's `marble-qt-data` ships Natural Earth 1:50 m layers in it): version 2, big
/// endian. A header (version, geometry count, whether a colour index follows each placemark's first
/// geometry), then geometries: a flag (0 line, 1 ring, 2 outer and 3 inner boundary, 4 a group of them),
/// the placemark id, and nodes in half arc-minutes: an absolute node (latitude, longitude, the count of
/// relative nodes after it) and relative nodes as one-byte offsets from it. Only lines and rings are
/// returned; every count is checked against the bytes left.
public struct MarblePN2 {
  public enum Failure: Error, Equatable {
    case unsupportedVersion(UInt8)
    case truncated(offset: Int)
    case badCoordinate(offset: Int)
    case badFlag(UInt8, offset: Int)
  }

  /// Each geometry's points (longitude, latitude), in the file's order.
  public private(set) var lines: [[Shapefile.Point]] = []
  private let bytes: [UInt8]
  private var offset = 0

  public init(bytes: [UInt8]) throws(Failure) {
    self.bytes = bytes
    let version = try uint8()
    guard version == 2 else { throw .unsupportedVersion(version) }
    let count = try uint32()
    let colours = try uint8() != 0
    var previousID: UInt32?
    for _ in 0..<count {
      let flag = try uint8()
      let id = try uint32()
      if colours && id != previousID { _ = try uint8() }
      previousID = id
      if flag == 4 {
        let members = try uint8()
        for _ in 0..<members {
          let inner = try uint8()
          _ = try uint32()
          guard inner < 4 else { throw .badFlag(inner, offset: offset) }
          lines.append(try nodes())
        }
      } else {
        guard flag < 4 else { throw .badFlag(flag, offset: offset) }
        lines.append(try nodes())
      }
    }
  }

  private mutating func nodes() throws(Failure) -> [Shapefile.Point] {
    let absolute = try uint32()
    // Six bytes at least per absolute node.
    guard Int(absolute) <= (bytes.count - offset) / 6 else { throw .truncated(offset: offset) }
    var points: [Shapefile.Point] = []
    for _ in 0..<absolute {
      let latitude = Int(try int16())
      let longitude = Int(try int16())
      let relative = Int(try int16())
      guard relative >= 0, relative <= (bytes.count - offset) / 2 else { throw .truncated(offset: offset) }
      try append(latitude, longitude, to: &points)
      for _ in 0..<relative {
        let dLat = Int(Int8(bitPattern: try uint8()))
        let dLon = Int(Int8(bitPattern: try uint8()))
        try append(latitude + dLat, longitude + dLon, to: &points)
      }
    }
    return points
  }

  private func append(_ latitude: Int, _ longitude: Int, to points: inout [Shapefile.Point]) throws(Failure) {
    guard abs(latitude) <= 10_800, abs(longitude) <= 21_600 else { throw .badCoordinate(offset: offset) }
    points.append(Shapefile.Point(x: Double(longitude) / 120, y: Double(latitude) / 120))
  }

  private mutating func uint8() throws(Failure) -> UInt8 {
    guard offset < bytes.count else { throw .truncated(offset: offset) }
    offset += 1
    return bytes[offset - 1]
  }

  private mutating func int16() throws(Failure) -> Int16 {
    Int16(bitPattern: UInt16(try uint8()) << 8 | UInt16(try uint8()))
  }

  private mutating func uint32() throws(Failure) -> UInt32 {
    var value: UInt32 = 0
    for _ in 0..<4 { value = value << 8 | UInt32(try uint8()) }
    return value
  }
}
