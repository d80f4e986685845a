import MapMath

/// What was drawn and where, in image pixels (scale applied): the `--layout-json` output, DESIGN.md §4.
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
  }

  /// The user's position as drawn.
  public struct UserLayout: Hashable, Sendable {
    public var coordinate: Coordinate
    public var point: PixelPoint
  }

  /// The layout as pretty-printed JSON with a fixed key order; numbers are rounded to 1/100 pixel and
  /// 1e-7 degree so the same map always gives the same text.
  public var json: String {
    let out = JSONWriter()
    out.object {
      out.field("width", width)
      out.field("height", height)
      out.field("scale", scale)
      out.field("format", format.rawValue)
      out.field("camera") {
        out.object {
          out.field("center") { out.coordinate(camera.center) }
          out.field("zoom", camera.zoom, digits: 6)
        }
      }
      out.field("bounds") {
        out.object {
          out.field("north", bounds.north, digits: 7)
          out.field("south", bounds.south, digits: 7)
          out.field("east", bounds.east, digits: 7)
          out.field("west", bounds.west, digits: 7)
        }
      }
      out.field("tiles") {
        out.object {
          out.field("source", tiles.source)
          out.field("zoom") { tiles.zoom.map { out.number(Double($0)) } ?? out.null() }
          out.field("needed", tiles.needed)
          out.field("drawn", tiles.drawn)
          out.field("missing", tiles.missing)
        }
      }
      out.field("annotations") {
        out.array(annotations) { item in
          out.object {
            out.field("id", item.id)
            out.field("title", item.title)
            out.field("subtitle") { item.subtitle.map { out.string($0) } ?? out.null() }
            out.field("latitude", item.coordinate.latitude, digits: 8)
            out.field("longitude", item.coordinate.longitude, digits: 8)
            out.field("point") { out.point(item.point) }
            out.field("pin") { out.rect(item.pin) }
            out.field("callout") { item.callout.map { out.rect($0) } ?? out.null() }
          }
        }
      }
      out.field("user") {
        guard let user else { return out.null() }
        out.object {
          out.field("latitude", user.coordinate.latitude, digits: 8)
          out.field("longitude", user.coordinate.longitude, digits: 8)
          out.field("point") { out.point(user.point) }
        }
      }
      out.field("droppedCallouts") { out.array(droppedCallouts) { out.string($0) } }
    }
    return out.text + "\n"
  }
}

/// A small JSON emitter with a fixed key order and two-space indentation.
final class JSONWriter {
  private(set) var text = ""
  private var depth = 0
  private var needsComma = [false]

  func object(_ body: () -> Void) {
    open("{")
    body()
    close("}")
  }

  func array<T>(_ items: [T], _ element: (T) -> Void) {
    open("[")
    for item in items {
      separate()
      element(item)
    }
    close("]")
  }

  func field(_ key: String, _ value: () -> Void) {
    separate()
    string(key)
    text += ": "
    value()
  }

  func field(_ key: String, _ value: String) { field(key) { string(value) } }
  func field(_ key: String, _ value: Int) { field(key) { text += String(value) } }
  func field(_ key: String, _ value: Double, digits: Int = 2) { field(key) { number(value, digits: digits) } }

  func null() { text += "null" }

  func number(_ value: Double, digits: Int = 2) {
    text += JSONWriter.format(value, digits: digits)
  }

  func string(_ value: String) {
    text += "\""
    for scalar in value.unicodeScalars {
      switch scalar {
      case "\"": text += "\\\""
      case "\\": text += "\\\\"
      case "\n": text += "\\n"
      case "\r": text += "\\r"
      case "\t": text += "\\t"
      case _ where scalar.value < 0x20:
        let hex = String(scalar.value, radix: 16)
        text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: text.unicodeScalars.append(scalar)
      }
    }
    text += "\""
  }

  func point(_ point: PixelPoint) {
    object {
      field("x", point.x)
      field("y", point.y)
    }
  }

  func rect(_ rect: PixelRect) {
    object {
      field("x", rect.x)
      field("y", rect.y)
      field("width", rect.width)
      field("height", rect.height)
    }
  }

  func coordinate(_ coordinate: Coordinate) {
    object {
      field("latitude", coordinate.latitude, digits: 8)
      field("longitude", coordinate.longitude, digits: 8)
    }
  }

  /// A number rounded to `digits` decimals, in plain decimal notation, without trailing zeros.
  static func format(_ value: Double, digits: Int) -> String {
    guard value.isFinite else { return "null" }
    let scaled = (value * pow(10, Double(digits))).rounded()
    guard scaled.magnitude < 9e18 else { return String(value) }
    if scaled == 0 { return "0" }
    var text = String(UInt64(scaled.magnitude))
    if text.count <= digits { text = String(repeating: "0", count: digits - text.count + 1) + text }
    if digits > 0 {
      text.insert(".", at: text.index(text.endIndex, offsetBy: -digits))
      while text.hasSuffix("0") { text.removeLast() }
      if text.hasSuffix(".") { text.removeLast() }
    }
    return (scaled < 0 ? "-" : "") + text
  }

  private func open(_ bracket: String) {
    text += bracket
    depth += 1
    needsComma.append(false)
  }

  private func close(_ bracket: String) {
    depth -= 1
    let hadItems = needsComma.removeLast()
    if hadItems { newline() }
    text += bracket
  }

  private func separate() {
    if needsComma[needsComma.count - 1] { text += "," }
    needsComma[needsComma.count - 1] = true
    newline()
  }

  private func newline() {
    text += "\n" + String(repeating: "  ", count: depth)
  }
}
