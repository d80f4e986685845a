/// Ceilings on what one tile may make the decoder allocate, whatever its counts claim.
///
/// Real tiles stay far below: a dense OpenMapTiles z14 city tile (about 180 KB of protobuf) has
/// 15–20 layers, a few thousand features and well under 100,000 points. Each ceiling is 10–20× the
/// largest real tile, so only a broken or hostile tile reaches one; memory for points is then at most
/// 16 MB. Command counts are also checked against the bytes left before anything is allocated.
public enum VectorTileLimits {
  /// What a limit counts, as it reads in an error message.
  public enum Counted: String, Sendable {
    case layers
    case features
    case keys
    case values
    case points
  }

  /// Layers in one tile.
  public static let maximumLayerCount = 1_000
  /// Features in one tile, all layers together.
  public static let maximumFeatureCount = 200_000
  /// Keys in one layer.
  public static let maximumKeyCount = 200_000
  /// Values in one layer.
  public static let maximumValueCount = 200_000
  /// Vertices in one tile, all features together (8 bytes each).
  public static let maximumPointCount = 2_000_000
  /// Largest accepted layer extent (4096 is usual, 8192 and 512 occur).
  public static let maximumExtent: UInt64 = 1 << 24
}
