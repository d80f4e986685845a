/// Ceilings on what an archive may make the reader allocate, whatever its header claims.
///
/// Real archives are far below: the spec caps the root directory at 16,257 compressed bytes, writers cut
/// leaves of 4,096–65,536 entries, and nesting stops at one level of leaves.
public enum PMTilesLimits {
  /// Entries in one directory (24 bytes each in memory: at most 6 MB per directory).
  public static let maximumDirectoryEntries = 1 << 18
  /// A directory's bytes, compressed or not: four varints of at most 10 bytes per entry.
  public static let maximumDirectoryBytes = maximumDirectoryEntries * 40 + 10
  /// Levels of leaf directories below the root.
  public static let maximumLeafDepth = 4
  /// Decoded leaf directories kept for reuse, and the entries they may hold together (12 MB).
  public static let cachedLeafDirectories = 32
  public static let cachedLeafEntries = 1 << 19
  /// The JSON metadata, compressed and inflated.
  public static let maximumMetadataBytes = 16 << 20
  /// One tile as stored, and inflated.
  public static let maximumTileBytes = 16 << 20
}
