import CPNG

/// The filter every row of a PNG gets (PNG's filter types; mymap gives all rows of an image one).
public enum PNGRowFilter: Sendable, Equatable {
  /// None or paeth, whichever deflates a sample of the image's rows smaller.
  case sampled
  /// The bytes as they are: best for flat colours.
  case none
  /// Each byte less its paeth prediction: best for photographs and gradients.
  case paeth

  var cValue: Int32 {
    switch self {
    case .sampled: Int32(CPNG_FILTER_SAMPLED)
    case .none: Int32(CPNG_FILTER_NONE)
    case .paeth: Int32(CPNG_FILTER_PAETH)
    }
  }
}

/// How an image's rows are filtered and deflated.
public struct PNGCompression: Sendable, Equatable {
  /// libdeflate's level, 1–12.
  public var level: Int
  /// The filter of every row.
  public var filter: PNGRowFilter

  /// The level and the filter as given.
  public init(level: Int, filter: PNGRowFilter) {
    (self.level, self.filter) = (level, filter)
  }

  /// Any image: the filter chosen by a sample, `PNGCodec.defaultCompressionLevel`.
  public static let standard = PNGCompression(level: PNGCodec.defaultCompressionLevel, filter: .sampled)

  /// An image drawn wholly from vectors (a map without raster tiles: flat colours, antialiased edges),
  /// which deflates best unfiltered (the sample chose none on every example). On the example maps
  /// (1200×800) level 1 writes 6–25 % less than libpng (adaptive filters, zlib level 6) and 5–10 % more
  /// than level 5, in half of level 5's time (Helsinki: 421 against 389 KB, 11 against 22 ms on one core;
  /// libpng 462 KB).
  public static let vectorDrawing = PNGCompression(level: 1, filter: .none)
}
