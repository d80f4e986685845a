import MapMath
import MapStyle
import Tiles

/// Everything one map needs: what to draw, how large, in which format, over which tiles, in which style.
public struct RenderRequest {
  public var annotations: [any Annotation]
  /// Places read in two steps (coordinates first, texts only for the pins drawn); when set, used instead
  /// of `annotations`.
  public var places: (any AnnotationCollection)?
  /// Whether places whose pins would collide merge into cluster markers.
  public var clustering = Clustering.auto
  public var user: UserPosition?
  /// Lines drawn under the pins (tracks, routes, the route through the places); the map is fitted to them
  /// as to the places.
  public var tracks: [MapTrack] = []
  /// Image size in points; the image has `size × scale` pixels.
  public var size = PixelSize(width: 800, height: 600)
  public var scale = 1.0
  public var format = OutputFormat.png
  /// The basemap as tiles (raster images, or vector tiles drawn with `mapStyle`); nil draws `basemap`, or
  /// without it the style's plain background.
  public var tiles: (any TileSource)?
  /// The MapLibre style that draws vector tiles; required when `tiles` holds vector tiles.
  public var mapStyle: MapStyle?
  /// The built-in vector basemap, drawn when `tiles` is nil.
  public var basemap: (any BasemapSource)?
  public var style = Style.standard
  public var showCallouts = true
  /// How the places are named: callouts, numbers in the pins with a legend, or callouts where they fit and
  /// numbers for the rest.
  public var labels = PlaceLabels.callouts
  /// Draw the legend (numbered places, and the categories when the style colours pins by them).
  public var showsLegend = true
  /// The legend's last line when it has no room for `n` more numbered places, in the reader's language.
  public var legendMoreText: (Int) -> String = { "… and \($0) more" }
  /// The plate at the top, as given (placeholders already filled); nil draws none.
  public var title: MapTitle?
  /// A scale bar in these units, in a free corner; nil draws none. It is left out of a map whose scale
  /// changes more than fourfold from its edge nearest the equator to the edge nearest a pole.
  public var scaleBar: ScaleBarUnits?
  /// Empty points kept between the drawn overlays and the image's edges.
  public var padding = 20.0
  /// Whole or any zooms; nil chooses: whole zooms for raster tiles (drawn 1:1, crisp), any zoom for vector
  /// basemaps (the built-in one and vector tiles are crisp at every zoom), the tightest fit.
  public var zoomSnapping: ZoomSnapping?
  /// Overrides of the fitted camera.
  public var center: Coordinate?
  public var zoom: Double?
  public var spanMeters: Double?
  /// Fail with `RenderError.incompleteBasemap` instead of drawing placeholders for missing tiles.
  public var requireAllTiles = false
  /// Decoded tiles kept between renders (the benchmark's warm cache).
  public var tileCache: TileImageCache?
  /// Decoded vector tiles kept between renders (a batch's, a watch's, the benchmark's).
  public var vectorTileCache: VectorTileCache?

  public init(annotations: [any Annotation], user: UserPosition? = nil) {
    self.annotations = annotations
    self.user = user
  }
}

/// When places merge into cluster markers (a circle with their count).
public enum Clustering: String, Sendable, CaseIterable {
  /// When pin heads would overlap at the fitted zoom.
  case auto
  /// Whenever markers would collide (pins that do not collide stay pins).
  case always
  /// Never: every place gets its pin.
  case never
}

/// The finished map: the file's bytes, what was drawn where, and things the user should know.
public struct RenderResult: Sendable {
  public var data: [UInt8]
  public var layout: MapLayout
  public var warnings: [RenderWarning]
  /// The built-in basemap's labels as drawn (empty for raster tiles), in image pixels, with their dots (the
  /// layout JSON lists every basemap label's text and box in `layout.labels`).
  public var labels: [BasemapLabel] = []
  /// The attribution plate as drawn, in image pixels (nil without an attribution); not part of the layout JSON.
  public var attribution: PixelRect? = nil
  /// How long each stage took, in order (benchmark figures; they vary run to run).
  public var phaseTimes: [RenderPhaseTime] = []
}
