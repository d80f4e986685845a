import Arguments
import Foundation
import MapMath
import MapStyle
import Places
import Rendering
import TileFetching
import Tiles

/// `mymap render`: places in, a finished map image out.
enum RenderCommand {
  /// The command's name, known before its spec is made.
  static let name = "render"
  static let spec = CommandSpec(
    name, abstract: "Draw saved places on a map and write it as PNG, SVG or PDF.",
    discussion: """
      The map is fitted to the places (the seed's region rules, the short way across the 180° meridian) \
      so that every pin and callout is inside the image. Exit codes: 0 done, 2 bad usage (also an \
      output that names an input, such as --out naming the store), 3 bad input data (places, store file, \
      style, tile source), 4 the map could not be completed (tiles missing or unusable with --offline, \
      or nothing to draw: no place selected and no --center or --user), \
      130 stopped with Ctrl-C while fetching tiles, 1 anything else. With --batch, each map's result \
      line has its own exit code, and the command exits with the highest of them (0 when every map was \
      made). --watch ends with exit 0 on Ctrl-C or SIGTERM.
      """,
    options: [
      .value(
        "out", short: "o", valueName: "PATH", help: "Where to write the map; - writes to standard output.",
        default: "map.png"),
      .value(
        "format", valueName: "FORMAT", help: "png, svg or pdf (default: from the --out extension, else png)."),
      .value("size", valueName: "WxH", help: "Image size in points.", default: "800x600"),
      .value("scale", valueName: "N", help: "Pixels per point: 1, 2 or 3.", default: "1"),
      .value(
        "locations", short: "l", valueName: "FILE",
        help:
          "Places and tracks to draw from a file (JSON, GeoJSON, GPX, CSV; - for stdin) instead of the store."
      ),
      .value(
        "user", valueName: "LAT,LON[,ACC]",
        help: "The user's position (blue dot), with its accuracy in metres."),
      .value("center", valueName: "LAT,LON", help: "Centre the map here instead of on the places."),
      .value("zoom", valueName: "Z", help: "Use this zoom (0-22) instead of the fitted one."),
      .value(
        "span-meters", valueName: "M", help: "Show M metres around the centre instead of fitting the places."),
      .value(
        "tiles", short: "t", valueName: "SOURCE",
        help:
          "Basemap: a {z}/{x}/{y}.png tile folder, an .mbtiles or .pmtiles file of images or of vector"
          + " tiles (a street map drawn with a MapLibre style, see --map-style), a tile server's URL template"
          + " like https://tile.openstreetmap.org/{z}/{x}/{y}.png, or ending in .pbf or .mvt for vector tiles"
          + " (tiles are fetched into the tile cache, see 'mymap help tiles fetch'), builtin (the default:"
          + " the built-in vector basemap), or none (the style's plain background)."),
      .value(
        "style", valueName: "NAME|FILE", help: "A style from Styles/ or a style JSON file.",
        default: "default"),
      .value(
        "callouts", valueName: "all|none", help: "Draw a callout for every place, or none.", default: "all"),
      .value(
        "cluster", valueName: "auto|always|never",
        help:
          "Merge places whose pins would collide into a marker with their count: when pin heads would"
          + " overlap (auto), whenever markers would collide (always), or never.",
        default: "auto"),
      .value(
        "padding", valueName: "PT", help: "Space between the drawn overlays and the image edge.",
        default: "20"),
      .flag(
        "fractional-zoom",
        help:
          "Fit raster tiles with any zoom, not only whole ones (tiles are resampled); vector maps always do."),
      .flag(
        "offline",
        help:
          "Fail (exit 4, nothing written) when a tile is missing instead of drawing a placeholder; with a"
          + " tile URL, use only the tile cache and never the network."),
      .value(
        "layout-json", valueName: "PATH",
        help: "Also write where everything was drawn, as JSON (- for standard output)."),
      .flag("quiet", short: "q", help: "Print nothing but errors."),
      TrackDrawing.routeOption, BatchRender.option, WatchRender.option,
    ] + MapDecorationOptions.options + FilterOptions.options + [StoreAccess.option, MapStyleResolver.option]
      + TileServerAccess.options)

  static func run(_ arguments: ParsedArguments) throws(CLIError) {
    if arguments.isGiven(BatchRender.option.name) {
      try BatchRender.run(arguments)
      return
    }
    if arguments.flag(WatchRender.option.name) {
      try WatchRender.run(arguments)
      return
    }
    let out = arguments.string("out")!
    if out == "-" && arguments.string("layout-json") == "-" {
      throw .usage("--out - and --layout-json - cannot both write to standard output")
    }
    if out == "-" && isatty(STDOUT_FILENO) == 1 {
      throw .usage(
        "not writing an image to a terminal; redirect standard output (--out - > map.png) or give --out FILE")
    }
    let quiet = arguments.flag("quiet")
    let progress = ProgressLine(quiet: quiet)
    defer { progress?.finish() }
    // A places file's warnings show even when the map then fails.
    var fileWarnings: [String] = []
    let map: MadeMap
    do {
      map = try makeMap(
        arguments, resources: RenderResources(sharing: false), progress: progress, interruptible: true,
        fileWarnings: &fileWarnings)
    } catch {
      if !quiet { for warning in fileWarnings { Console.warning(warning) } }
      throw error
    }
    if !quiet {
      for warning in fileWarnings + map.warnings { Console.warning(warning) }
      if out != "-" && Console.stderrIsTerminal {
        Console.note("wrote \(out) (\(map.layout.width)×\(map.layout.height) px, \(map.places) places)")
      }
    }
  }

  /// A map written: where everything was drawn, and what the user should know about it.
  struct MadeMap {
    let layout: MapLayout
    /// Warnings of the options, the tile source and the render (a places file's come apart).
    let warnings: [String]
    /// What was drawn, to tell a later map that would be the same.
    let drawn: DrawnMap
    /// False when the map was the same as `unlessSameAs` and so was not written again.
    let written: Bool
    /// The places on the map: pins drawn alone and the places in clusters.
    var places: Int { layout.annotations.count + layout.clusters.reduce(0) { $0 + $1.count } }
  }

  /// A map's bytes and its layout: the same inputs give the same bytes, so equal ones mean nothing changed.
  struct DrawnMap: Equatable {
    let image: [UInt8]
    let layoutJSON: String
  }

  /// Makes one map as `arguments` ask and writes it (and its layout JSON) atomically. `resources` are what
  /// it may share with other maps of the process; `interruptible` lets Ctrl-C stop a tile download (only
  /// for a single map: a batch or a watch handles its signals itself); `inputs` are files beyond the
  /// map's own that its outputs must not replace. A places file's warnings go to `fileWarnings` as they
  /// come, so that they can be shown even when the map then fails. A map drawn the same as `unlessSameAs`
  /// is not written again (a watch woken by a store that was opened but not changed).
  static func makeMap(
    _ arguments: ParsedArguments, resources: RenderResources, progress: ProgressLine?, interruptible: Bool,
    inputs extraInputs: [ProtectedInput] = [], fileWarnings: inout [String],
    unlessSameAs previous: DrawnMap? = nil
  ) throws(CLIError) -> MadeMap {
    let out = arguments.string("out")!
    let layoutPath = arguments.string("layout-json")
    // Checked before any work: an output that is an input would destroy it (`--out` = the store).
    let targets = try OutputFile.targets(
      [(out, "--out"), (layoutPath ?? "-", "--layout-json")], inputs: inputs(arguments) + extraInputs)
    var notes: [String] = []
    let request = try makeRequest(
      arguments, out: out, resources: resources, progress: progress, warnings: &notes,
      fileWarnings: &fileWarnings)
    let result: RenderResult
    do {
      result = try render(
        request, quiet: arguments.flag("quiet"), progress: progress, interruptible: interruptible)
      progress?.finish()
    } catch {
      throw cliError(error)
    }
    let drawn = DrawnMap(image: result.data, layoutJSON: result.layout.json)
    let warnings = notes + result.warnings.map(\.description)
    if drawn == previous {
      return MadeMap(layout: result.layout, warnings: warnings, drawn: drawn, written: false)
    }
    // Stage both files before replacing either, so that a failing --layout-json leaves the old map alone.
    let map = try OutputFile.stage(result.data, to: targets[0])
    if layoutPath != nil {
      let layout: OutputFile
      do {
        var written = result.layout
        written.renderer = RendererInfo.current(fontFamily: request.style.fontFamily)
        layout = try OutputFile.stage(Array(written.json.utf8), to: targets[1])
      } catch {
        map.discard()
        throw error
      }
      try map.commit()
      try layout.commit()
    } else {
      try map.commit()
    }
    return MadeMap(layout: result.layout, warnings: warnings, drawn: drawn, written: true)
  }

  /// A failed render in the command line's words: the exit code, and the options that would change it.
  static func cliError(_ error: RenderError) -> CLIError {
    switch error {
    case .invalidSize(let reason), .invalidValue(let reason): return .usage(reason)
    case .nothingToShow:
      return .usage(
        "nothing to show: no places to draw (none given, stored or matching the filters) and no --user or"
          + " --center")
    case .incompleteBasemap(let missing, let needed, let source):
      return .incomplete(
        "\(missing) of \(needed) tiles are missing from \(source); nothing was written (--offline)")
    case .unusableTiles: return .incomplete(error.description)
    case .tileSource(let reason): return .badInput(reason)
    case .noMapStyle: return .badInput(error.description + " (give one with --map-style)")
    case .tileDownload(let error): return TileServerAccess.map(error, cacheChooser: "XDG_CACHE_HOME")
    case .drawing(let reason): return .failure(reason)
    case .cancelled: return .interrupted("stopped; nothing was written")
    }
  }

  /// The files a render reads, which its outputs must not replace.
  private static func inputs(_ arguments: ParsedArguments) -> [ProtectedInput] {
    var inputs: [ProtectedInput] = []
    if let locations = arguments.string("locations") {
      if locations != "-" { inputs.append(ProtectedInput(path: locations, role: "the places file")) }
    } else {
      inputs.append(ProtectedInput(path: StoreAccess.path(arguments), role: "the places store"))
    }
    if let tiles = arguments.string("tiles"), !TileServerAccess.isTemplate(tiles),
      tiles != BuiltinBasemap.none
    {
      inputs.append(ProtectedInput(path: tiles, role: "the tile source"))
    }
    inputs.append(ProtectedInput(path: arguments.string("style")!, role: "the style file"))
    return inputs
  }

  /// Reads every option first (so a bad value is a usage error whatever else is wrong), then the style,
  /// the tile source and the places. `warnings` are shown with the render's own, once the map is made.
  private static func makeRequest(
    _ arguments: ParsedArguments, out: String, resources: RenderResources, progress: ProgressLine?,
    warnings: inout [String], fileWarnings: inout [String]
  ) throws(CLIError) -> RenderRequest {
    var request = RenderRequest(annotations: [])
    let user: UserPosition?
    do {
      user = try arguments.value("user", as: ValueParsers.userPosition)
      request.size = try arguments.value("size", as: ValueParsers.size)!
      request.scale = try arguments.value("scale", as: ValueParsers.scale)!
      request.format = try outputFormat(arguments, out: out)
      request.center = try arguments.value("center", as: ValueParsers.coordinate)
      request.zoom = try arguments.value("zoom", as: ValueParsers.zoom)
      request.spanMeters = try arguments.value("span-meters", as: ValueParsers.positiveNumber)
      request.padding = try arguments.value("padding", as: ValueParsers.nonNegativeNumber)!
      request.showCallouts = try arguments.value("callouts", as: ValueParsers.callouts)!
      try MapDecorationOptions.apply(arguments, to: &request)
      request.clustering = try arguments.value("cluster", as: ValueParsers.clustering)!
    } catch {
      throw .usage("\(error)")
    }
    let filter = try FilterOptions.filter(arguments)
    // Whole zooms for raster tiles unless asked; vector basemaps are crisp at any zoom.
    request.zoomSnapping = arguments.flag("fractional-zoom") ? .fractional : nil
    request.requireAllTiles = arguments.flag("offline")
    request.style = try resources.style(arguments.string("style")!)
    request.tileCache = resources.tileCache
    request.vectorTileCache = resources.vectorTileCache
    var tilesOption = arguments.string("tiles")
    // A map style may name its own local tiles (pmtiles://, mbtiles://), used when --tiles names none.
    var mapStyle: (style: MapStyle, path: String)?
    if arguments.isGiven("map-style") {
      mapStyle = try MapStyleResolver.resolve(arguments, style: request.style)
      if tilesOption == nil, let mapStyle {
        tilesOption = MapStyleResolver.localTiles(of: mapStyle.style, stylePath: mapStyle.path)
      }
    }
    if let tiles = tilesOption ?? request.style.basemap.tiles, TileServerAccess.isTemplate(tiles) {
      request.tiles = try remoteSource(
        tiles, arguments: arguments, scale: request.scale, style: request.style, progress: progress,
        warnings: &warnings)
    } else if (tilesOption ?? request.style.basemap.tiles) == BuiltinBasemap.none {
      // No basemap, only when asked: the style's plain background.
    } else if let tiles = tilesOption ?? request.style.basemap.tiles, tiles != BuiltinBasemap.name {
      let source = try resources.tileSource(at: tiles)
      request.tiles = source
      creditLocalTiles(source, path: tiles, arguments: arguments, request: &request, warnings: &warnings)
    } else {
      request.basemap = try resources.basemap()
    }
    if request.tiles?.content == .vector {
      let resolved: (style: MapStyle, path: String)
      if let mapStyle {
        resolved = mapStyle
      } else {
        resolved = try MapStyleResolver.resolve(arguments, style: request.style)
      }
      request.mapStyle = resolved.style
      warnings += resolved.style.warnings.map { "\(resolved.path): \($0)" }
    }
    let (places, stored) = try loadPlaces(
      arguments, filter: filter, within: request.fixedViewBox(), resources: resources,
      warnings: &fileWarnings)
    request.annotations = arguments.isGiven("locations") ? byDate(places.locations) : places.locations
    request.places = stored
    // Dates and coordinates in date order, for the route and the title's dates: the store's or the file's
    // without texts. Sorting a million stored places costs, so only when a route or a title asks for them.
    let wantsDates =
      arguments.flag("route") || arguments.isGiven("title") || arguments.isGiven("subtitle")
    let dated =
      !wantsDates
      ? []
      : stored?.datedInOrder()
        ?? request.annotations.compactMap { place in
          (place as? Location)?.date.map { (date: $0, coordinate: place.coordinate) }
        }
    request.title = MapDecorationOptions.title(
      arguments, dates: dated.map(\.date), count: stored?.count ?? request.annotations.count)
    request.user = user ?? places.user
    request.tracks = TrackDrawing.lines(
      routeThrough: dated.map(\.coordinate), tracks: places.tracks, route: arguments.flag("route"))
    // A cron job's empty month is a map not made (exit 4), unless a region was given to draw anyway.
    let placeCount = stored?.count ?? request.annotations.count
    if placeCount == 0 && request.tracks.isEmpty && request.user == nil && request.center == nil {
      throw .incomplete(
        "nothing to draw: \(FilterOptions.emptySelection(filter)); give --center (and --span-meters) to draw"
          + " the region anyway")
    }
    return request
  }

  /// The credit of local tiles: --attribution, else the style's, else what the source's metadata says, else
  /// the known credit of the server a folder is named after; a map left without one is said so, since
  /// most tile providers require a credit on every map.
  private static func creditLocalTiles(
    _ source: any TileSource, path: String, arguments: ParsedArguments, request: inout RenderRequest,
    warnings: inout [String]
  ) {
    if let given = arguments.string("attribution") {
      request.style.basemap.attribution = given
    } else if request.style.basemap.attribution == nil && source.attribution == nil {
      if let known = KnownTileCredits.credit(forFolderAt: path) {
        request.style.basemap.attribution = known
      } else {
        warnings.append(
          "\(path) names no credit for its tiles (no attribution in its metadata), so the map carries none:"
            + " give one with --attribution TEXT")
      }
    }
  }

  /// Tiles from a tile server through the tile cache: fetched as the map needs them; with --offline only
  /// read from the cache, which may then be read-only.
  private static func remoteSource(
    _ text: String, arguments: ParsedArguments, scale: Double, style: Style, progress: ProgressLine?,
    warnings: inout [String]
  ) throws(CLIError) -> any TileSource {
    let template = try TileServerAccess.template(text)
    let maximumTiles = try TileServerAccess.maximumTiles(arguments)
    let retina = scale >= 2 && template.hasRetinaPlaceholder
    // --attribution, else the style's, else the known credit of the server, else the one the cache keeps
    // from an earlier 'tiles fetch --attribution'.
    let given =
      arguments.string("attribution") ?? style.basemap.attribution ?? knownAttribution(for: template)
    let path = TileServerAccess.defaultCache(for: template, retina: retina)
    if arguments.flag("offline") {
      guard FileManager.default.fileExists(atPath: path) else {
        throw .incomplete(
          "no tiles of \(template.redacted) are cached yet (\(path)); render once without --offline or run"
            + " 'mymap tiles fetch' first; nothing was written")
      }
      let cached: CachedServerTiles
      do {
        cached = try CachedServerTiles(path: path, template: template, attribution: given, retina: retina)
      } catch {
        throw .badInput("\(error)")
      }
      if cached.attribution == nil { warnings.append(TileServerAccess.noAttributionWarning(template)) }
      return cached
    }
    let cache: any TileCacheStore
    do {
      cache = try openTileCache(
        at: path,
        for: TileCacheDescription(
          source: template.redacted, attribution: given, tileSize: template.tileSize(retina: retina)))
    } catch TileCacheError.notWritable(let cachePath, let reason) {
      // render has no --to: the way out is the permissions, another cache home, or reading it as it is.
      throw .badInput(
        "cannot write to tile cache \(cachePath) (\(reason)); check its permissions or XDG_CACHE_HOME, or"
          + " render from it as it is with --offline")
    } catch {
      throw .badInput("\(error)")
    }
    let attribution = given ?? (try? cache.tileSource())?.attribution
    if attribution == nil { warnings.append(TileServerAccess.noAttributionWarning(template)) }
    var settings = RemoteTileSource.Settings(maximumTiles: maximumTiles)
    if let progress { settings.progress = { progress.update($0) } }
    return RemoteTileSource(
      template: template, cache: cache, fetcher: TileServerAccess.fetcher(arguments),
      attribution: attribution, retina: retina, settings: settings)
  }

  /// Runs the render; while tiles are fetched, Ctrl-C stops the download cleanly (when `interruptible`).
  private static func render(
    _ request: RenderRequest, quiet: Bool, progress: ProgressLine?, interruptible: Bool
  ) throws(RenderError) -> RenderResult {
    guard interruptible, let remote = request.tiles as? RemoteTileSource else {
      return try Snapshotter.render(request)
    }
    let interrupts = Interrupts.forward(to: remote.cancellation, quiet: quiet, progress: progress)
    defer { Interrupts.restore(interrupts) }
    return try Snapshotter.render(request)
  }

  /// The places of `--locations`, else of the store, filtered, read coordinates first where they can be
  /// (`FilePlaces` for a JSON file, by date; `StoredPlaces`, only those in `box`, the view of a given
  /// centre and zoom); others read whole. The file's warnings go to `warnings`.
  private static func loadPlaces(
    _ arguments: ParsedArguments, filter: LocationFilter, within box: GeoBox?, resources: RenderResources,
    warnings: inout [String]
  ) throws(CLIError) -> (LocationSet, (any PlacesInTwoSteps)?) {
    guard let path = arguments.string("locations") else {
      let storePath = StoreAccess.path(arguments)
      let onlyOverlays = arguments.isGiven("user") || arguments.isGiven("center")
      if !FileManager.default.fileExists(atPath: storePath) && onlyOverlays { return (LocationSet(), nil) }
      let store = try resources.store(at: storePath) { () throws(CLIError) in
        try StoreAccess.open(arguments, create: false, access: .readOnly)
      }
      do {
        return (
          LocationSet(locations: [], tracks: try store.tracks(filter)), try store.places(filter, within: box)
        )
      } catch {
        throw StoreAccess.map(error)
      }
    }
    var places: LocationSet
    var inTwoSteps: FilePlaces?
    do {
      if let (set, filePlaces) = try LocationsFile.readInTwoSteps(path: path, including: filter.includes) {
        (places, inTwoSteps) = (set, filePlaces)
      } else {
        places = try LocationsFile.read(path: path)
        places.locations = places.locations.filter(filter.includes)
      }
    } catch {
      throw .badInput(error.description)
    }
    warnings += places.warnings
    places.tracks = places.tracks.filter(filter.includes)
    return (places, inTwoSteps)
  }

  /// A file's places by date, undated ones last, so that numbers count a trip in order as they do for the
  /// store (which reads them by date); places of the same date keep the file's order.
  private static func byDate(_ locations: [Location]) -> [Location] {
    locations.enumerated().sorted { a, b in
      let first = a.element.date ?? .distantFuture
      let second = b.element.date ?? .distantFuture
      return first != second ? first < second : a.offset < b.offset
    }.map(\.element)
  }

  private static func outputFormat(_ arguments: ParsedArguments, out: String) throws -> OutputFormat {
    if let format = try arguments.value("format", as: ValueParsers.format) { return format }
    if out == "-" { return .png }
    let pathExtension = URL(fileURLWithPath: out).pathExtension
    guard let format = OutputFormat(pathExtension: pathExtension) else {
      throw ArgumentError.invalidValue(
        option: "--out", value: out,
        reason: "cannot tell the format from the name; end it in .png, .svg or .pdf or give --format")
    }
    return format
  }
}
