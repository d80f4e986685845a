import Arguments
import XCTest

final class ParserTests: XCTestCase {
  func testLongOptionWithSeparateValue() throws {
    let parsed = try Fixtures.parse(Fixtures.render, ["--out", "city.png", "--size", "400x300"])
    XCTAssertEqual(parsed.string("out"), "city.png")
    XCTAssertEqual(parsed.string("size"), "400x300")
  }

  func testLongOptionWithEqualsValue() throws {
    let parsed = try Fixtures.parse(Fixtures.render, ["--out=city.png", "--user=48.85,2.35", "--center="])
    XCTAssertEqual(parsed.string("out"), "city.png")
    XCTAssertEqual(parsed.string("user"), "48.85,2.35")
    XCTAssertEqual(parsed.string("center"), "", "an empty value after '=' is a value")
  }

  func testEqualsValueKeepsLaterEqualsSignsAndLeadingDashes() throws {
    let parsed = try Fixtures.parse(Fixtures.render, ["--tiles=https://t.example/?k=v", "--out=--odd"])
    XCTAssertEqual(parsed.string("tiles"), "https://t.example/?k=v")
    XCTAssertEqual(parsed.string("out"), "--odd")
  }

  func testShortAliasTakesTheNextValue() throws {
    let parsed = try Fixtures.parse(Fixtures.render, ["-o", "city.png", "-q"])
    XCTAssertEqual(parsed.string("out"), "city.png")
    XCTAssertTrue(parsed.flag("quiet"))
  }

  func testShortAliasWithEqualsValue() throws {
    let parsed = try Fixtures.parse(Fixtures.render, ["-o=city.png"])
    XCTAssertEqual(parsed.string("out"), "city.png")
    XCTAssertEqual(try Fixtures.parse(Fixtures.tilesFetch, ["-z=-1"]).string("zoom"), "-1")
  }

  func testFlagsAreFalseUnlessGiven() throws {
    let parsed = try Fixtures.parse(Fixtures.render, ["--fractional-zoom"])
    XCTAssertTrue(parsed.flag("fractional-zoom"))
    XCTAssertFalse(parsed.flag("quiet"))
  }

  func testRepeatableOptionKeepsEveryValueInOrder() throws {
    let parsed = try Fixtures.parse(
      Fixtures.render, ["--category", "Bar", "--category=Park", "--category", "Bar"])
    XCTAssertEqual(parsed.strings("category"), ["Bar", "Park", "Bar"])
    XCTAssertEqual(parsed.string("category"), "Bar", "string() gives the last value")
  }

  func testTheBriefsRenderExample() throws {
    let argv = [
      "--out", "map.png", "--size", "800x600", "--category", "Bar", "--category", "Park",
      "--fractional-zoom", "--user", "48.85,2.35",
    ]
    let parsed = try Fixtures.parse(Fixtures.render, argv)
    XCTAssertEqual(parsed.string("out"), "map.png")
    XCTAssertEqual(parsed.strings("category"), ["Bar", "Park"])
    XCTAssertTrue(parsed.flag("fractional-zoom"))
    XCTAssertEqual(parsed.string("user"), "48.85,2.35")
    XCTAssertEqual(parsed.positionals, [])
  }

  func testLoneDashIsAValue() throws {
    XCTAssertEqual(try Fixtures.parse(Fixtures.render, ["--out", "-"]).string("out"), "-")
    XCTAssertEqual(try Fixtures.parse(Fixtures.render, ["-o", "-"]).string("out"), "-")
    XCTAssertEqual(try Fixtures.parse(Fixtures.importCommand, ["-"]).positional("FILE"), "-")
  }

  func testNegativeNumbersAreValuesNotOptions() throws {
    let parsed = try Fixtures.parse(Fixtures.render, ["--center", "-33.9,151.2", "--zoom", "-1"])
    XCTAssertEqual(parsed.string("center"), "-33.9,151.2")
    XCTAssertEqual(parsed.string("zoom"), "-1")
    XCTAssertEqual(try Fixtures.parse(Fixtures.render, ["--zoom", "-.5"]).string("zoom"), "-.5")
    XCTAssertEqual(try Fixtures.parse(Fixtures.tilesFetch, ["-z", "-2"]).string("zoom"), "-2")
  }

  func testNegativeNumbersArePositionals() throws {
    let parsed = try Fixtures.parse(Fixtures.diff, ["-1", "-2.5"])
    XCTAssertEqual(parsed.positionals, ["-1", "-2.5"])
  }

  func testRangeValue() throws {
    XCTAssertEqual(try Fixtures.parse(Fixtures.tilesFetch, ["--zoom", "3-6"]).string("zoom"), "3-6")
  }

  func testDoubleDashEndsOptions() throws {
    let parsed = try Fixtures.parse(Fixtures.delete, ["a", "--", "--quiet", "-x", "--", "-h"])
    XCTAssertEqual(parsed.positionals("ID"), ["a", "--quiet", "-x", "--", "-h"])
  }

  func testOptionsAndPositionalsMayInterleave() throws {
    let parsed = try Fixtures.parse(Fixtures.diff, ["-t", "3", "a.png", "--", "b.png"])
    XCTAssertEqual(parsed.string("tolerance"), "3")
    XCTAssertEqual(parsed.positional("A"), "a.png")
    XCTAssertEqual(parsed.positional("B"), "b.png")
    XCTAssertNil(parsed.positional("DIFF"))
  }

  func testRequiredOptionalAndVariadicPositionals() throws {
    let full = try Fixtures.parse(Fixtures.diff, ["a.png", "b.png", "d.png"])
    XCTAssertEqual(full.positional("DIFF"), "d.png")
    XCTAssertEqual(full.positionals, ["a.png", "b.png", "d.png"])
    let ids = try Fixtures.parse(Fixtures.delete, ["p1", "p2", "p3"])
    XCTAssertEqual(ids.positionals("ID"), ["p1", "p2", "p3"])
    XCTAssertEqual(ids.positional("ID"), "p1")
    let none = try Fixtures.parse(Fixtures.list, [])
    XCTAssertEqual(none.positionals("CATEGORY"), [])
    XCTAssertNil(none.positional("CATEGORY"))
  }

  func testImportFileWithDryRun() throws {
    let parsed = try Fixtures.parse(Fixtures.importCommand, ["places.gpx", "--dry-run"])
    XCTAssertEqual(parsed.positional("FILE"), "places.gpx")
    XCTAssertTrue(parsed.flag("dry-run"))
  }

  func testHelpIsRequestedByLongOrShortForm() throws {
    XCTAssertEqual(try Fixtures.render.parse(["--help"]), .helpRequested)
    XCTAssertEqual(try Fixtures.render.parse(["--out", "x.png", "-h"]), .helpRequested)
    XCTAssertEqual(try Fixtures.importCommand.parse(["-h"]), .helpRequested, "even without FILE")
  }

  func testHelpWinsOverOtherErrors() throws {
    XCTAssertEqual(try Fixtures.render.parse(["--bogus", "extra", "--help"]), .helpRequested)
  }

  func testHelpAfterDoubleDashIsAPositional() throws {
    let parsed = try Fixtures.parse(Fixtures.delete, ["--", "--help"])
    XCTAssertEqual(parsed.positionals("ID"), ["--help"])
  }

  func testNoArgumentsGivesDefaults() throws {
    let parsed = try Fixtures.parse(Fixtures.render, [])
    XCTAssertEqual(parsed.string("out"), "map.png")
    XCTAssertEqual(parsed.strings("size"), ["800x600"])
    XCTAssertNil(parsed.string("zoom"))
    XCTAssertEqual(parsed.strings("category"), [])
    XCTAssertFalse(parsed.isGiven("out"))
  }

  func testParsedArgumentsKnowTheirCommand() throws {
    XCTAssertEqual(try Fixtures.parse(Fixtures.tilesFetch, []).command.name, "tiles fetch")
  }

  func testARequiredOptionMustBeGivenAndShowsWithoutBrackets() throws {
    let fetch = CommandSpec(
      "tiles fetch", abstract: "Fetch tiles.",
      options: [
        .value("url", valueName: "TEMPLATE", help: "The server.", required: true),
        .value("to", valueName: "DIR", help: "The cache."),
      ])
    XCTAssertThrowsError(try Fixtures.parse(fetch, ["--to", "cache"])) { error in
      XCTAssertEqual(error as? ArgumentError, .missingOption(option: "--url", valueName: "TEMPLATE"))
      XCTAssertEqual("\(error)", "missing --url TEMPLATE")
    }
    XCTAssertEqual(try Fixtures.parse(fetch, ["--url", "https://t/{z}/{x}/{y}.png"]).string("to"), nil)
    // --help works without the required option.
    XCTAssertEqual(try fetch.parse(["--help"]), .helpRequested)
    XCTAssertEqual(
      HelpFormatter(width: 80).usage(for: fetch, toolName: "mymap"),
      "USAGE: mymap tiles fetch --url TEMPLATE [--to DIR]")
  }
}
