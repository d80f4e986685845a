import Foundation

/// How the store keeps a track's points: one BLOB, little-endian.
///
/// `MTP1`, the number of segments (UInt32), each segment's point count (UInt32), then every point as four
/// Float64: latitude, longitude, elevation and time (Unix seconds), NaN for an unknown elevation or time.
/// Reading checks every count against the bytes there are (a damaged store is an error, never a crash or
/// a huge allocation).
enum TrackPointsBlob {
  static let magic: [UInt8] = Array("MTP1".utf8)
  static let bytesPerPoint = 32

  static func encode(_ segments: [[TrackPoint]]) -> Data {
    let points = segments.reduce(0) { $0 + $1.count }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(8 + 4 * segments.count + bytesPerPoint * points)
    bytes += magic
    append(UInt32(segments.count), to: &bytes)
    for segment in segments { append(UInt32(segment.count), to: &bytes) }
    for segment in segments {
      for point in segment {
        append(point.latitude.bitPattern, to: &bytes)
        append(point.longitude.bitPattern, to: &bytes)
        append((point.elevation ?? .nan).bitPattern, to: &bytes)
        append((point.time?.timeIntervalSince1970 ?? .nan).bitPattern, to: &bytes)
      }
    }
    return Data(bytes)
  }

  /// The segments, or nil when the bytes are not a well-formed blob.
  static func decode(_ data: Data) -> [[TrackPoint]]? {
    // Read in place: a million points are 32 MB, not worth a copy.
    data.withUnsafeBytes { decode(bytes: $0) }
  }

  private static func decode(bytes: UnsafeRawBufferPointer) -> [[TrackPoint]]? {
    guard bytes.count >= 8, Array(bytes[0..<4]) == magic else { return nil }
    let segmentCount = Int(readUInt32(bytes, at: 4))
    guard segmentCount <= (bytes.count - 8) / 4 else { return nil }
    var offset = 8
    var counts: [Int] = []
    counts.reserveCapacity(segmentCount)
    var total = 0
    let room = (bytes.count - 8 - 4 * segmentCount) / bytesPerPoint
    for _ in 0..<segmentCount {
      let count = Int(readUInt32(bytes, at: offset))
      offset += 4
      total += count
      // Checked as it grows: counts a damaged blob claims never overflow or allocate.
      guard total <= room else { return nil }
      counts.append(count)
    }
    guard bytes.count - offset == total * bytesPerPoint else { return nil }
    var segments: [[TrackPoint]] = []
    segments.reserveCapacity(segmentCount)
    for count in counts {
      var segment: [TrackPoint] = []
      segment.reserveCapacity(count)
      for _ in 0..<count {
        let latitude = Double(bitPattern: readUInt64(bytes, at: offset))
        let longitude = Double(bitPattern: readUInt64(bytes, at: offset + 8))
        let elevation = Double(bitPattern: readUInt64(bytes, at: offset + 16))
        let time = Double(bitPattern: readUInt64(bytes, at: offset + 24))
        offset += bytesPerPoint
        guard abs(latitude) <= 90, abs(longitude) <= 180 else { return nil }
        segment.append(
          TrackPoint(
            latitude: latitude, longitude: longitude, elevation: elevation.isFinite ? elevation : nil,
            time: time.isFinite ? Date(timeIntervalSince1970: time) : nil))
      }
      segments.append(segment)
    }
    return segments
  }

  private static func append<T: FixedWidthInteger>(_ value: T, to bytes: inout [UInt8]) {
    var little = value.littleEndian
    withUnsafeBytes(of: &little) { bytes += $0 }
  }

  private static func readUInt32(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> UInt32 {
    UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
  }

  private static func readUInt64(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> UInt64 {
    UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
  }
}
