import Foundation
import XCTest

/// `mymap render` without `--locations` draws the stored places; which store is used; and several `mymap`
/// processes using one store at once.
final class StoreRenderTests: XCTestCase {
  func testRenderDrawsTheStoredPlaces() throws {
    let sandbox = try Sandbox()
    let park = try sandbox.add([
      "--here", "37.7694,-122.4862", "-d", "Golden Gate Park", "-c", "Park", "--date", "2026-07-01",
    ])
    let bar = try sandbox.add(["--here", "37.7599,-122.4148", "-c", "Bar", "--date", "2026-01-01"])
    let store = try sandbox.add([
      "--here", "37.7879,-122.4075", "-d", "Union Square", "-c", "Apple Store", "--date", "2026-08-01",
    ])

    let result = try sandbox.run([
      "render", "--out", "map.png", "--size", "200x150", "--cluster", "never", "--layout-json", "map.json",
    ])
    assertSucceeded(result)
    XCTAssertEqual(result.stdoutText, "")
    assertPNG(sandbox.contents(of: "map.png"), width: 200, height: 150)
    let layout = try Layout(try XCTUnwrap(sandbox.contents(of: "map.json")))
    XCTAssertEqual(layout.ids, [bar, park, store], "oldest first")
    XCTAssertEqual(
      layout.annotations.map { $0["title"] as? String },
      ["(No Description)", "Golden Gate Park", "Union Square"])
    XCTAssertEqual(layout.annotations.map { $0["subtitle"] as? String }, ["Bar", "Park", "Apple Store"])
    XCTAssertEqual(layout.annotations.map { number($0["latitude"]) }, [37.7599, 37.7694, 37.7879])

    // The filters of list apply.
    XCTAssertEqual(try sandbox.renderLayout(["--category", "park"]).ids, [park])
    XCTAssertEqual(try sandbox.renderLayout(["--category", "park", "--category", "BAR"]).ids, [bar, park])
    XCTAssertEqual(try sandbox.renderLayout(["--until", "2026-06-30"]).ids, [bar])
    assertFailed(
      try sandbox.run(["render", "--out", "none.png", "--category", "Club"]), status: 4,
      message:
        "nothing to draw: no places in \"Club\"; give --center (and --span-meters) to draw the region anyway")
    XCTAssertFalse(try sandbox.files().contains("none.png"))
  }

  func testRenderWithoutAStore() throws {
    let sandbox = try Sandbox()
    assertFailed(
      try sandbox.run(["render", "--out", "map.png"]), status: 2,
      message:
        "no places stored yet (\(sandbox.storePath) does not exist); add some with 'mymap add' or 'mymap import'"
    )
    XCTAssertEqual(try sandbox.files(), [])
    XCTAssertFalse(sandbox.storeExists, "render never creates a store")
  }

  /// `--store` beats `MYMAP_HOME`, which beats `XDG_DATA_HOME`, which beats `~/.local/share`.
  func testWhichStoreIsUsed() throws {
    let sandbox = try Sandbox()
    let home = sandbox.home.path
    let inDefault = try sandbox.add(["--here", "1,1", "-d", "default"])
    let inOther = try sandbox.add(["--here", "2,2", "-d", "other", "--store", sandbox.path("other.sqlite")])
    XCTAssertTrue(FileManager.default.fileExists(atPath: sandbox.path("other.sqlite")))

    let elsewhere = sandbox.path("elsewhere")
    let viaEnvironment = try sandbox.run(
      ["add", "--here", "3,3", "-d", "elsewhere"], environment: ["MYMAP_HOME": elsewhere])
    assertSucceeded(viaEnvironment)
    XCTAssertTrue(FileManager.default.fileExists(atPath: elsewhere + "/locations.sqlite"))

    // Without MYMAP_HOME (unset or empty): XDG_DATA_HOME, then HOME.
    let xdg = try sandbox.run(["add", "--here", "4,4", "-d", "xdg"], environment: ["MYMAP_HOME": ""])
    assertSucceeded(xdg)
    XCTAssertTrue(FileManager.default.fileExists(atPath: home + "/data/mymap/locations.sqlite"))
    let plain = try sandbox.run(
      ["add", "--here", "5,5", "-d", "plain"], environment: ["MYMAP_HOME": "", "XDG_DATA_HOME": ""])
    assertSucceeded(plain)
    XCTAssertTrue(FileManager.default.fileExists(atPath: home + "/.local/share/mymap/locations.sqlite"))

    func descriptions(_ arguments: [String], environment: [String: String] = [:]) throws -> [String] {
      let result = try sandbox.run(
        ["render", "--out", "map.png", "--size", "200x150", "--cluster", "never", "--layout-json", "-"]
          + arguments,
        environment: environment)
      assertSucceeded(result)
      return try Layout(result.stdout).annotations.compactMap { $0["title"] as? String }
    }
    XCTAssertEqual(try descriptions([]), ["default"])
    XCTAssertEqual(try descriptions(["--store", sandbox.path("other.sqlite")]), ["other"])
    XCTAssertEqual(try descriptions([], environment: ["MYMAP_HOME": elsewhere]), ["elsewhere"])
    XCTAssertEqual(
      try descriptions(["--store", "other.sqlite"], environment: ["MYMAP_HOME": elsewhere]), ["other"],
      "a relative --store is taken from the working folder")
    XCTAssertEqual(try descriptions([], environment: ["MYMAP_HOME": ""]), ["xdg"])
    XCTAssertEqual(try descriptions([], environment: ["MYMAP_HOME": "", "XDG_DATA_HOME": ""]), ["plain"])
    XCTAssertEqual(try sandbox.listedIDs(), [inDefault])
    let other = try sandbox.run(["list", "--json", "--store", "other.sqlite"])
    XCTAssertEqual(try places(inJSON: other.stdout).map { $0["id"] as? String }, [inOther])
  }

  /// A render of 2,000 places and 20 `add`s, all at once: every process succeeds and every place is kept.
  func testRenderAndAddsAtTheSameTime() throws {
    let sandbox = try Sandbox()
    var csv = "latitude,longitude,description,category,date\n"
    for index in 0..<2000 {
      let latitude = 40 + Double(index) * 0.001
      let longitude = -3 + Double(index) * 0.002
      csv += "\(latitude),\(longitude),Place \(index),Park,2026-01-01T00:00:00Z\n"
    }
    try sandbox.write(csv, to: "many.csv")
    let imported = try sandbox.run(["import", "many.csv"])
    assertSucceeded(imported)
    XCTAssertEqual(imported.stdoutText, "imported 2000 places (0 already in the store)\n")

    let render = try sandbox.start(
      [
        "render", "--out", "map.png", "--size", "300x200", "--callouts", "none", "--cluster", "never",
        "--layout-json", "map.json",
      ])
    let adds = try (0..<20).map { index in
      try sandbox.start(["add", "--here", "41.\(index),-1", "-d", "Added \(index)", "-c", "Bar"])
    }
    let results = adds.map { $0.wait() }
    let rendered = render.wait()

    assertSucceeded(rendered)
    var added: [String] = []
    for result in results {
      XCTAssertEqual(result.status, 0, result.transcript)
      XCTAssertEqual(result.stderr, "", result.transcript)
      let id = String(result.stdoutText.dropLast())
      XCTAssertTrue(isLowercaseUUID(id), result.stdoutText)
      added.append(id)
    }
    XCTAssertEqual(Set(added).count, 20)

    let stored = try sandbox.listJSON()
    XCTAssertEqual(stored.count, 2020)
    let storedIDs = Set(stored.compactMap { $0["id"] as? String })
    XCTAssertTrue(Set(added).isSubset(of: storedIDs), "every added place is stored")
    XCTAssertEqual(
      Set(stored.filter { $0["category"] as? String == "Bar" }.compactMap { $0["description"] as? String }),
      Set((0..<20).map { "Added \($0)" }))

    // The render saw the store at one moment: all 2,000 imported places, and some of the added ones.
    assertPNG(sandbox.contents(of: "map.png"), width: 300, height: 200)
    let layout = try Layout(try XCTUnwrap(sandbox.contents(of: "map.json")))
    XCTAssertTrue((2000...2020).contains(layout.annotations.count), "\(layout.annotations.count) drawn")
    XCTAssertTrue(Set(layout.ids).isSubset(of: storedIDs))
  }
}
