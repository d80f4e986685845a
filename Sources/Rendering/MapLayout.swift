import JSON
import MapMath

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// What was drawn and where, in image pixels (scale applied): the layout JSON of ARCHITECTURE.md §4.
public struct MapLayout: Hashable, Sendable {
  public var width: Int
  public var height: Int
  public var scale: Double
  public var format: OutputFormat
  public var camera: Camera
  public var bounds: GeoBox
  public var tiles: TileSummary
  public var annotations: [AnnotationLayout]
  public var user: UserLayout?
  /// Ids of the places whose callout did not fit and was left out.
  public var droppedCallouts: [String]
  /// Every label the basemap drew (built-in or vector tiles), in drawing order.
  public var labels: [MapLabel] = []
  /// The legend naming the numbered places and the pin colours, when one is drawn.
  public var legend: LegendLayout? = nil
  /// The plates drawn over the map (title, scale bar, legend), in drawing order.
  public var plates: [PlateLayout] = []
  /// The libraries and font files that drew the map (`RendererInfo.current`); nil leaves it out of the JSON.
  public var renderer: RendererInfo?
  /// Every track and route, in the order drawn.
  public var tracks: [TrackLayout] = []

  /// A track or route as drawn.
  public struct TrackLayout: Hashable, Sendable {
    public var id: String
    public var name: String
    /// The points that reached the drawing, after cutting to the image and simplifying.
    public var pointsDrawn: Int
    public var lengthKilometers: Double
    /// The box of the line as drawn, casing included; nil when none of it is in the image.
    public var rect: PixelRect?
  }

  /// A basemap label as drawn.
  public struct MapLabel: Hashable, Sendable {
    public var text: String
    /// The style layer that drew it; for the built-in basemap `country` or `city`.
    public var layer: String
    /// Its bounding box (for a label along a curved street, the box of all its letters).
    public var rect: PixelRect

    public init(text: String, layer: String, rect: PixelRect) {
      self.text = text
      self.layer = layer
      self.rect = rect
    }
  }

  /// The basemap tiles of one render.
  public struct TileSummary: Hashable, Sendable {
    /// The tile source as given (a path, or "none").
    public var source: String
    public var zoom: Int?
    public var needed: Int
    public var drawn: Int
    public var missing: Int
  }

  /// One place as drawn.
  public struct AnnotationLayout: Hashable, Sendable {
    public var id: String
    public var title: String
    public var subtitle: String?
    public var coordinate: Coordinate
    /// The place itself: the pin's needle tip.
    public var point: PixelPoint
    public var pin: PixelRect
    public var callout: PixelRect?
    /// The number in the pin head, which the legend names, when the place has one.
    public var number: Int? = nil
  }

  /// The user's position as drawn.
  public struct UserLayout: Hashable, Sendable {
    public var coordinate: Coordinate
    public var point: PixelPoint
  }

  /// The layout as pretty-printed JSON with a fixed key order; numbers are rounded to 1/100 pixel and
  /// 1e-8 degree (bounds 1e-7) so the same map always gives the same text.
  public var json: String {
    var members: [JSONValue.Member] = [
      .init("width", .number(Double(width))),
      .init("height", .number(Double(height))),
      .init("scale", .number(scale)),
      .init("format", .string(format.rawValue)),
      .init(
        "camera",
        .object([
          .init("center", MapLayout.coordinate(camera.center)),
          .init("zoom", MapLayout.number(camera.zoom, digits: 6)),
        ])),
      .init(
        "bounds",
        .object([
          .init("north", MapLayout.number(bounds.north, digits: 7)),
          .init("south", MapLayout.number(bounds.south, digits: 7)),
          .init("east", MapLayout.number(bounds.east, digits: 7)),
          .init("west", MapLayout.number(bounds.west, digits: 7)),
        ])),
      .init(
        "tiles",
        .object([
          .init("source", .string(tiles.source)),
          .init("zoom", tiles.zoom.map { .number(Double($0)) } ?? .null),
          .init("needed", .number(Double(tiles.needed))),
          .init("drawn", .number(Double(tiles.drawn))),
          .init("missing", .number(Double(tiles.missing))),
        ])),
    ]
    members.append(
      .init(
        "annotations",
        .array(
          annotations.map { item in
            .object(
              [
                .init("id", .string(item.id)),
                .init("title", .string(item.title)),
                .init("subtitle", item.subtitle.map { .string($0) } ?? .null),
              ] + MapLayout.coordinateMembers(item.coordinate) + [
                .init("point", MapLayout.point(item.point)),
                .init("pin", MapLayout.rect(item.pin)),
                .init("callout", item.callout.map(MapLayout.rect) ?? .null),
                .init("number", item.number.map { .number(Double($0)) } ?? .null),
              ])
          })))
    members.append(
      .init(
        "user",
        user.map {
          .object(MapLayout.coordinateMembers($0.coordinate) + [.init("point", MapLayout.point($0.point))])
        } ?? .null))
    members.append(.init("droppedCallouts", .array(droppedCallouts.map { .string($0) })))
    members.append(
      .init(
        "labels",
        .array(
          labels.map {
            .object([
              .init("text", .string($0.text)), .init("layer", .string($0.layer)),
              .init("rect", MapLayout.rect($0.rect)),
            ])
          })))
    members += decorationMembers
    members.append(.init("tracks", .array(tracks.map(MapLayout.track))))
    if let renderer { members.append(.init("renderer", renderer.json)) }
    return JSONWriter.text(.object(members))
  }

  private static func track(_ track: TrackLayout) -> JSONValue {
    .object([
      .init("id", .string(track.id)), .init("name", .string(track.name)),
      .init("pointsDrawn", .number(Double(track.pointsDrawn))),
      .init("lengthKm", number(track.lengthKilometers, digits: 3)),
      .init("rect", track.rect.map(rect) ?? .null),
    ])
  }

  /// A number rounded to `digits` decimals (negative zero becomes zero).
  static func number(_ value: Double, digits: Int = 2) -> JSONValue {
    let factor = pow(10, Double(digits))
    let rounded = (value * factor).rounded() / factor
    return .number(rounded == 0 ? 0 : rounded)
  }

  private static func coordinateMembers(_ coordinate: Coordinate) -> [JSONValue.Member] {
    [
      .init("latitude", number(coordinate.latitude, digits: 8)),
      .init("longitude", number(coordinate.longitude, digits: 8)),
    ]
  }

  private static func coordinate(_ coordinate: Coordinate) -> JSONValue {
    .object(coordinateMembers(coordinate))
  }

  static func point(_ point: PixelPoint) -> JSONValue {
    .object([.init("x", number(point.x)), .init("y", number(point.y))])
  }

  static func rect(_ rect: PixelRect) -> JSONValue {
    .object([
      .init("x", number(rect.x)), .init("y", number(rect.y)), .init("width", number(rect.width)),
      .init("height", number(rect.height)),
    ])
  }
}
