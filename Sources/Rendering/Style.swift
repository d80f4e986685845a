/// How a map looks: colours, sizes and fonts of everything drawn (ARCHITECTURE.md §5).
///
/// Every field has a default, so a style file may override just one thing. `Style.standard` is the seed's
/// look: green pins and white callouts.
public struct Style: Hashable, Sendable {
  public var name = "default"
  /// Pango font family list; named explicitly so that fontconfig's choice (and the goldens) do not drift.
  public var fontFamily = "DejaVu Sans, Noto Sans CJK JP"
  public var pin = PinStyle()
  public var callout = CalloutStyle()
  public var userDot = UserDotStyle()
  public var attribution = AttributionStyle()
  public var basemap = BasemapStyle()
  public var track = TrackStyle()

  public init() {}

  /// The built-in default style.
  public static let standard = Style()
}

/// The pin: a round head on a thin needle whose tip is exactly on the place.
public struct PinStyle: Hashable, Sendable {
  /// The seed's pin colour, RGB (0.32, 0.82, 0.40).
  public var color = Color(red: 0.32, green: 0.82, blue: 0.40)
  public var headRadius = 7.5
  public var needleLength = 20.0
  public var needleWidth = 2.0
  public var needleColor = Color(red: 0.55, green: 0.57, blue: 0.60)
  public var shadowOpacity = 0.35
  /// Head colours by category (the annotation's subtitle), keyed in lower case: the store compares
  /// categories without case. A category not listed keeps `color`.
  public var categoryColors: [String: Color] = [:]

  /// The head colour of a place in `category`.
  public func color(forCategory category: String?) -> Color {
    guard !categoryColors.isEmpty, let category else { return color }
    return categoryColors[category.lowercased()] ?? color
  }
}

/// The callout bubble above a pin: bold title, secondary subtitle, the ⓘ disclosure glyph on the right.
public struct CalloutStyle: Hashable, Sendable {
  public var background = Color.white
  public var titleColor = Color(red: 0.07, green: 0.07, blue: 0.08)
  public var subtitleColor = Color(red: 0.45, green: 0.45, blue: 0.48)
  public var titleSize = 14.0
  public var subtitleSize = 11.5
  public var cornerRadius = 9.0
  public var horizontalPadding = 11.0
  public var verticalPadding = 7.0
  /// Longest text line before it is cut with an ellipsis, in points.
  public var maxTextWidth = 220.0
  public var pointerWidth = 18.0
  public var pointerHeight = 9.0
  /// The disclosure glyph's colour (iOS tint blue).
  public var disclosureColor = Color(red: 0.0, green: 0.48, blue: 1.0)
  public var disclosureSize = 20.0
  public var shadowOpacity = 0.28
}

/// The user's own position: a blue dot with a white ring and a shadow, and an optional accuracy circle.
public struct UserDotStyle: Hashable, Sendable {
  public var color = Color(red: 0.0, green: 0.48, blue: 1.0)
  public var radius = 7.0
  public var ringWidth = 3.0
  public var ringColor = Color.white
  public var accuracyFillOpacity = 0.12
  public var accuracyStrokeOpacity = 0.35
  public var shadowOpacity = 0.3
}

/// The tile source's attribution in a corner, on a translucent plate so it is always legible.
public struct AttributionStyle: Hashable, Sendable {
  public var textColor = Color(red: 0.2, green: 0.2, blue: 0.2)
  public var background = Color(red: 1, green: 1, blue: 1, alpha: 0.78)
  public var size = 10.0
  public var margin = 4.0
}

/// What is under the overlays: a raster tile source, or the built-in vector basemap and its palette.
public struct BasemapStyle: Hashable, Sendable {
  /// Drawn where there is no basemap at all.
  public var background = Color(red: 0.92, green: 0.91, blue: 0.88)
  /// A missing tile: a neutral square with a faint grid, so it reads as "no data" rather than as sea or land.
  public var placeholder = Color(red: 0.90, green: 0.89, blue: 0.87)
  public var placeholderLines = Color(red: 0.82, green: 0.81, blue: 0.79)
  /// A tile source named by the style (a directory, an MBTiles file, a tile server's URL template), for the
  /// caller to open when it is given no other; nil (or `builtin`) is the built-in vector basemap, drawn with
  /// the palette below.
  public var tiles: String? = nil
  /// Attribution text that replaces the tile source's own.
  public var attribution: String? = nil
  /// The MapLibre style that draws vector tiles under this style's pins: a bundled one by name (`light`,
  /// `dark`) or a file; nil is `light`.
  public var vectorStyle: String? = "light"

  // The built-in vector basemap: calm, light colours, so that the green pins stand out.

  /// The sea: everything that is not land.
  public var water = Color(red: 0.79, green: 0.85, blue: 0.89)
  public var land = Color(red: 0.97, green: 0.96, blue: 0.93)
  public var lake = Color(red: 0.79, green: 0.85, blue: 0.89)
  public var coastline = Color(red: 0.64, green: 0.73, blue: 0.80)
  public var countryBorder = Color(red: 0.62, green: 0.60, blue: 0.64)
  public var stateBorder = Color(red: 0.78, green: 0.76, blue: 0.78)
  /// Country names (upper-case, letter-spaced, muted).
  public var countryLabel = Color(red: 0.50, green: 0.48, blue: 0.52)
  public var cityLabel = Color(red: 0.23, green: 0.23, blue: 0.26)
  /// The outline that keeps labels legible on any colour.
  public var labelHalo = Color(red: 1, green: 1, blue: 1, alpha: 0.85)
  public var cityDot = Color(red: 0.38, green: 0.38, blue: 0.42)
  /// Line widths in points.
  public var coastlineWidth = 0.7
  public var countryBorderWidth = 1.0
  public var stateBorderWidth = 0.6
  /// Label sizes in points.
  public var countryLabelSize = 11.0
  public var cityLabelSize = 11.5
  public var cityDotRadius = 2.5
  /// How far the halo reaches beyond the letters, in points.
  public var labelHaloWidth = 1.6
}
