import Foundation
import XCTest

/// `render --labels/--legend/--title/--subtitle/--scale-bar/--units`: the numbers, the title's placeholders
/// filled in the user's locale and time zone, and clear usage errors.
final class DecorationOptionsTests: XCTestCase {
  private func layout(
    _ extra: [String], size: String = "800x600", environment: [String: String] = [:],
    file: StaticString = #filePath, line: UInt = #line
  ) throws -> Layout {
    let sandbox = try Sandbox()
    let result = try sandbox.run(
      Inputs.renderEurope(["--out", "map.png", "--layout-json", "-", "-q"] + extra, size: size),
      environment: environment, file: file, line: line)
    assertSucceeded(result, file: file, line: line)
    return try Layout(result.stdout, file: file, line: line)
  }

  private func plates(_ layout: Layout) -> [[String: Any]] {
    layout.json["plates"] as? [[String: Any]] ?? []
  }

  func testTitlePlaceholdersAreFilledInTheUsersLocaleAndTimeZone() throws {
    // The trip runs from 2025-06-02T09:30Z to 2025-07-08T11:30Z: in Kiritimati (UTC+14) it ends on 9 July.
    let german = try layout(
      ["--title", "Reise {from} – {to}", "--subtitle", "{count} Orte, {unknown} bleibt"],
      environment: ["TZ": "Pacific/Kiritimati", "LANG": "de_DE.UTF-8"])
    let title = try XCTUnwrap(plates(german).first { $0["kind"] as? String == "title" })
    XCTAssertEqual(title["text"] as? String, "Reise 02.06.2025 – 09.07.2025\n13 Orte, {unknown} bleibt")
    let american = try layout(
      ["--title", "{from} to {to}"], environment: ["TZ": "UTC", "LANG": "en_US.UTF-8"])
    let plain = try XCTUnwrap(plates(american).first { $0["kind"] as? String == "title" })
    XCTAssertEqual(plain["text"] as? String, "Jun 2, 2025 to Jul 8, 2025")
  }

  func testNumbersFollowTheDatesNotTheFileOrder() throws {
    // The example reversed: the numbers still count the trip from its first day.
    let trip = try JSONSerialization.jsonObject(
      with: Data(contentsOf: URL(fileURLWithPath: Inputs.europeTrip)))
    var object = try XCTUnwrap(trip as? [String: Any])
    object["locations"] = Array(try XCTUnwrap(object["locations"] as? [Any]).reversed())
    let sandbox = try Sandbox()
    let path = try sandbox.write(
      try JSONSerialization.data(withJSONObject: object), to: "reversed.json")
    let result = try sandbox.run([
      "render", "--locations", path, "--tiles", Inputs.europeTiles, "--size", "800x600", "--labels",
      "numbers", "--cluster", "never", "--out", "map.png", "--layout-json", "-", "-q",
    ])
    assertSucceeded(result)
    let layout = try Layout(result.stdout)
    let numbers = Dictionary(
      uniqueKeysWithValues: layout.annotations.compactMap { item -> (String, Int)? in
        guard let id = item["id"] as? String, let number = number(item["number"]) else { return nil }
        return (id, Int(number))
      })
    XCTAssertEqual(numbers.count, 13)
    XCTAssertEqual(Inputs.europeIDs.map { numbers[$0] }, Array(1...13).map { Optional($0) })
    let legend = try XCTUnwrap(layout.json["legend"] as? [String: Any])
    let rows = try XCTUnwrap(legend["rows"] as? [[String: Any]])
    XCTAssertEqual(rows.compactMap { $0["id"] as? String }, Inputs.europeIDs)
  }

  func testTheDefaultNumbersWhatDoesNotFitAndDrawsAScaleBar() throws {
    let layout = try layout([], size: "640x480")
    let numbered = layout.annotations.filter { number($0["number"]) != nil }
    XCTAssertFalse(numbered.isEmpty, "640×480 cannot hold thirteen callouts")
    for item in layout.annotations {
      XCTAssertEqual(item["callout"] is NSNull, number(item["number"]) != nil, "\(item["id"] ?? "?")")
    }
    let kinds = plates(layout).compactMap { $0["kind"] as? String }
    XCTAssertTrue(kinds.contains("legend"), "\(kinds)")
    XCTAssertTrue(kinds.contains("scaleBar"), "\(kinds)")
    let scaleBar = try XCTUnwrap(plates(layout).first { $0["kind"] as? String == "scaleBar" })
    XCTAssertTrue((scaleBar["text"] as? String)?.hasSuffix(" km") == true)
    let imperial = try self.layout(
      ["--units", "imperial", "--labels", "callouts", "--legend", "none"], size: "640x480")
    let kindsImperial = plates(imperial).compactMap { $0["kind"] as? String }
    XCTAssertEqual(kindsImperial.sorted(), ["attribution", "scaleBar"])
    let imperialBar = plates(imperial).first { $0["kind"] as? String == "scaleBar" }
    XCTAssertTrue((imperialBar?["text"] as? String)?.hasSuffix(" mi") == true)
    XCTAssertTrue(imperial.json["legend"] is NSNull)
    let bare = try self.layout(["--scale-bar", "none", "--labels", "callouts"], size: "640x480")
    XCTAssertEqual(plates(bare).compactMap { $0["kind"] as? String }, ["attribution"])
  }

  func testBadValuesAreUsageErrors() throws {
    let sandbox = try Sandbox()
    for (option, value, expected) in [
      ("--labels", "pins", "expected callouts, numbers or auto"),
      ("--legend", "maybe", "expected auto or none"),
      ("--scale-bar", "yes", "expected auto or none"), ("--units", "furlongs", "expected metric or imperial"),
    ] {
      let result = try sandbox.run(Inputs.renderEurope([option, value, "--out", "map.png"]))
      XCTAssertEqual(result.status, 2, result.transcript)
      XCTAssertTrue(result.stderr.contains(expected), result.transcript)
      XCTAssertTrue(result.stderr.contains(option), result.transcript)
      XCTAssertNil(sandbox.contents(of: "map.png"), "nothing written")
    }
  }
}
