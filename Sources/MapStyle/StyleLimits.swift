/// Caps that keep a hostile style from exhausting memory or time. Each is far above what real styles
/// use (the public OpenMapTiles styles have under 150 layers and expressions under 10 levels deep).
public enum StyleLimits {
  /// The largest style file read, in bytes.
  public static let maximumBytes = 16 << 20
  /// The most layers a style may have.
  public static let maximumLayers = 5_000
  /// How deeply expressions and legacy filters may nest.
  public static let maximumExpressionDepth = 64
  /// The most elements in one expression array, literal array, `match` or stop list.
  public static let maximumArrayLength = 20_000
  /// The most nodes one compiled property or filter may have, counting each use of a `let` variable
  /// as a copy of its value, so evaluation time per feature stays bounded.
  public static let maximumExpressionNodes = 100_000
}
