/// A rectangle of tiles at one zoom. Columns are unwrapped: `columns` may run past the grid's edges when a
/// view crosses the 180° meridian, and each placement names which world copy it is drawn in.
public struct TileRange: Hashable, Sendable {
  public let zoom: Int
  /// Unwrapped columns (may be negative or ≥ 2^zoom).
  public let columns: ClosedRange<Int>
  /// Rows, always inside the grid.
  public let rows: ClosedRange<Int>

  public init(zoom: Int, columns: ClosedRange<Int>, rows: ClosedRange<Int>) {
    self.zoom = zoom
    self.columns = columns
    self.rows = rows
  }

  /// Unwrapped columns are kept within ±2^31: far more than any view needs at zoom 30, and small enough
  /// that columns × rows cannot overflow.
  static let columnLimit = 1 << 31

  /// The tiles needed to cover a world-space rectangle (x may leave [0, 1]; coordinates that are not
  /// numbers give the first column and row).
  public init(zoom: Int, covering minimum: WorldPoint, _ maximum: WorldPoint) {
    let scaled = Double(1 << zoom)
    let last = (1 << zoom) - 1
    let tolerance = 1e-9  // a view edge exactly on a tile edge does not need the next tile
    let columns = -Self.columnLimit...Self.columnLimit
    let firstColumn = clampedInteger((minimum.x * scaled + tolerance).rounded(.down), in: columns)
    let lastColumn = max(
      firstColumn, clampedInteger((maximum.x * scaled - tolerance).rounded(.up), in: columns) - 1)
    let rows = 0...max(last, 0)
    let firstRow = min(clampedInteger((minimum.y * scaled + tolerance).rounded(.down), in: rows), last)
    let lastRow = min(
      max(
        clampedInteger((maximum.y * scaled - tolerance).rounded(.up), in: -1...max(last, 0) + 1) - 1, firstRow
      ),
      last)
    self.init(zoom: zoom, columns: firstColumn...lastColumn, rows: firstRow...lastRow)
  }

  /// One tile drawn at one unwrapped column.
  public struct Placement: Hashable, Sendable {
    public let tile: TileID
    /// The unwrapped column: `tile.x` plus a whole number of worlds.
    public let column: Int
  }

  /// Every placement, row by row from north to south and west to east.
  public var placements: [Placement] {
    let count = 1 << zoom
    var result: [Placement] = []
    result.reserveCapacity(columns.count * rows.count)
    for row in rows {
      for column in columns {
        let wrapped = ((column % count) + count) % count
        if let tile = TileID(z: zoom, x: wrapped, y: row) {
          result.append(Placement(tile: tile, column: column))
        }
      }
    }
    return result
  }

  /// The distinct tiles (a narrow world may show one tile twice).
  public var tiles: Set<TileID> { Set(placements.map(\.tile)) }
}

extension TileRange {
  /// The tiles of `zoom` that cover a latitude/longitude box, across 180° when the box crosses it
  /// (`west > east`), grown by `margin` pixels (of 256-pixel tiles) on every side. Latitudes beyond Web
  /// Mercator's reach are clamped.
  public init(zoom: Int, covering box: GeoBox, margin: PixelSize = PixelSize(width: 0, height: 0)) {
    var northWest = WebMercator.project(Coordinate(latitude: box.north, longitude: box.west))
    var southEast = WebMercator.project(Coordinate(latitude: box.south, longitude: box.east))
    if box.west <= -180 && box.east >= 180 {
      northWest.x = 0
      southEast.x = 1
    } else if box.west > box.east || southEast.x < northWest.x {
      southEast.x += 1
    }
    let worldPixels = 256 * Double(1 << zoom)
    let dx = margin.width / worldPixels
    let dy = margin.height / worldPixels
    // Wider than the world: every column once (TileRange.tileCount counts them once anyway).
    let west = southEast.x - northWest.x + 2 * dx >= 1 ? 0 : northWest.x - dx
    let east = southEast.x - northWest.x + 2 * dx >= 1 ? 1 : southEast.x + dx
    self.init(
      zoom: zoom, covering: WorldPoint(x: west, y: max(0, northWest.y - dy)),
      WorldPoint(x: east, y: min(1, southEast.y + dy)))
  }

  /// How many distinct tiles the range holds, counted without listing them (a range wider than the world
  /// holds each column once).
  public var tileCount: Int { min(columns.count, 1 << zoom) * rows.count }
}

/// The tiles that cover a box at several zooms: what `mymap tiles fetch` asks a server for.
public struct TileCoverage: Hashable, Sendable {
  public let box: GeoBox
  public let zooms: ClosedRange<Int>
  /// Pixels added around the box at every zoom (a map of size W×H centred inside the box shows W/2 and
  /// H/2 beyond it).
  public let margin: PixelSize

  public init(box: GeoBox, zooms: ClosedRange<Int>, margin: PixelSize = PixelSize(width: 0, height: 0)) {
    self.box = box
    self.zooms = zooms
    self.margin = margin
  }

  /// The ranges, one per zoom.
  public var ranges: [TileRange] { zooms.map { TileRange(zoom: $0, covering: box, margin: margin) } }

  /// How many tiles, counted without listing them (so a huge request can be refused cheaply).
  public var tileCount: Int { ranges.reduce(0) { $0 + $1.tileCount } }

  /// Every tile, zoom by zoom, each sorted by column then row.
  public var tiles: [TileID] { ranges.flatMap { $0.tiles.sorted() } }
}
