import Arguments

/// Commands shaped like mymap's, shared by the tests.
enum Fixtures {
  static let render = CommandSpec(
    "render",
    abstract: "Render saved places into a map image.",
    discussion: """
      Places come from the default store unless --locations names a file. The map is fitted to the \
      places (and the user position, if given) unless --center and --zoom fix the camera.

      Examples:
        mymap render --out - --size 400x300 > map.png
        mymap render --category Bar --category Park
      """,
    options: [
      .value(
        "out", short: "o", valueName: "PATH",
        help: "Where to write the image; '-' writes to standard output.",
        default: "map.png"),
      .value("size", valueName: "WxH", help: "Image size in points.", default: "800x600"),
      .value("category", valueName: "NAME", help: "Only draw places in this category.", repeatable: true),
      .value("user", valueName: "LAT,LON[,ACCURACY_M]", help: "Draw the user's position."),
      .value("center", valueName: "LAT,LON", help: "Center the map here."),
      .value("zoom", valueName: "Z", help: "Zoom level."),
      .value(
        "tiles", valueName: "DIR|FILE.mbtiles|URL-TEMPLATE|builtin",
        help: "Where basemap tiles come from; overrides the tile source named by the style."),
      .flag("fractional-zoom", help: "Allow zoom levels between whole numbers."),
      .flag("quiet", short: "q", help: "Print nothing but errors."),
    ])

  static let importCommand = CommandSpec(
    "import",
    abstract: "Import places from a file into the store.",
    arguments: [.required("FILE", help: "A JSON, GeoJSON, GPX or CSV file; '-' reads standard input.")],
    options: [.flag("dry-run", help: "Show what would be imported without changing the store.")])

  static let delete = CommandSpec(
    "delete",
    abstract: "Delete places from the store.",
    arguments: [.variadic("ID", help: "The identifiers of the places to delete.")])

  static let diff = CommandSpec(
    "diff",
    abstract: "Compare two images.",
    arguments: [
      .required("A", help: "The expected image."),
      .required("B", help: "The actual image."),
      .optional("DIFF", help: "Where to write the difference image."),
    ],
    options: [.value("tolerance", short: "t", valueName: "N", help: "Per-pixel colour tolerance.")])

  static let list = CommandSpec(
    "list", abstract: "List saved places.",
    arguments: [.variadic("CATEGORY", help: "Only places in these categories.", atLeastOne: false)])

  static let tilesFetch = CommandSpec(
    "tiles fetch",
    abstract: "Download the tiles covering an area into the cache.",
    options: [.value("zoom", short: "z", valueName: "MIN-MAX", help: "The zoom levels to fetch.")])

  static let tilesInfo = CommandSpec("tiles info", abstract: "Show what the tile cache holds.")
  static let tilesPrune = CommandSpec("tiles prune", abstract: "Remove old tiles from the cache.")

  static let tool = ToolSpec(
    name: "mymap", abstract: "Render saved places into map images.",
    commands: [render, importCommand, delete, diff, list, tilesFetch, tilesInfo, tilesPrune])

  /// Parses and expects arguments, not a help request.
  static func parse(_ command: CommandSpec, _ argv: [String]) throws -> ParsedArguments {
    guard case .arguments(let parsed) = try command.parse(argv) else {
      throw InvalidValue("expected arguments, got a help request")
    }
    return parsed
  }

  /// The error parsing throws, or `nil` if parsing succeeds.
  static func error(_ command: CommandSpec, _ argv: [String]) -> ArgumentError? {
    do {
      _ = try command.parse(argv)
      return nil
    } catch {
      return error
    }
  }
}
