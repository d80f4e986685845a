/// The properties of a `background` layer.
public struct BackgroundStyle: Sendable {
  /// `background-color`.
  public var color: StyleProperty<StyleColor>
  /// `background-opacity`.
  public var opacity: StyleProperty<Double>
}

/// The properties of a `fill` layer.
public struct FillStyle: Sendable {
  /// `fill-color`.
  public var color: StyleProperty<StyleColor>
  /// `fill-opacity`.
  public var opacity: StyleProperty<Double>
  /// The outline colour; nil (the default) means the fill colour, as the specification says.
  public var outlineColor: StyleProperty<StyleColor?>
  /// `fill-antialias`: read for completeness; vector output is always antialiased.
  public var antialias: StyleProperty<Bool>
}

/// The properties of a `line` layer.
public struct LineStyle: Sendable {
  /// `line-color`.
  public var color: StyleProperty<StyleColor>
  /// `line-width`, in screen pixels (the zoom convention changes which zoom is evaluated, not the unit).
  public var width: StyleProperty<Double>
  /// `line-opacity`.
  public var opacity: StyleProperty<Double>
  /// Non-zero: the line is drawn as two lines this far apart (casings).
  public var gapWidth: StyleProperty<Double>
  /// Dash and gap lengths in line widths; nil for a solid line.
  public var dashArray: StyleProperty<[Double]?>
  /// `line-cap`.
  public var cap: StyleProperty<LineCap>
  /// `line-join`.
  public var join: StyleProperty<LineJoin>
  /// `line-miter-limit`: miter joins longer than this many widths become bevels.
  public var miterLimit: StyleProperty<Double>
  /// `line-round-limit`.
  public var roundLimit: StyleProperty<Double>
}

/// The properties of a `symbol` layer (text only: icons are not drawn).
public struct SymbolStyle: Sendable {
  /// `symbol-placement`: at a point or along lines.
  public var placement: StyleProperty<SymbolPlacement>
  /// Pixels between repeated labels along a line.
  public var spacing: StyleProperty<Double>
  /// Lower keys are placed first; nil keeps the layer's order.
  public var sortKey: StyleProperty<Double?>
  /// The label text, `text-transform` not yet applied.
  public var textField: StyleProperty<String>
  /// Font stack names in order of preference; `FontFace(fontStack:)` reads one.
  public var textFont: StyleProperty<[String]>
  /// `text-size`, in pixels.
  public var textSize: StyleProperty<Double>
  /// Ems before a point label wraps.
  public var textMaxWidth: StyleProperty<Double>
  /// `text-line-height`, in ems.
  public var textLineHeight: StyleProperty<Double>
  /// `text-letter-spacing`, in ems.
  public var textLetterSpacing: StyleProperty<Double>
  /// `text-justify`.
  public var textJustify: StyleProperty<TextJustify>
  /// `text-anchor`.
  public var textAnchor: StyleProperty<TextAnchor>
  /// Degrees a line label may bend between neighbouring characters.
  public var textMaxAngle: StyleProperty<Double>
  /// `text-padding`: pixels kept clear around a label when placing others.
  public var textPadding: StyleProperty<Double>
  /// `text-transform`: apply with `TextTransform.apply(to:)`.
  public var textTransform: StyleProperty<TextTransform>
  /// Ems, `[x, y]`.
  public var textOffset: StyleProperty<[Double]>
  /// `text-allow-overlap`: draw even where other labels are.
  public var textAllowOverlap: StyleProperty<Bool>
  /// `text-ignore-placement`: let later labels overlap this one.
  public var textIgnorePlacement: StyleProperty<Bool>
  /// `text-color`.
  public var textColor: StyleProperty<StyleColor>
  /// `text-halo-color`.
  public var textHaloColor: StyleProperty<StyleColor>
  /// `text-halo-width`, in pixels.
  public var textHaloWidth: StyleProperty<Double>
  /// `text-halo-blur`, in pixels.
  public var textHaloBlur: StyleProperty<Double>
  /// `text-opacity`.
  public var textOpacity: StyleProperty<Double>
}

extension PropertyReader {
  typealias Catalog = PropertyCatalog

  mutating func backgroundStyle() throws(MapStyleError) -> BackgroundStyle {
    BackgroundStyle(color: try read(Catalog.backgroundColor), opacity: try read(Catalog.backgroundOpacity))
  }

  mutating func fillStyle() throws(MapStyleError) -> FillStyle {
    FillStyle(
      color: try read(Catalog.fillColor), opacity: try read(Catalog.fillOpacity),
      outlineColor: try read(Catalog.fillOutlineColor), antialias: try read(Catalog.fillAntialias))
  }

  mutating func lineStyle() throws(MapStyleError) -> LineStyle {
    LineStyle(
      color: try read(Catalog.lineColor), width: try read(Catalog.lineWidth),
      opacity: try read(Catalog.lineOpacity),
      gapWidth: try read(Catalog.lineGapWidth), dashArray: try read(Catalog.lineDashArray),
      cap: try read(Catalog.lineCap), join: try read(Catalog.lineJoin),
      miterLimit: try read(Catalog.lineMiterLimit),
      roundLimit: try read(Catalog.lineRoundLimit))
  }

  mutating func symbolStyle() throws(MapStyleError) -> SymbolStyle {
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
