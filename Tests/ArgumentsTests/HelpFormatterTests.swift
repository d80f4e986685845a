import Arguments
import XCTest

final class HelpFormatterTests: XCTestCase {
  func testRenderHelpGolden() {
    let expected = """
      OVERVIEW: Render saved places into a map image.

      Places come from the default store unless --locations names a file. The map is
      fitted to the places (and the user position, if given) unless --center and
      --zoom fix the camera.

      Examples:
        mymap render --out - --size 400x300 > map.png
        mymap render --category Bar --category Park

      USAGE: mymap render [--out PATH] [--size WxH] [--category NAME]...
                          [--user LAT,LON[,ACCURACY_M]] [--center LAT,LON] [--zoom Z]
                          [--tiles DIR|FILE.mbtiles|URL-TEMPLATE|builtin]
                          [--fractional-zoom] [--quiet]

      OPTIONS:
        -o, --out PATH     Where to write the image; '-' writes to standard output.
                           (default: map.png)
        --size WxH         Image size in points. (default: 800x600)
        --category NAME    Only draw places in this category.
        --user LAT,LON[,ACCURACY_M]
                           Draw the user's position.
        --center LAT,LON   Center the map here.
        --zoom Z           Zoom level.
        --tiles DIR|FILE.mbtiles|URL-TEMPLATE|builtin
                           Where basemap tiles come from; overrides the tile source
                           named by the style.
        --fractional-zoom  Allow zoom levels between whole numbers.
        -q, --quiet        Print nothing but errors.
        -h, --help         Show help for this command.
      """
    XCTAssertEqual(Fixtures.tool.help(for: Fixtures.render), expected)
  }

  func testArgumentsAndOptionsShareOneColumn() {
    let expected = """
      OVERVIEW: Compare two images.

      USAGE: mymap diff A B [DIFF] [--tolerance N]

      ARGUMENTS:
        A                  The expected image.
        B                  The actual image.
        DIFF               Where to write the difference image.

      OPTIONS:
        -t, --tolerance N  Per-pixel colour tolerance.
        -h, --help         Show help for this command.
      """
    XCTAssertEqual(Fixtures.tool.help(for: Fixtures.diff), expected)
  }

  func testPositionalForms() {
    let formatter = HelpFormatter()
    XCTAssertEqual(
      formatter.usage(for: Fixtures.importCommand, toolName: "mymap"), "USAGE: mymap import FILE [--dry-run]")
    XCTAssertEqual(formatter.usage(for: Fixtures.delete, toolName: "mymap"), "USAGE: mymap delete ID...")
    XCTAssertEqual(formatter.usage(for: Fixtures.list, toolName: "mymap"), "USAGE: mymap list [CATEGORY...]")
    XCTAssertEqual(
      formatter.usage(for: Fixtures.tilesFetch, toolName: "mymap"),
      "USAGE: mymap tiles fetch [--zoom MIN-MAX]")
  }

  func testCommandWithoutArgumentsOrOptions() {
    let expected = """
      OVERVIEW: Show what the tile cache holds.

      USAGE: mymap tiles info

      OPTIONS:
        -h, --help  Show help for this command.
      """
    XCTAssertEqual(Fixtures.tool.help(for: Fixtures.tilesInfo), expected)
  }

  func testOverviewGolden() {
    let expected = """
      OVERVIEW: Render saved places into map images.

      USAGE: mymap COMMAND [OPTIONS]

      COMMANDS:
        render       Render saved places into a map image.
        import       Import places from a file into the store.
        delete       Delete places from the store.
        diff         Compare two images.
        list         List saved places.
        tiles fetch  Download the tiles covering an area into the cache.
        tiles info   Show what the tile cache holds.
        tiles prune  Remove old tiles from the cache.

        Run 'mymap COMMAND --help' for a command's arguments and options.
      """
    XCTAssertEqual(Fixtures.tool.overview(), expected)
  }

  func testGroupOverviewGolden() {
    let expected = """
      USAGE: mymap tiles COMMAND [OPTIONS]

      COMMANDS:
        fetch  Download the tiles covering an area into the cache.
        info   Show what the tile cache holds.
        prune  Remove old tiles from the cache.

        Run 'mymap tiles COMMAND --help' for a command's arguments and options.
      """
    XCTAssertEqual(Fixtures.tool.overview(group: ["tiles"]), expected)
  }

  func testNarrowWidthWrapsUnderTheHelpColumn() {
    let expected = """
      OVERVIEW: Import places from a file into
                the store.

      USAGE: mymap import FILE [--dry-run]

      ARGUMENTS:
        FILE        A JSON, GeoJSON, GPX or
                    CSV file; '-' reads
                    standard input.

      OPTIONS:
        --dry-run   Show what would be
                    imported without changing
                    the store.
        -h, --help  Show help for this
                    command.
      """
    XCTAssertEqual(Fixtures.tool.help(for: Fixtures.importCommand, width: 40), expected)
  }

  func testLongUsageLeadFallsBackToASmallIndent() {
    let command = CommandSpec(
      "a-rather-long-command-name", abstract: "",
      options: [.flag("first", help: ""), .flag("second", help: ""), .flag("third", help: "")])
    let expected = """
      USAGE: some-tool a-rather-long-command-name
          [--first] [--second] [--third]
      """
    XCTAssertEqual(HelpFormatter(width: 40).usage(for: command, toolName: "some-tool"), expected)
  }

  func testAWordLongerThanTheLineGetsALineOfItsOwn() {
    let command = CommandSpec(
      "fetch", abstract: "Get https://tiles.example.org/{z}/{x}/{y}.png now.",
      options: [.value("url", valueName: "U", help: "")])
    let expected = """
      OVERVIEW: Get
                https://tiles.example.org/{z}/{x}/{y}.png
                now.

      USAGE: t fetch [--url U]

      OPTIONS:
        --url U
        -h, --help  Show help for
                    this command.
      """
    XCTAssertEqual(HelpFormatter(width: 30).help(for: command, toolName: "t"), expected)
  }

  func testNoLineIsWiderThan80ColumnsUnlessItIsOneWord() {
    for command in Fixtures.tool.commands {
      for line in Fixtures.tool.help(for: command).split(separator: "\n") where line.count > 80 {
        XCTAssertFalse(line.trimmingPrefix(while: { $0 == " " }).contains(" "), "too wide: \(line)")
      }
    }
  }

  func testHelpIsDeterministicAndHasNoTrailingSpaces() {
    let first = Fixtures.tool.help(for: Fixtures.render)
    XCTAssertEqual(first, Fixtures.tool.help(for: Fixtures.render))
    for line in (first + "\n" + Fixtures.tool.overview()).split(separator: "\n") {
      XCTAssertFalse(line.hasSuffix(" "), "trailing space: '\(line)'")
    }
    XCTAssertFalse(first.hasSuffix("\n"))
  }
}
