/// The properties of a `background` layer.
public struct BackgroundStyle: Sendable {
  public var color: StyleProperty<StyleColor>
  public var opacity: StyleProperty<Double>
}

/// The properties of a `fill` layer.
public struct FillStyle: Sendable {
  public var color: StyleProperty<StyleColor>
  public var opacity: StyleProperty<Double>
  /// The outline colour; nil (the default) means the fill colour, as the specification says.
  public var outlineColor: StyleProperty<StyleColor?>
  public var antialias: StyleProperty<Bool>
}

/// The properties of a `line` layer.
public struct LineStyle: Sendable {
  public var color: StyleProperty<StyleColor>
  /// In pixels at the style's 512-pixel tile scale, as MapLibre draws them.
  public var width: StyleProperty<Double>
  public var opacity: StyleProperty<Double>
  /// Non-zero: the line is drawn as two lines this far apart (casings).
  public var gapWidth: StyleProperty<Double>
  /// Dash and gap lengths in line widths; nil for a solid line.
  public var dashArray: StyleProperty<[Double]?>
  public var cap: StyleProperty<LineCap>
  public var join: StyleProperty<LineJoin>
  public var miterLimit: StyleProperty<Double>
  public var roundLimit: StyleProperty<Double>
}

/// The properties of a `symbol` layer (text only: icons are not drawn).
public struct SymbolStyle: Sendable {
  public var placement: StyleProperty<SymbolPlacement>
  /// Pixels between repeated labels along a line.
  public var spacing: StyleProperty<Double>
  /// Lower keys are placed first; nil keeps the layer's order.
  public var sortKey: StyleProperty<Double?>
  /// The label text, `text-transform` not yet applied.
  public var textField: StyleProperty<String>
  /// Font stack names in order of preference; `FontFace(fontStack:)` reads one.
  public var textFont: StyleProperty<[String]>
  public var textSize: StyleProperty<Double>
  /// Ems before a point label wraps.
  public var textMaxWidth: StyleProperty<Double>
  public var textLineHeight: StyleProperty<Double>
  public var textLetterSpacing: StyleProperty<Double>
  public var textJustify: StyleProperty<TextJustify>
  public var textAnchor: StyleProperty<TextAnchor>
  /// Degrees a line label may bend between neighbouring characters.
  public var textMaxAngle: StyleProperty<Double>
  public var textPadding: StyleProperty<Double>
  public var textTransform: StyleProperty<TextTransform>
  /// Ems, `[x, y]`.
  public var textOffset: StyleProperty<[Double]>
  public var textAllowOverlap: StyleProperty<Bool>
  public var textIgnorePlacement: StyleProperty<Bool>
  public var textColor: StyleProperty<StyleColor>
  public var textHaloColor: StyleProperty<StyleColor>
  public var textHaloWidth: StyleProperty<Double>
  public var textHaloBlur: StyleProperty<Double>
  public var textOpacity: StyleProperty<Double>
}

extension PropertyReader {
  typealias Catalog = PropertyCatalog

  mutating func backgroundStyle() throws(StyleError) -> BackgroundStyle {
    BackgroundStyle(color: try read(Catalog.backgroundColor), opacity: try read(Catalog.backgroundOpacity))
  }

  mutating func fillStyle() throws(StyleError) -> FillStyle {
    FillStyle(
      color: try read(Catalog.fillColor), opacity: try read(Catalog.fillOpacity),
      outlineColor: try read(Catalog.fillOutlineColor), antialias: try read(Catalog.fillAntialias))
  }

  mutating func lineStyle() throws(StyleError) -> LineStyle {
    LineStyle(
      color: try read(Catalog.lineColor), width: try read(Catalog.lineWidth),
      opacity: try read(Catalog.lineOpacity),
      gapWidth: try read(Catalog.lineGapWidth), dashArray: try read(Catalog.lineDashArray),
      cap: try read(Catalog.lineCap), join: try read(Catalog.lineJoin),
      miterLimit: try read(Catalog.lineMiterLimit),
      roundLimit: try read(Catalog.lineRoundLimit))
  }

  mutating func symbolStyle() throws(StyleError) -> SymbolStyle {
    SymbolStyle(
      placement: try read(Catalog.symbolPlacement), spacing: try read(Catalog.symbolSpacing),
      sortKey: try read(Catalog.symbolSortKey), textField: try read(Catalog.textField),
      textFont: try read(Catalog.textFont), textSize: try read(Catalog.textSize),
      textMaxWidth: try read(Catalog.textMaxWidth), textLineHeight: try read(Catalog.textLineHeight),
      textLetterSpacing: try read(Catalog.textLetterSpacing), textJustify: try read(Catalog.textJustify),
      textAnchor: try read(Catalog.textAnchor), textMaxAngle: try read(Catalog.textMaxAngle),
      textPadding: try read(Catalog.textPadding), textTransform: try read(Catalog.textTransform),
      textOffset: try read(Catalog.textOffset), textAllowOverlap: try read(Catalog.textAllowOverlap),
      textIgnorePlacement: try read(Catalog.textIgnorePlacement), textColor: try read(Catalog.textColor),
      textHaloColor: try read(Catalog.textHaloColor), textHaloWidth: try read(Catalog.textHaloWidth),
      textHaloBlur: try read(Catalog.textHaloBlur), textOpacity: try read(Catalog.textOpacity))
  }
}
