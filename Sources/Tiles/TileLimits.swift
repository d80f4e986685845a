/// The bounds on what a tile source may claim or hold, each checked where the value enters mymap, so
/// that no file makes it trap, allocate without bound or read without end.
public enum TileLimits {
  /// Tile sizes, in pixels a side, that a source may declare or have: the common sizes are 256 and
  /// 512 (and 1024 for 512-pixel tiles at 2×); a declared size outside is refused, a sampled one ignored.
  public static let tileSizes = 16...1024

  /// The largest encoded tile read from a file, a database or a tile server: 4 MiB, about four times
  /// the largest 512-pixel RGBA PNG. A larger one is an unusable tile (drawn as a placeholder).
  public static let maximumTileBytes = 4 * 1024 * 1024

  /// The largest decoded tile: a tile of the largest size, 4 bytes a pixel (4 MiB). A tile is decoded
  /// only after its header's size is checked against the source's tile size, so no PNG, JPEG or WebP can
  /// make a decoder allocate more, however far its data inflates.
  public static let maximumDecodedTileBytes = tileSizes.upperBound * tileSizes.upperBound * 4

  /// The largest `metadata.json` of a tile folder.
  public static let maximumMetadataFileBytes = 1024 * 1024

  /// The largest value of an MBTiles `metadata` entry that mymap reads (attribution, bounds, zooms, …).
  public static let maximumMetadataValueBytes = 64 * 1024

  /// The most `metadata` rows with the names mymap reads: more means a broken or hostile file.
  public static let maximumMetadataEntries = 256

  /// SQLite virtual-machine steps one query over an MBTiles file may take: this many, plus
  /// `sqliteStepsPerByte` for each byte of the file. Real files need far fewer (a query over all 5,461
  /// tiles of a 24 MB file takes about 120,000); a `tiles` view that never ends (a recursive one, or a
  /// join that multiplies rows) is stopped after about half a second.
  public static let sqliteBaseSteps = 20_000_000
  /// See `sqliteBaseSteps`.
  public static let sqliteStepsPerByte = 4

  /// The largest string or blob SQLite reads from a tile database (its `SQLITE_LIMIT_LENGTH`): 64 MiB.
  public static let maximumSQLiteValueBytes = 64 * 1024 * 1024

  /// Whether a source's tile size can be drawn.
  public static func isUsableTileSize(_ size: Int) -> Bool {
    tileSizes.contains(size)
  }
}
