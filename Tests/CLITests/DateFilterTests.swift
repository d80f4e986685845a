import Foundation
import XCTest

/// The date filters as a cron job uses them: days in the user's time zone (`TZ`), `--month` and `--year`,
/// an inclusive `--until`, and an empty selection that makes no map unless a region is given.
final class DateFilterTests: XCTestCase {
  /// Two places an hour apart around midnight in Auckland (UTC+13 in November): one on the last evening
  /// of November there, one in the first hour of December; in UTC both are on November 30.
  private func sandboxWithMidnightPlaces() throws -> (Sandbox, november: String, december: String) {
    let sandbox = try Sandbox()
    let november = try sandbox.add([
      "--here", "-36.85,174.76", "-d", "Late", "--date", "2026-11-30T10:00:00Z",
    ])
    let december = try sandbox.add([
      "--here", "-36.86,174.77", "-d", "Early", "--date", "2026-11-30T12:00:00Z",
    ])
    return (sandbox, november, december)
  }

  private func listed(_ sandbox: Sandbox, _ arguments: [String], timeZone: String) throws -> [String] {
    let result = try sandbox.run(["list", "--json"] + arguments, environment: ["TZ": timeZone])
    assertSucceeded(result)
    return try places(inJSON: result.stdout).compactMap { $0["id"] as? String }
  }

  func testDaysMonthsAndYearsAreThoseOfTheUsersTimeZone() throws {
    let (sandbox, november, december) = try sandboxWithMidnightPlaces()
    let auckland = "Pacific/Auckland"
    XCTAssertEqual(try listed(sandbox, ["--month", "2026-11"], timeZone: auckland), [november])
    XCTAssertEqual(try listed(sandbox, ["--month", "2026-12"], timeZone: auckland), [december])
    XCTAssertEqual(try listed(sandbox, ["--month", "2026-11"], timeZone: "UTC"), [november, december])
    XCTAssertEqual(
      try listed(sandbox, ["--until", "2026-11-30"], timeZone: auckland), [november], "inclusive")
    XCTAssertEqual(try listed(sandbox, ["--since", "2026-12-01"], timeZone: auckland), [december])
    XCTAssertEqual(try listed(sandbox, ["--since", "2026-12-01T00:30"], timeZone: auckland), [december])
    XCTAssertEqual(try listed(sandbox, ["--since", "2026-11-30T11:00:00Z"], timeZone: auckland), [december])
    XCTAssertEqual(try listed(sandbox, ["--year", "2026"], timeZone: auckland), [november, december])
    XCTAssertEqual(try listed(sandbox, ["--year", "2027"], timeZone: auckland), [])
    // Render takes the same filters.
    let result = try sandbox.run(
      ["render", "--out", "map.png", "--size", "200x150", "--layout-json", "-", "--month", "2026-12"],
      environment: ["TZ": auckland])
    assertSucceeded(result)
    XCTAssertEqual(try Layout(result.stdout).ids, [december])
  }

  func testAnEmptyMonthMakesNoMapUnlessARegionIsGiven() throws {
    let (sandbox, _, _) = try sandboxWithMidnightPlaces()
    let empty = try sandbox.run(
      ["render", "--out", "october.png", "--month", "2026-10"], environment: ["TZ": "Pacific/Auckland"])
    assertFailed(
      empty, status: 4,
      message:
        "nothing to draw: no places between Oct 1, 2026 and Oct 31, 2026; give --center (and --span-meters) to"
        + " draw the region anyway")
    XCTAssertFalse(try sandbox.files().contains("october.png"))

    let category = try sandbox.run([
      "render", "--out", "bars.png", "--category", "Bar", "--since", "2026-11-01",
    ])
    assertFailed(
      category, status: 4,
      message:
        "nothing to draw: no places in \"Bar\" since Nov 1, 2026; give --center (and --span-meters) to draw the"
        + " region anyway")

    let region = try sandbox.run([
      "render", "--out", "october.png", "--size", "200x150", "--month", "2026-10", "--center",
      "-36.85,174.76",
      "--span-meters", "5000", "--layout-json", "october.json",
    ])
    assertSucceeded(region)
    assertPNG(sandbox.contents(of: "october.png"), width: 200, height: 150)
    XCTAssertEqual(try Layout(try XCTUnwrap(sandbox.contents(of: "october.json"))).ids, [])
  }

  func testBadMonthsYearsAndMixedRangesAreUsageErrors() throws {
    let sandbox = try Sandbox()
    assertFailed(
      try sandbox.run(["list", "--month", "2026-13"]), status: 2,
      message: "invalid value '2026-13' for --month: expected a month like 2026-11")
    assertFailed(
      try sandbox.run(["list", "--year", "26"]), status: 2,
      message: "invalid value '26' for --year: expected a year like 2026")
    assertFailed(
      try sandbox.run(["render", "--since", "2026-01-01", "--month", "2026-11"]), status: 2,
      message: "--since and --month cannot be used together: --month and --year each give the whole range")
    assertFailed(
      try sandbox.run(["export", "--format", "json", "--month", "2026-11", "--year", "2026"]), status: 2,
      message: "--month and --year cannot be used together: --month and --year each give the whole range")
  }
}
