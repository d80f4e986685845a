import Foundation
import ImageCodecs
import TestSupport
import XCTest

/// Street maps from vector tiles, end to end: PMTiles, MBTiles and tile folders, the bundled styles and
/// any MapLibre style, every format, and the errors of a style or a tile set mymap cannot use.
final class VectorTilesRenderTests: XCTestCase {
  private let places = RepositoryPaths.examples.appendingPathComponent("helsinki.json").path
  private let pmtiles = RepositoryPaths.examples.appendingPathComponent("tiles/helsinki.pmtiles").path
  private let mbtiles = RepositoryPaths.examples.appendingPathComponent("tiles/helsinki.mbtiles").path

  private func render(
    _ sandbox: Sandbox, tiles: String?, out: String, _ extra: [String] = [], size: String = "600x400",
    file: StaticString = #filePath, line: UInt = #line
  ) throws -> CLIResult {
    var arguments = ["render", "--locations", places, "--size", size, "--out", out]
    if let tiles { arguments += ["--tiles", tiles] }
    let result = try sandbox.run(arguments + extra)
    assertSucceeded(result, file: file, line: line)
    return result
  }

  func testAPMTilesAndAnMBTilesOfTheSameTilesDrawTheSameMapEveryTime() throws {
    let sandbox = try Sandbox()
    // The README's example size: room for the street names around the callouts.
    _ = try render(sandbox, tiles: pmtiles, out: "a.png", ["--layout-json", "a.json"], size: "1200x800")
    _ = try render(sandbox, tiles: pmtiles, out: "b.png", size: "1200x800")
    _ = try render(sandbox, tiles: mbtiles, out: "c.png", size: "1200x800")
    let first = try XCTUnwrap(sandbox.contents(of: "a.png"))
    assertPNG(first, width: 1200, height: 800)
    XCTAssertEqual(sandbox.contents(of: "b.png"), first, "the same command gives the same bytes")
    XCTAssertEqual(sandbox.contents(of: "c.png"), first, "MBTiles and PMTiles hold the same tiles")
    // East of the extract's bounds there is no data: the style's "no data" colour, not empty land.
    let image = try PNGCodec.decode(first)
    let outside = image.pixel(x: 1180, y: 300)
    XCTAssertEqual([outside.red, outside.green, outside.blue], [230, 227, 222])

    let layout = try Layout(try XCTUnwrap(sandbox.contents(of: "a.json")))
    XCTAssertEqual(layout.tiles["source"] as? String, pmtiles)
    XCTAssertEqual(number(layout.tiles["zoom"]), 14)
    XCTAssertEqual(number(layout.tiles["missing"]), 0)
    XCTAssertNotEqual(
      number(layout.camera["zoom"]).map { $0 == $0.rounded() }, true, "vector maps fit any zoom")
    let labels = try XCTUnwrap(layout.json["labels"] as? [[String: Any]])
    let texts = Set(labels.compactMap { $0["text"] as? String })
    for street in ["Mannerheimintie", "Aleksanterinkatu", "Pohjoisesplanadi"] {
      XCTAssertTrue(texts.contains(street), "\(street) is named: \(texts.sorted())")
    }
    // Point labels (place names) keep clear of every pin and callout.
    let overlays = layout.annotations.flatMap { annotation in
      ["pin", "callout"].compactMap { rect(annotation[$0]) }
    }
    for label in labels where (label["layer"] as? String)?.hasPrefix("place") == true {
      let box = try XCTUnwrap(rect(label["rect"]))
      for other in overlays {
        let apart =
          box.x + box.width <= other.x || other.x + other.width <= box.x || box.y + box.height <= other.y
          || other.y + other.height <= box.y
        XCTAssertTrue(apart, "\(label["text"] ?? "") overlaps a pin or callout")
      }
    }
  }

  func testSVGAndPDFStayVectorAndRepeatByteForByte() throws {
    let sandbox = try Sandbox()
    // Callouts only: room for a legend would zoom the street map out, to fewer segments than counted below.
    for name in ["a.svg", "b.svg", "a.pdf", "b.pdf"] {
      _ = try render(sandbox, tiles: pmtiles, out: name, ["--labels", "callouts"])
    }
    let svg = try XCTUnwrap(sandbox.contents(of: "a.svg"))
    XCTAssertEqual(sandbox.contents(of: "b.svg"), svg)
    XCTAssertEqual(sandbox.contents(of: "b.pdf"), sandbox.contents(of: "a.pdf"))
    let text = String(decoding: svg, as: UTF8.self)
    XCTAssertFalse(text.contains("<image"), "no part of the map is a picture")
    // Features of one paint share one path: hundreds of paths, each of many segments.
    XCTAssertGreaterThan(text.components(separatedBy: "<path").count, 200)
    XCTAssertGreaterThan(text.components(separatedBy: " L ").count, 20_000)
  }

  func testTheDarkStyleDrawsTheDarkStreetMap() throws {
    let sandbox = try Sandbox()
    _ = try render(sandbox, tiles: pmtiles, out: "light.png", ["--callouts", "none"])
    _ = try render(sandbox, tiles: pmtiles, out: "dark.png", ["--callouts", "none", "--style", "dark"])
    func meanBrightness(_ name: String) throws -> Double {
      let image = try PNGCodec.decode(try XCTUnwrap(sandbox.contents(of: name)))
      return Double(image.rgba.reduce(0) { $0 + Int($1) }) / Double(image.rgba.count)
    }
    XCTAssertGreaterThan(try meanBrightness("light.png"), 180)
    XCTAssertLessThan(try meanBrightness("dark.png"), 110)
  }

  func testAStyleNamingItsOwnLocalTilesNeedsNoTilesOption() throws {
    let sandbox = try Sandbox()
    try FileManager.default.createDirectory(atPath: sandbox.path("style"), withIntermediateDirectories: false)
    try FileManager.default.copyItem(atPath: pmtiles, toPath: sandbox.path("style/city.pmtiles"))
    let bundled = RepositoryPaths.styles.appendingPathComponent("vector/light.json")
    let text = try String(contentsOf: bundled, encoding: .utf8).replacingOccurrences(
      of: "pmtiles://helsinki.pmtiles", with: "pmtiles://city.pmtiles")
    try sandbox.write(text, to: "style/mine.json")
    _ = try render(
      sandbox, tiles: nil, out: "map.png", ["--map-style", "style/mine.json", "--layout-json", "l.json"])
    let layout = try Layout(try XCTUnwrap(sandbox.contents(of: "l.json")))
    XCTAssertEqual(layout.tiles["source"] as? String, sandbox.path("style/city.pmtiles"))
  }

  func testStylesAndTilesMymapCannotUseAreExit3() throws {
    let sandbox = try Sandbox()
    let missing = try sandbox.run(
      ["render", "--locations", places, "--tiles", pmtiles, "--map-style", "nope.json", "--out", "map.png"])
    assertFailed(missing, status: 3, message: "no map style file nope.json")
    try sandbox.write(
      #"{"version": 8, "sources": {}, "layers": [{"id": "roads", "type": "line", "source": "s", "source-layer": "x", "filter": ["within", {}]}]}"#,
      to: "bad.json")
    let bad = try sandbox.run(
      ["render", "--locations", places, "--tiles", pmtiles, "--map-style", "bad.json", "--out", "map.png"])
    assertFailed(
      bad, status: 3, message: "bad.json: style layer \"roads\": unknown expression operator \"within\"")
    try writeMBTiles(at: sandbox.path("avif.mbtiles"), metadata: ["format": "avif"], tiles: [])
    let avif = try sandbox.run([
      "render", "--locations", places, "--tiles", "avif.mbtiles", "--out", "map.png",
    ])
    assertFailed(
      avif, status: 3,
      message:
        "avif.mbtiles holds avif tiles, which mymap cannot draw (it draws PNG, JPEG and WebP images and"
        + " Mapbox Vector Tiles)")
    XCTAssertEqual(try sandbox.files(), ["avif.mbtiles", "bad.json"])
  }

  func testMissingVectorTilesFailAnOfflineRender() throws {
    let sandbox = try Sandbox()
    // Only the world's one z0 tile: a street map needs z14.
    let source = try XCTUnwrap(try openVectorTile(mbtiles, z: 0, x: 0, y: 0))
    try writeMBTiles(
      at: sandbox.path("z0.mbtiles"), metadata: ["format": "pbf", "minzoom": "0", "maxzoom": "14"],
      tiles: [(tile(0, 0, 0), source)])
    let offline = try sandbox.run(
      ["render", "--locations", places, "--tiles", "z0.mbtiles", "--offline", "--out", "map.png"])
    XCTAssertEqual(offline.status, 4, offline.transcript)
    XCTAssertTrue(offline.stderr.hasPrefix("mymap: error: "), offline.transcript)
    XCTAssertTrue(offline.stderr.contains("tiles are missing from z0.mbtiles"), offline.transcript)
    XCTAssertEqual(try sandbox.files(), ["z0.mbtiles"])
  }

  func testARasterMapHeldBackFromItsZoomSaysSo() throws {
    let sandbox = try Sandbox()
    let paris = try sandbox.write(
      #"{"locations": [{"latitude": 48.8584, "longitude": 2.2945, "description": "Tour Eiffel"}]}"#,
      to: "p.json")
    let result = try sandbox.run(
      [
        "render", "--locations", paris, "--tiles", Inputs.europeTiles, "--size", "400x300", "--out",
        "map.png",
      ])
    XCTAssertEqual(result.status, 0, result.transcript)
    let warning = result.stderrLines.first { $0.contains("has no tiles that deep") }
    XCTAssertNotNil(warning, result.transcript)
    XCTAssertTrue(warning?.hasSuffix("drawn at zoom 8 (raster tiles are enlarged at most 4 times)") ?? false)
  }
}

/// One tile's stored bytes from an MBTiles file (XYZ numbering).
private func openVectorTile(_ path: String, z: Int, x: Int, y: Int) throws -> Data? {
  let rows = try sqliteRows(
    path,
    "SELECT hex(tile_data) FROM tiles WHERE zoom_level = \(z) AND tile_column = \(x) AND tile_row = \((1 << z) - 1 - y)"
  )
  guard let hex = rows.first?.first else { return nil }
  var bytes: [UInt8] = []
  var index = hex.startIndex
  while index < hex.endIndex {
    let next = hex.index(index, offsetBy: 2)
    bytes.append(UInt8(hex[index..<next], radix: 16)!)
    index = next
  }
  return Data(bytes)
}
