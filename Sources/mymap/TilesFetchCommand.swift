import Arguments
import Foundation
import JSON
import MapMath
import Places
import TileFetching
import Tiles

/// `mymap tiles fetch`: fills a tile cache from a tile server, for an area and a range of zooms.
enum TilesFetchCommand {
  static let spec = CommandSpec(
    "tiles fetch",
    abstract: "Fetch the tiles of an area from a tile server into the tile cache, to render from later (also"
      + " offline).",
    discussion: """
      The area is the box of --bbox, or the region that shows all the places of --locations or of the \
      store (the default), as 'render' would fit it. Only tiles the cache lacks, or holds past the expiry \
      the server gave them, are requested; stale tiles are revalidated (If-None-Match, If-Modified-Since). \
      Every tile is stored only after it decodes as an image of the right size (or, for a template that \
      ends in .pbf or .mvt, as a vector tile), each in one atomic write, so Ctrl-C (or a failure) leaves a consistent cache. Requests carry mymap's User-Agent (extend it \
      with --contact), use at most 2 connections per server, and back off on HTTP 429 and 503. More than \
      --max-tiles (default 2000) tiles are refused: public tile servers such as tile.openstreetmap.org \
      forbid bulk downloading (https://operations.osmfoundation.org/policies/tiles/). The template may \
      read an API key from the environment with {key:NAME}; it is never written to the cache or shown. \
      Exit codes: 0 done (tiles the server does not have are not an error), 2 bad usage or too many \
      tiles, 3 the places or the cache cannot be used, 4 some tiles could not be fetched, 130 stopped \
      with Ctrl-C, 1 anything else.
      """,
    options: [
      .value(
        "url", valueName: "TEMPLATE",
        help: "The tile server's URL template: {z} {x} {y}, {-y} for TMS rows, {s} or {s:abc} for"
          + " subdomains, {r} for @2x, {key:NAME} for an API key from the environment variable NAME.",
        required: true),
      .value(
        "zoom", valueName: "A-B", help: "The zooms to fetch, like 10-14, or one zoom like 12.", required: true
      ),
      .value(
        "bbox", valueName: "W,S,E,N",
        help: "The area as west,south,east,north in degrees (west > east crosses the 180° meridian)."),
      .value(
        "locations", short: "l", valueName: "FILE",
        help: "The area of the places in a file (JSON, GeoJSON, GPX, CSV; - for stdin)."),
      .value(
        "to", valueName: "DIR|FILE.mbtiles",
        help: "The cache to fill: a tile folder or an MBTiles file (default: a folder for this server under"
          + " $XDG_CACHE_HOME/mymap/tiles, else ~/.cache/mymap/tiles)."),
      .value(
        "size", valueName: "WxH",
        help:
          "With --locations or the store: the size of the maps to render, in points; every zoom covers such"
          + " a map centred anywhere on the places.", default: "800x600"),
      .flag("retina", help: "Fetch @2x (512-pixel) tiles, for templates with {r}."),
      .flag("dry-run", help: "Say how many tiles would be fetched, and fetch nothing."),
      .flag("quiet", short: "q", help: "Print nothing but errors (no progress line)."),
      .flag("json", help: "Print the outcome (or with --dry-run the plan) as one JSON object."),
    ] + TileServerAccess.options + FilterOptions.options + [StoreAccess.option])

  static func run(_ arguments: ParsedArguments) throws(CLIError) {
    let template = try TileServerAccess.template(arguments.string("url")!)
    let zooms: ClosedRange<Int>
    do {
      zooms = try arguments.value("zoom", as: zoomRange)!
    } catch {
      throw .usage("\(error)")
    }
    let maximumTiles = try TileServerAccess.maximumTiles(arguments)
    let quiet = arguments.flag("quiet")
    let retina = arguments.flag("retina")
    if retina && !template.hasRetinaPlaceholder {
      throw .usage("--retina needs a template with {r} (where the server wants @2x)")
    }
    let (box, aroundPlaces) = try area(arguments, quiet: quiet)
    let size: PixelSize
    do {
      size = try arguments.value("size", as: ValueParsers.size)!
    } catch {
      throw .usage("\(error)")
    }
    // A render centres its map on the places' region (shifted a little to fit the callouts): half a map and
    // a bit more on every side holds whatever it shows. The margin counts 256-point tiles: vector tiles are
    // drawn 512 points wide (a render at zoom z uses vector tiles of zoom z - 1), so half as many suffice.
    let perTile = template.content == .vector ? 0.5 : 1
    let margin =
      aroundPlaces
      ? PixelSize(width: (size.width / 2 + 64) * perTile, height: (size.height / 2 + 64) * perTile)
      : PixelSize(width: 0, height: 0)
    let coverage = TileCoverage(box: box, zooms: zooms, margin: margin)
    // Counted before anything is listed or opened: a whole-world request at zoom 18 is 68 billion tiles.
    let planned = coverage.tileCount
    if planned > max(maximumTiles * 4, 10_000) {
      throw TileServerAccess.map(.tooManyTiles(needed: planned, limit: maximumTiles))
    }
    let tileSize = template.tileSize(retina: retina)
    let path = arguments.string("to") ?? TileServerAccess.defaultCache(for: template, retina: retina)
    let given = arguments.string("attribution") ?? knownAttribution(for: template)
    let description = TileCacheDescription(source: template.redacted, attribution: given, tileSize: tileSize)
    let fetcher = TileServerAccess.fetcher(arguments)
    func download(into cache: any TileCacheStore) -> TileDownload {
      TileDownload(template: template, fetcher: fetcher, cache: cache, tileSize: tileSize, retina: retina)
    }
    // A cache that does not exist yet needs every tile; it is made only when the fetch really starts, so
    // that a refused or dry run leaves nothing behind.
    var existing: TileDownload?
    var pending = coverage.tiles.map { PendingTile(tile: $0, cached: nil, hasCachedCopy: false) }
    if FileManager.default.fileExists(atPath: path) {
      let opened = download(into: try TileServerAccess.openCache(at: path, for: description))
      do {
        pending = try opened.pending(coverage.tiles)
      } catch {
        throw TileServerAccess.map(error)
      }
      existing = opened
    }
    let fresh = planned - pending.count
    let json = arguments.flag("json")
    if arguments.flag("dry-run") && json {
      Console.print(
        JSONWriter.text(
          outcome(path: path, planned: planned, fresh: fresh, report: nil, pending: pending.count)))
      return
    }
    if arguments.flag("dry-run") {
      var text = "would fetch \(count(pending.count, "tile")) of \(planned) into \(path)"
      if fresh > 0 { text += " (\(fresh) fresh in the cache)" }
      if pending.count > maximumTiles {
        text += "; that is over the limit of \(maximumTiles): the fetch needs --max-tiles \(pending.count)"
      }
      Console.print(text + "; nothing was fetched")
      return
    }
    guard pending.count <= maximumTiles else {
      throw TileServerAccess.map(.tooManyTiles(needed: pending.count, limit: maximumTiles))
    }
    let run: TileDownload
    if let existing {
      run = existing
    } else {
      run = download(into: try TileServerAccess.openCache(at: path, for: description))
    }
    if !quiet && given == nil && (try? run.cache.tileSource())?.attribution == nil {
      Console.warning(TileServerAccess.noAttributionWarning(template))
    }
    let report = try fetch(pending, with: run, quiet: quiet)
    if json {
      Console.print(
        JSONWriter.text(outcome(path: path, planned: planned, fresh: fresh, report: report, pending: nil)))
    } else if !quiet {
      Console.print(resultLine(report, fresh: fresh, path: path))
    }
    if let summary = report.failureSummary { throw .incomplete(summary) }
  }

  /// `fetched 29 tiles (4.0 MB) into PATH; 3 unchanged on the server, 2 not on the server, 10 fresh in the
  /// cache already`.
  static func resultLine(_ report: TileDownloadReport, fresh: Int, path: String) -> String {
    var text =
      "fetched \(count(report.stored, "tile")) (\(TileDownloadProgress.byteText(report.bytes))) into \(path)"
    var more: [String] = []
    if report.confirmed > 0 { more.append("\(report.confirmed) unchanged on the server") }
    if !report.missing.isEmpty { more.append("\(report.missing.count) not on the server") }
    if fresh > 0 { more.append("\(fresh) fresh in the cache already") }
    if !more.isEmpty { text += "; " + more.joined(separator: ", ") }
    return text
  }

  /// What `--json` prints: the cache, the tiles planned and fresh, then what the fetch did (`report`) or,
  /// for a dry run, how many it would fetch (`pending`).
  static func outcome(path: String, planned: Int, fresh: Int, report: TileDownloadReport?, pending: Int?)
    -> JSONValue
  {
    func number(_ value: Int) -> JSONValue { .number(Double(value)) }
    var members: [JSONValue.Member] = [
      .init("cache", .string(path)), .init("planned", number(planned)), .init("fresh", number(fresh)),
      .init("dryRun", .bool(report == nil)),
    ]
    if let pending { members.append(.init("wouldFetch", number(pending))) }
    if let report {
      members += [
        .init("requested", number(report.requested)), .init("stored", number(report.stored)),
        .init("unchanged", number(report.confirmed)), .init("notOnServer", number(report.missing.count)),
        .init("failed", number(report.failures.count)), .init("bytes", number(report.bytes)),
      ]
    }
    return .object(members)
  }

  /// Runs the download with the progress line and Ctrl-C handling.
  private static func fetch(_ pending: [PendingTile], with download: TileDownload, quiet: Bool)
    throws(CLIError) -> TileDownloadReport
  {
    let progress = ProgressLine(quiet: quiet)
    defer { progress?.finish() }
    let cancellation = FetchCancellation()
    let interrupts = Interrupts.forward(to: cancellation, quiet: quiet, progress: progress)
    defer { Interrupts.restore(interrupts) }
    var onProgress: (@Sendable (TileDownloadProgress) -> Void)?
    if let progress { onProgress = { progress.update($0) } }
    let report = onProgress
    do {
      return try FetchCancellation.blocking {
        try await download.run(pending, stopping: cancellation, progress: report)
      }
    } catch let error as TileDownloadError {
      progress?.finish()
      throw TileServerAccess.map(error)
    } catch {
      throw .failure("\(error)")
    }
  }

  /// The box of --bbox, or of the places of --locations or the store (then `true`).
  private static func area(_ arguments: ParsedArguments, quiet: Bool) throws(CLIError) -> (GeoBox, Bool) {
    let given = ["bbox", "locations"].filter { arguments.isGiven($0) }
    if given.count > 1 || (!given.isEmpty && arguments.isGiven("store")) {
      throw .usage("give only one of --bbox, --locations and --store")
    }
    do {
      if let box = try arguments.value("bbox", as: box) { return (box, false) }
    } catch {
      throw .usage("\(error)")
    }
    let filter = try FilterOptions.filter(arguments)
    // Only the places' coordinates count: a JSON file's and the store's are read without their texts.
    var coordinates: [Coordinate]
    var user: Coordinate?
    if let path = arguments.string("locations") {
      let set: LocationSet
      do {
        if let (rest, places) = try LocationsFile.readInTwoSteps(path: path, including: filter.includes) {
          (set, coordinates) = (rest, places.coordinates)
        } else {
          set = try LocationsFile.read(path: path)
          coordinates = set.locations.filter(filter.includes).map(\.coordinate)
        }
      } catch {
        throw .badInput(error.description)
      }
      if !quiet { for warning in set.warnings { Console.warning(warning) } }
      user = set.user?.coordinate
    } else {
      let store = try StoreAccess.open(arguments, create: false, access: .readOnly)
      do {
        coordinates = try store.places(filter).coordinates
      } catch {
        throw StoreAccess.map(error)
      }
    }
    guard let region = Region.forAnnotations(coordinates, user: user) else {
      throw .usage("no places to fetch tiles for (none given, stored or matching the filters); use --bbox")
    }
    return (region.box, true)
  }

  /// `10-14` or `12`, within 0…22.
  static func zoomRange(_ text: String) throws -> ClosedRange<Int> {
    let pieces = text.split(separator: "-", omittingEmptySubsequences: false).map {
      Int($0.trimmingCharacters(in: .whitespaces))
    }
    guard (1...2).contains(pieces.count), pieces.allSatisfy({ $0 != nil }) else {
      throw InvalidValue("expected a zoom like 12 or a range like 10-14")
    }
    let low = pieces[0]!
    let high = pieces.last!!
    guard (0...22).contains(low), (0...22).contains(high) else {
      throw InvalidValue("zooms go from 0 to 22")
    }
    guard low <= high else { throw InvalidValue("the first zoom must not be above the second") }
    return low...high
  }

  /// `W,S,E,N` in degrees.
  static func box(_ text: String) throws -> GeoBox {
    let numbers = text.split(separator: ",", omittingEmptySubsequences: false).map {
      Double($0.trimmingCharacters(in: .whitespaces))
    }
    guard numbers.count == 4, numbers.allSatisfy({ $0?.isFinite == true }) else {
      throw InvalidValue("expected four numbers west,south,east,north, like 2.25,48.81,2.42,48.90")
    }
    let (west, south, east, north) = (numbers[0]!, numbers[1]!, numbers[2]!, numbers[3]!)
    guard (-180...180).contains(west), (-180...180).contains(east) else {
      throw InvalidValue("longitudes go from -180 to 180")
    }
    guard (-90...90).contains(south), (-90...90).contains(north) else {
      throw InvalidValue("latitudes go from -90 to 90")
    }
    guard south <= north else { throw InvalidValue("south must not be above north") }
    return GeoBox(north: north, south: south, west: west, east: east)
  }
}
