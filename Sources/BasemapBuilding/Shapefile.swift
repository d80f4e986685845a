import Foundation
import Tiles

/// A problem of the basemap builder with a source file or the file it writes, as one line.
public struct BasemapBuildError: Error, CustomStringConvertible, Equatable {
  public var path: String
  public var reason: String

  public init(_ path: String, _ reason: String) {
    self.path = path
    self.reason = reason
  }

  public var description: String { "\(path): \(reason)" }

  /// Reads a whole file, or throws "file not found" / "cannot read".
  static func contents(of path: String) throws -> [UInt8] {
    guard FileManager.default.fileExists(atPath: path) else {
      throw BasemapBuildError(path, "file not found")
    }
    guard let data = FileManager.default.contents(atPath: path) else {
      throw BasemapBuildError(path, "cannot read the file")
    }
    return [UInt8](data)
  }
}

/// An ESRI shapefile's main file (`.shp`), read whole: the records' parts as x/y pairs (for Natural Earth,
/// longitude and latitude in degrees).
///
/// Follows the ESRI Shapefile Technical Description (1998): a 100-byte header (file code 9994 and file
/// length big-endian, version 1000, shape type and bounding box little-endian), then records of an 8-byte
/// big-endian header (number, content length in 16-bit words) and little-endian content. Reads null shapes,
/// points, multipoints, polylines and polygons, including their Z and M variants (whose extra measures are
/// skipped).
public struct Shapefile: Sendable {
  public struct Point: Sendable, Equatable {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
      self.x = x
      self.y = y
    }
  }

  public struct Record: Sendable, Equatable {
    /// The record number (1-based in a well-formed file).
    public var number: Int
    /// The record's shape type (0 for a null shape).
    public var shapeType: Int
    /// Polyline parts or polygon rings, in the file's order; one part for a point or multipoint; none for
    /// a null shape.
    public var parts: [[Point]]
  }

  public static let nullShape = 0
  public static let point = 1
  public static let polyline = 3
  public static let polygon = 5
  public static let multipoint = 8

  /// The file's shape type (every record is this or a null shape).
  public let shapeType: Int
  /// The header's bounding box: minimum x, minimum y, maximum x, maximum y.
  public let bounds: [Double]
  public let records: [Record]

  /// The shape type without its Z (+10) or M (+20) variant: 1, 3, 5 or 8 (0 stays 0).
  public var baseShapeType: Int { Self.base(shapeType) }

  public init(path: String) throws {
    try self.init(bytes: BasemapBuildError.contents(of: path), name: path)
  }

  /// Parses a shapefile's bytes; `name` is used in error messages.
  public init(bytes: [UInt8], name: String) throws {
    let reader = ByteReader(bytes: bytes, name: name)
    guard bytes.count >= 100 else { throw BasemapBuildError(name, "too short for a shapefile header") }
    guard try reader.int32(at: 0, bigEndian: true) == 9994 else {
      throw BasemapBuildError(name, "not a shapefile (file code is not 9994)")
    }
    let declaredLength = Int(try reader.int32(at: 24, bigEndian: true)) * 2
    guard try reader.int32(at: 28, bigEndian: false) == 1000 else {
      throw BasemapBuildError(name, "unsupported shapefile version")
    }
    let type = Int(try reader.int32(at: 32, bigEndian: false))
    guard [0, 1, 3, 5, 8].contains(Self.base(type)), type >= 0, type < 30 else {
      throw BasemapBuildError(name, "unsupported shape type \(type)")
    }
    shapeType = type
    bounds = try (0..<4).map { try reader.double(at: 36 + $0 * 8) }

    let end = min(declaredLength, bytes.count)
    var records: [Record] = []
    var offset = 100
    while offset + 8 <= end {
      let number = Int(try reader.int32(at: offset, bigEndian: true))
      let length = Int(try reader.int32(at: offset + 4, bigEndian: true)) * 2
      let start = offset + 8
      guard length >= 4, start + length <= end else {
        throw BasemapBuildError(name, "record \(number) at byte \(offset) runs past the end of the file")
      }
      records.append(try Self.record(reader, number: number, from: start, to: start + length, fileType: type))
      offset = start + length
    }
    self.records = records
  }

  static func base(_ type: Int) -> Int {
    type == 0 ? 0 : type % 10
  }

  private static func record(_ reader: ByteReader, number: Int, from start: Int, to end: Int, fileType: Int)
    throws -> Record
  {
    let type = Int(try reader.int32(at: start, bigEndian: false))
    if type == nullShape { return Record(number: number, shapeType: 0, parts: []) }
    guard type == fileType else {
      throw BasemapBuildError(
        reader.name, "record \(number) has shape type \(type) in a file of shape type \(fileType)")
    }
    func point(at offset: Int) throws -> Point {
      guard offset + 16 <= end else { throw BasemapBuildError(reader.name, "record \(number) is truncated") }
      return Point(x: try reader.double(at: offset), y: try reader.double(at: offset + 8))
    }
    switch base(type) {
    case Shapefile.point:
      return Record(number: number, shapeType: type, parts: [[try point(at: start + 4)]])
    case multipoint:
      let count = Int(try reader.int32(at: start + 36, bigEndian: false))
      guard count >= 0, start + 40 + count * 16 <= end else {
        throw BasemapBuildError(reader.name, "record \(number) has a bad point count")
      }
      return Record(
        number: number, shapeType: type, parts: [try (0..<count).map { try point(at: start + 40 + $0 * 16) }])
    default:
      let partCount = Int(try reader.int32(at: start + 36, bigEndian: false))
      let pointCount = Int(try reader.int32(at: start + 40, bigEndian: false))
      let pointsStart = start + 44 + partCount * 4
      guard partCount >= 0, pointCount >= 0, pointsStart + pointCount * 16 <= end else {
        throw BasemapBuildError(reader.name, "record \(number) has bad part or point counts")
      }
      var starts = try (0..<partCount).map {
        Int(try reader.int32(at: start + 44 + $0 * 4, bigEndian: false))
      }
      starts.append(pointCount)
      var parts: [[Point]] = []
      parts.reserveCapacity(partCount)
      for index in 0..<partCount {
        let first = starts[index]
        let last = starts[index + 1]
        guard first >= 0, first <= last, last <= pointCount else {
          throw BasemapBuildError(reader.name, "record \(number) has bad part offsets")
        }
        parts.append(try (first..<last).map { try point(at: pointsStart + $0 * 16) })
      }
      return Record(number: number, shapeType: type, parts: parts)
    }
  }
}

/// Bounds-checked reads of numbers from bytes.
struct ByteReader {
  let bytes: [UInt8]
  let name: String

  func int32(at offset: Int, bigEndian: Bool) throws -> Int32 {
    guard offset >= 0, offset + 4 <= bytes.count else { throw truncated() }
    var value: UInt32 = 0
    for index in 0..<4 {
      let byte = UInt32(bytes[offset + (bigEndian ? index : 3 - index)])
      value = value << 8 | byte
    }
    return Int32(bitPattern: value)
  }

  func uint16(at offset: Int) throws -> Int {
    guard offset >= 0, offset + 2 <= bytes.count else { throw truncated() }
    return Int(bytes[offset]) | Int(bytes[offset + 1]) << 8
  }

  func uint32(at offset: Int) throws -> Int {
    Int(UInt32(bitPattern: try int32(at: offset, bigEndian: false)))
  }

  /// A little-endian IEEE 754 double.
  func double(at offset: Int) throws -> Double {
    guard offset >= 0, offset + 8 <= bytes.count else { throw truncated() }
    var bits: UInt64 = 0
    for index in (0..<8).reversed() { bits = bits << 8 | UInt64(bytes[offset + index]) }
    return Double(bitPattern: bits)
  }

  private func truncated() -> BasemapBuildError {
    BasemapBuildError(name, "the file is truncated")
  }
}
