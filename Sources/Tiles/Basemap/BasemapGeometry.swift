import MapMath

/// The compact geometry encoding of the built-in basemap: parts of world-space points, quantised to
/// 2^26 steps a side (about 0.6 m at the equator), written as zigzag varint deltas.
///
/// Layout: varint part count; for each part a varint point count; then every point's x and y as zigzag
/// varint differences from the previous point (the first from 0, 0), across part boundaries.
public enum BasemapGeometry {
  public static let quantization = Double(1 << 26)

  public static func encode(_ parts: [[WorldPoint]]) -> [UInt8] {
    var bytes: [UInt8] = []
    appendVarint(UInt64(parts.count), to: &bytes)
    for part in parts { appendVarint(UInt64(part.count), to: &bytes) }
    var previousX: Int64 = 0
    var previousY: Int64 = 0
    for part in parts {
      for point in part {
        let x = Int64((point.x * quantization).rounded())
        let y = Int64((point.y * quantization).rounded())
        appendVarint(zigzag(x - previousX), to: &bytes)
        appendVarint(zigzag(y - previousY), to: &bytes)
        previousX = x
        previousY = y
      }
    }
    return bytes
  }

  /// Decodes `encode`'s bytes; nil for bytes that are not a valid encoding (never traps).
  public static func decode<Bytes: RandomAccessCollection>(_ bytes: Bytes) -> [[WorldPoint]]?
  where Bytes.Element == UInt8, Bytes.Index == Int {
    var index = bytes.startIndex
    func next() -> UInt64? {
      var value: UInt64 = 0
      var shift: UInt64 = 0
      while index < bytes.endIndex, shift < 64 {
        let byte = bytes[index]
        index += 1
        value |= UInt64(byte & 0x7F) << shift
        if byte & 0x80 == 0 { return value }
        shift += 7
      }
      return nil
    }
    guard let partCount = next(), partCount <= UInt64(bytes.count) else { return nil }
    var counts: [Int] = []
    for _ in 0..<partCount {
      guard let count = next(), count <= UInt64(bytes.count) else { return nil }
      counts.append(Int(count))
    }
    var parts: [[WorldPoint]] = []
    parts.reserveCapacity(counts.count)
    var x: Int64 = 0
    var y: Int64 = 0
    for count in counts {
      var part: [WorldPoint] = []
      part.reserveCapacity(count)
      for _ in 0..<count {
        guard let dx = next(), let dy = next() else { return nil }
        x &+= unzigzag(dx)
        y &+= unzigzag(dy)
        part.append(WorldPoint(x: Double(x) / quantization, y: Double(y) / quantization))
      }
      parts.append(part)
    }
    return index == bytes.endIndex ? parts : nil
  }

  private static func zigzag(_ value: Int64) -> UInt64 {
    UInt64(bitPattern: (value << 1) ^ (value >> 63))
  }

  private static func unzigzag(_ value: UInt64) -> Int64 {
    Int64(bitPattern: value >> 1) ^ -Int64(bitPattern: value & 1)
  }

  private static func appendVarint(_ value: UInt64, to bytes: inout [UInt8]) {
    var rest = value
    while rest >= 0x80 {
      bytes.append(UInt8(rest & 0x7F) | 0x80)
      rest >>= 7
    }
    bytes.append(UInt8(rest))
  }
}
