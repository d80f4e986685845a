import Arguments

/// The examples that end each command's `--help` and its part of the manual page, by command name.
/// Commands that declare their own (`help`, `completions`) are not here.
enum CommandExamples {
  typealias Example = CommandSpec.Example

  static let byCommand: [String: [Example]] = [
    "render": [
      Example("The saved places on the built-in basemap:", "mymap render --out map.png"),
      Example(
        "A file's places, dark, twice the pixels, with where everything was drawn:",
        "mymap render --locations trip.json --style dark --scale 2 --out trip.png --layout-json trip.layout.json"
      ),
      Example(
        "Street map tiles from a server, cached for later offline renders:",
        "mymap render --tiles 'https://tile.openstreetmap.org/{z}/{x}/{y}.png' --contact you@example.org"),
      Example("No basemap at all, only the style's background:", "mymap render --tiles none --out plain.png"),
      Example(
        "A map for each month, from JSON lines like {\"out\": \"2026-11.png\", \"month\": \"2026-11\"}:",
        "mymap render --batch months.jsonl --size 1200x800"),
      Example(
        "Keep a wall display's map up to date as places are added:",
        "mymap render --watch --out /srv/www/map.png"),
    ],
    "add": [
      Example(
        "Save a café with its category:",
        "mymap add --lat 60.1699 --lon 24.9384 --description 'Café Regatta' --category Cafe")
    ],
    "list": [Example("The bars saved this year:", "mymap list --category Bar --since 2026-01-01")],
    "show": [Example("One place as JSON:", "mymap show 3F2A9C1E --json")],
    "edit": [
      Example("Move a place and rename it:", "mymap edit 3F2A9C1E --here 60.17,24.94 --description Home")
    ],
    "delete": [Example("Delete two places:", "mymap delete 3F2A9C1E 7B0D44A2")],
    "categories": [Example("The category names:", "mymap categories")],
    "import": [
      Example(
        "Check a GPX file first, then import it:", "mymap import walk.gpx --dry-run && mymap import walk.gpx"),
      Example("What was imported, for a script:", "mymap import places.csv --json"),
    ],
    "export": [Example("Every place as GeoJSON:", "mymap export --format geojson --out places.geojson")],
    "tiles fetch": [
      Example(
        "Cache the tiles for the saved places at zooms 3 to 12, then render offline:",
        "mymap tiles fetch --url 'https://tile.openstreetmap.org/{z}/{x}/{y}.png' --zoom 3-12"
          + " --contact you@example.org")
    ],
    "tiles info": [Example("What a cache holds, for a script:", "mymap tiles info tiles.mbtiles --json")],
    "tiles prune": [
      Example("See what would go, then prune:", "mymap tiles prune tiles.mbtiles --older-than 30d --dry-run")
    ],
    "diff": [
      Example("Compare a render with its golden:", "mymap diff golden.png map.png --out diff.png"),
      Example("The figures as JSON:", "mymap diff golden.png map.png --json"),
    ],
  ]

  /// `command` with its examples, when this table has some.
  static func adding(to command: CommandSpec) -> CommandSpec {
    guard let examples = byCommand[command.name], command.examples.isEmpty else { return command }
    return command.with(examples: examples)
  }
}
