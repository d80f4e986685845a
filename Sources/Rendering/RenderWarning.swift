import MapMath
import Tiles

/// Something the user should know about a map that was drawn: what was left out or drawn as a stand-in.
/// `description` is the sentence the command line shows.
public enum RenderWarning: Hashable, Sendable, CustomStringConvertible {
  /// `count` of `total` callouts could not be placed; their places keep their pins (the layout names them
  /// in `droppedCallouts`).
  case calloutsLeftOut(count: Int, total: Int)
  /// `count` callouts could not be placed; their places are numbered in their pins, and named in the
  /// legend when there is one (else only in the layout).
  case calloutsNumbered(count: Int, inLegend: Bool)
  /// More than `maximum` places would be numbered: none is (their pins stay unnamed).
  case tooManyToNumber(maximum: Int)
  /// The legend names `shown` of the `total` numbered places: the image has no room for more rows.
  case legendShortened(shown: Int, total: Int)
  /// Characters of titles and subtitles that no installed font can draw, and the font packages that would
  /// likely draw them (from the scripts of the texts with boxes; empty when none is known).
  case glyphsMissing(count: Int, fonts: [FontPackage])
  /// `count` of the `needed` tiles are not in the tile source; drawn as placeholders.
  case tilesMissing(count: Int, needed: Int, source: String)
  /// A tile the source has that cannot be drawn; drawn as a placeholder. The first few are named one by one.
  case tileUndrawable(TileFailure, source: String)
  /// How many more tiles could not be drawn than are named by `tileUndrawable`.
  case moreTilesUndrawable(count: Int)
  /// A vector tile that could not be read or decoded; drawn as a placeholder (the first few are named).
  case vectorTileUndrawable(TileID, reason: String)
  /// How many more vector tiles could not be drawn than are named by `vectorTileUndrawable`.
  case moreVectorTilesUndrawable(count: Int)
  /// A source of the map style that is not drawn: a map draws one vector tile source.
  case styleSourceNotDrawn(String)
  /// The fit wanted zoom `wanted`, but raster tiles are never drawn more than two zooms past their
  /// source's top zoom: the map was drawn at `drawn`.
  case zoomCapped(wanted: Double, drawn: Double, source: String)
  /// What a tile source that gets its tiles ready before a render (`PreparedTileSource`, e.g. a tile
  /// server through its cache) reported: tiles it could not fetch or does not have, in its own words.
  case tilePreparation(String)

  /// How many `tileUndrawable` warnings one render gives at most.
  static let undrawableTilesNamed = 3

  public var description: String {
    switch self {
    case .calloutsLeftOut(let count, let total):
      return "\(count) of \(total) callouts did not fit and were left out (their places keep their pins)"
    case .calloutsNumbered(let count, let inLegend):
      return "\(count) callouts did not fit; their places are numbered"
        + (inLegend ? " and named in the legend" : " (the layout names the numbers)")
    case .tooManyToNumber(let maximum):
      return "more than \(maximum) places would need a number: none is numbered (their pins stay unnamed)"
    case .legendShortened(let shown, let total):
      return
        "the legend names \(shown) of the \(total) numbered places (the image has no room for more rows);"
        + " the layout lists every number"
    case .glyphsMissing(let count, let fonts):
      let cure =
        fonts.isEmpty
        ? "install a font that covers them" : "install " + fonts.map(\.rawValue).joined(separator: " and ")
      return "\(count) characters in titles have no font to draw them (\(cure))"
    case .tilesMissing(let count, let needed, let source):
      return "\(count) of \(needed) tiles are not in \(source); drawn as placeholders"
    case .tileUndrawable(let failure, let source):
      return "tile \(failure.tile) of \(source): \(failure.reason); drawn as a placeholder"
    case .moreTilesUndrawable(let count):
      return "\(count) more tiles could not be decoded"
    case .vectorTileUndrawable(let tile, let reason):
      return "vector tile \(tile): \(reason); drawn as a placeholder"
    case .moreVectorTilesUndrawable(let count):
      return "\(count) more vector tiles could not be read"
    case .styleSourceNotDrawn(let source):
      return "style source \"\(source)\" is not drawn: the map draws one vector tile source"
    case .zoomCapped(let wanted, let drawn, let source):
      return
        "the places would fit at zoom \(Self.zoomText(wanted)), but \(source) has no tiles that deep: drawn at"
        + " zoom \(Self.zoomText(drawn)) (raster tiles are enlarged at most 4 times)"
    case .tilePreparation(let text):
      return text
    }
  }

  /// A zoom for a message: a whole one as it is, another to one decimal.
  static func zoomText(_ zoom: Double) -> String {
    zoom == zoom.rounded() ? String(Int(zoom)) : String((zoom * 10).rounded() / 10)
  }
}
