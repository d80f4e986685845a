import MapMath
import MapStyle
import Tiles

/// What a map is drawn over.
public enum MapTiles: Sendable {
  /// The built-in offline basemap (land, water, borders, country and city names) from mymap's package
  /// (`BasemapData.bundled()`).
  case builtin
  /// A basemap data file opened by the caller (`BasemapData(path:)`): the built-in basemap's data kept
  /// somewhere else.
  case basemap(any BasemapSource)
  /// A tile folder (`{z}/{x}/{y}.png`, or `.pbf` vector tiles), an MBTiles file or a PMTiles archive.
  case path(String)
  /// Any tile source, e.g. a tile server through its cache: TileFetching's `RemoteTileSource`.
  case source(any TileSource)
  /// No basemap: the style's plain background.
  case none
}

/// Everything a map snapshot can show and how, as one value (what `mymap render` takes as options).
///
/// Every property has the command line's default, so a snapshot needs only what differs: the places, or a
/// centre, or a user position. Without `center` and `zoom` (or `spanMeters`) the camera is fitted to the
/// places, the user position and the tracks, keeping every pin, callout and plate inside the image.
public struct MapSnapshotOptions: Sendable {
  /// The places, each drawn as a pin with a callout (its title, and its subtitle below it).
  public var places: [any Annotation & Sendable]
  /// The blue dot, with its accuracy circle.
  public var user: UserPosition?
  /// Lines drawn under the pins (recorded tracks, routes: `MapTrack.route(through:)`); the map is fitted
  /// to them as to the places.
  public var tracks: [MapTrack] = []

  /// The image size in points; the image has `size × scale` pixels.
  public var size = PixelSize(width: 800, height: 600)
  /// Pixels per point: 1, 2 or 3 for screens (any value from 0.5 to 4).
  public var scale = 1.0
  /// PNG, SVG or PDF.
  public var format = OutputFormat.png

  /// The centre of a camera given instead of fitted (with `zoom` or `spanMeters`; alone, the zoom is
  /// fitted around it).
  public var center: Coordinate?
  /// The zoom of a given camera (0…22; fractional zooms are allowed).
  public var zoom: Double?
  /// The ground distance the image's shorter side should span, instead of a zoom.
  public var spanMeters: Double?
  /// Empty points kept between what is drawn and the image's edges.
  public var padding = 20.0
  /// Whole or any zooms; nil chooses (whole zooms for raster tiles, any zoom for vector basemaps).
  public var zoomSnapping: ZoomSnapping?

  /// Colours, sizes and fonts of everything drawn: `Style.standard`, `Style.named("dark")`, or a file.
  public var style = Style.standard
  /// The basemap.
  public var tiles = MapTiles.builtin
  /// The MapLibre style that draws vector tiles; nil takes the one that comes with mymap for `style`
  /// (its `basemap.vectorStyle`, else `light`: `MapStyle.named(_:)`).
  public var mapStyle: MapStyle?
  /// The basemap's credit on the map, replacing the style's and the tile source's.
  public var attribution: String?
  /// Fail with `RenderError.incompleteBasemap` instead of drawing placeholders for missing tiles.
  public var requireAllTiles = false

  /// Callouts at the places (false: pins only).
  public var showsCallouts = true
  /// Callouts, numbers in the pins with a legend, or callouts where they fit and numbers for the rest.
  public var labels = PlaceLabels.callouts
  /// The legend, when places are numbered or the style colours pins by category.
  public var showsLegend = true
  /// The legend's last line when it has no room for `n` more places, in the reader's language.
  public var legendMoreText: @Sendable (Int) -> String = { "… and \($0) more" }
  /// The plate at the top.
  public var title: MapTitle?
  /// The scale bar's units; nil draws none.
  public var scaleBar: ScaleBarUnits? = .metric
  /// When places whose pins would collide merge into cluster markers.
  public var clustering = Clustering.auto

  /// Options for a map of `places` (and the user's position), with every other setting at its default.
  public init(places: [any Annotation & Sendable] = [], user: UserPosition? = nil) {
    self.places = places
    self.user = user
  }
}
