import Foundation
import MapMath
import MapStyle
import Tiles
import XCTest

@testable import Rendering

/// The library's face: `MapSnapshotter` with its options, the bundled data found without environment
/// variables, typed errors in the library's own words, and cancellation.
final class MapSnapshotterTests: XCTestCase {
  private static let helsinki = PointAnnotation(
    identifier: "helsinki", coordinate: Coordinate(latitude: 60.1699, longitude: 24.9384), title: "Helsinki",
    subtitle: "Capital")
  private static let tallinn = PointAnnotation(
    identifier: "tallinn", coordinate: Coordinate(latitude: 59.4370, longitude: 24.7536), title: "Tallinn")

  private func options() -> MapSnapshotOptions {
    var options = MapSnapshotOptions(places: [Self.helsinki, Self.tallinn])
    options.size = PixelSize(width: 400, height: 300)
    return options
  }

  func testSnapshotDrawsThePlacesOverTheBundledBasemapWithADarkStyle() async throws {
    var options = options()
    options.style = try Style.named("dark")
    options.scale = 2
    options.title = MapTitle(title: "Gulf of Finland", subtitle: "Two capitals")
    let snapshot = try await MapSnapshotter(options: options).snapshot()
    XCTAssertEqual(Array(snapshot.data.prefix(4)), [0x89, 0x50, 0x4E, 0x47])
    XCTAssertEqual(snapshot.pixelSize, PixelSize(width: 800, height: 600))
    XCTAssertEqual(snapshot.layout.tiles.source, "builtin")
    XCTAssertEqual(snapshot.layout.annotations.map(\.id).sorted(), ["helsinki", "tallinn"])
    for place in [Self.helsinki, Self.tallinn] {
      let point = snapshot.point(for: place.coordinate)
      let drawn = try XCTUnwrap(snapshot.layout.annotations.first { $0.id == place.identifier })
      XCTAssertEqual(point.x, drawn.point.x, accuracy: 0.5)
      XCTAssertEqual(point.y, drawn.point.y, accuracy: 0.5)
      XCTAssertTrue((0...800).contains(point.x) && (0...600).contains(point.y), "\(point)")
      let back = snapshot.coordinate(at: point)
      XCTAssertEqual(back.latitude, place.coordinate.latitude, accuracy: 1e-9)
      XCTAssertEqual(back.longitude, place.coordinate.longitude, accuracy: 1e-9)
    }
    XCTAssertEqual(
      snapshot.layout.plates.first { $0.kind == "title" }?.text, "Gulf of Finland\nTwo capitals")
    let again = try await MapSnapshotter(options: options).snapshot()
    XCTAssertEqual(again.data, snapshot.data, "the same options give the same bytes")
  }

  func testAGivenCameraAndOtherFormatsAreKept() throws {
    var options = MapSnapshotOptions()
    options.center = Coordinate(latitude: 48.8584, longitude: 2.2945)
    options.zoom = 5
    options.size = PixelSize(width: 300, height: 200)
    options.format = .svg
    options.tiles = .none
    options.title = MapTitle(title: "Paris")
    let snapshot = try MapSnapshotter(options: options).snapshot(cancellation: nil)
    XCTAssertEqual(snapshot.camera.zoom, 5)
    XCTAssertEqual(snapshot.format, .svg)
    XCTAssertTrue(String(decoding: snapshot.data.prefix(100), as: UTF8.self).contains("<svg"))
    XCTAssertEqual(snapshot.layout.tiles.source, "none")
    XCTAssertEqual(snapshot.point(for: options.center!).x, 150, accuracy: 1e-9)
  }

  func testTilesByPathOrSourceWithTheCallersCredit() throws {
    var byPath = options()
    byPath.tiles = .path(RenderKit.fixtureTilesPath)
    byPath.attribution = "© Test tiles"
    let drawn = try MapSnapshotter(options: byPath).snapshot(cancellation: nil)
    XCTAssertEqual(drawn.layout.tiles.source, try RenderKit.fixtureTiles().description)
    XCTAssertEqual(drawn.layout.plates.first { $0.kind == "attribution" }?.text, "© Test tiles")
    var bySource = byPath
    bySource.tiles = .source(try RenderKit.fixtureTiles())
    XCTAssertEqual(try MapSnapshotter(options: bySource).snapshot(cancellation: nil).data, drawn.data)
  }

  func testVectorTilesAreDrawnWithTheBundledMapStyleOfTheStyle() throws {
    var options = MapSnapshotOptions(places: [
      PointAnnotation(
        identifier: "esplanadi", coordinate: Coordinate(latitude: 60.16748, longitude: 24.94761),
        title: "Esplanadi")
    ])
    options.size = PixelSize(width: 300, height: 200)
    options.zoom = 15
    options.tiles = .path(VectorMapFixtures.tilesPath)
    let light = try MapSnapshotter(options: options).snapshot(cancellation: nil)
    XCTAssertEqual(light.layout.tiles.source, try openTileSource(at: VectorMapFixtures.tilesPath).description)
    options.mapStyle = try MapStyle.named("light")
    XCTAssertEqual(try MapSnapshotter(options: options).snapshot(cancellation: nil).data, light.data)
    options.mapStyle = try MapStyle.named("dark")
    XCTAssertNotEqual(try MapSnapshotter(options: options).snapshot(cancellation: nil).data, light.data)
  }

  func testNamedStylesComeFromThePackage() throws {
    XCTAssertEqual(try Style.named("dark").name, "dark")
    XCTAssertEqual(try Style.named("default").pin.color, Style.standard.pin.color)
    XCTAssertTrue(Style.bundledNames.contains("categories"), "\(Style.bundledNames)")
    XCTAssertFalse(try MapStyle.named("light").layers.isEmpty)
    XCTAssertFalse(try MapStyle.named("dark").layers.isEmpty)
    XCTAssertThrowsError(try Style.named("nosuch")) { error in
      guard case BundledDataError.notFound(let what, let searched) = error else { return XCTFail("\(error)") }
      XCTAssertEqual(what, "the style \"nosuch\"")
      XCTAssertEqual(searched, [BundledData.stylesFolder.appendingPathComponent("nosuch.json").path])
    }
    for hostile in ["../Data/basemap", "", "a/b", "dark.json", "\u{0}"] {
      XCTAssertThrowsError(try Style.named(hostile)) { error in
        XCTAssertEqual(error as? BundledDataError, .badName(hostile))
      }
    }
    XCTAssertTrue(FileManager.default.fileExists(atPath: BundledData.basemapURL.path))
    XCTAssertEqual(try BasemapData.bundled().path, BundledData.basemapURL.path)
  }

  func testErrorsAreTypedAndNameNoCommandLineOption() throws {
    var empty = MapSnapshotOptions()
    empty.tiles = .none
    XCTAssertThrowsError(try MapSnapshotter(options: empty).snapshot(cancellation: nil)) { error in
      XCTAssertEqual(error as? MapSnapshotError, .render(.nothingToShow))
      XCTAssertFalse("\(error)".contains("--"), "\(error)")
    }
    var missing = options()
    missing.tiles = .path("/nonexistent/tiles.mbtiles")
    XCTAssertThrowsError(try MapSnapshotter(options: missing).snapshot(cancellation: nil)) { error in
      guard case MapSnapshotError.tileSource(let path, let reason) = error else { return XCTFail("\(error)") }
      XCTAssertEqual(path, "/nonexistent/tiles.mbtiles")
      XCTAssertTrue(reason.contains("/nonexistent/tiles.mbtiles"), reason)
      XCTAssertFalse(reason.contains("--"), reason)
    }
    var huge = options()
    huge.size = PixelSize(width: 40_000, height: 40_000)
    XCTAssertThrowsError(try MapSnapshotter(options: huge).snapshot(cancellation: nil)) { error in
      guard case MapSnapshotError.render(.invalidSize(let reason)) = error else { return XCTFail("\(error)") }
      XCTAssertTrue(reason.contains("100 megapixels"), reason)
    }
  }

  func testCancellationStopsTheRender() async throws {
    let cancellation = RenderCancellation()
    cancellation.cancel()
    XCTAssertThrowsError(try MapSnapshotter(options: options()).snapshot(cancellation: cancellation)) {
      XCTAssertEqual($0 as? MapSnapshotError, .cancelled)
    }
    let snapshotter = MapSnapshotter(options: options())
    let task = Task { () async throws -> MapSnapshot in
      withUnsafeCurrentTask { $0?.cancel() }
      return try await snapshotter.snapshot()
    }
    let outcome = await task.result
    guard case .failure(let error) = outcome else { return XCTFail("a cancelled task drew its map") }
    XCTAssertEqual(error as? MapSnapshotError, .cancelled)
    XCTAssertEqual("\(error)", "the map was cancelled before it was finished")
  }

  /// Cancelled while a stage runs (here by an overlay, as another thread would), the render stops at the
  /// next stage: after placing, before the basemap is read; after drawing, before encoding.
  func testCancellationDuringAStageStopsAtTheNextOne() throws {
    for stage in [CancellingOverlay.Stage.placing, .drawing] {
      let cancellation = RenderCancellation()
      let request = try MapSnapshotter(options: options()).makeRequest()
      let overlay = CancellingOverlay(stage: stage, cancellation: cancellation)
      XCTAssertThrowsError(try Snapshotter.render(request, adding: [overlay], cancellation: cancellation)) {
        XCTAssertEqual($0 as? RenderError, .cancelled, "\(stage)")
      }
      XCTAssertTrue(cancellation.isCancelled)
    }
    let untouched = RenderCancellation()
    let request = try MapSnapshotter(options: options()).makeRequest()
    XCTAssertNoThrow(try Snapshotter.render(request, cancellation: untouched))
  }
}

/// A test-only overlay that cancels the render while it is placed or drawn.
private struct CancellingOverlay: MapOverlay {
  enum Stage { case placing, drawing }
  let stage: Stage
  let cancellation: RenderCancellation

  func settle(on camera: Camera, around others: [PixelRect]) -> [PixelRect]? {
    if stage == .placing { cancellation.cancel() }
    return nil
  }

  var drawLevels: [DrawLevel] { [DrawLevel(rank: 250)] }

  func draw(_ level: DrawLevel, on canvas: Canvas) {
    if stage == .drawing { cancellation.cancel() }
  }
}
