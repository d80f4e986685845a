import Foundation
import ImageCodecs
import MapMath
import TestSupport
import Tiles
import XCTest

@testable import Rendering

/// The bundled vector styles drawn without labels, compared with maplibre-native's renders of the same
/// cameras (`Tests/Fixtures/vector/reference/`, made by `Scripts/reference-render goldens`): at most
/// 0.5 % of the pixels may differ by more than 16 in any channel. On a mismatch the actual image and a
/// diff are written to `reference/failures/`.
final class VectorMapReferenceTests: XCTestCase {
  private static let tolerance = ImageTolerance(maxChannelDifference: 16, maxDifferingFraction: 0.005)

  private struct Reference {
    var file: String
    var style: String
    var camera: Camera
  }

  private func references() throws -> [Reference] {
    let url = VectorMapFixtures.referenceFolder.appendingPathComponent("references.json")
    let json = try XCTUnwrap(
      try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
    let width = try XCTUnwrap(json["width"] as? Double)
    let height = try XCTUnwrap(json["height"] as? Double)
    var cameras: [String: Camera] = [:]
    for camera in try XCTUnwrap(json["cameras"] as? [[String: Any]]) {
      let name = try XCTUnwrap(camera["name"] as? String)
      cameras[name] = Camera(
        center: Coordinate(
          latitude: try XCTUnwrap(camera["latitude"] as? Double),
          longitude: try XCTUnwrap(camera["longitude"] as? Double)),
        zoom: try XCTUnwrap(camera["mymapZoom"] as? Double), size: PixelSize(width: width, height: height))
    }
    return try XCTUnwrap(json["images"] as? [[String: Any]]).map { image in
      let style = try XCTUnwrap(image["style"] as? String)
      return Reference(
        file: try XCTUnwrap(image["file"] as? String),
        style: URL(fileURLWithPath: style).deletingPathExtension().lastPathComponent,
        camera: try XCTUnwrap(cameras[try XCTUnwrap(image["camera"] as? String)]))
    }
  }

  private func check(style name: String) throws {
    let style = try VectorMapFixtures.style(name)
    let chosen = try references().filter { $0.style == name }
    XCTAssertEqual(chosen.count, 3, "three reference cameras per style")
    for reference in chosen {
      let (png, _) = try VectorMapFixtures.render(style: style, camera: reference.camera, labels: false)
      let outcome = GoldenImage.check(
        png, named: String(reference.file.dropLast(4)), tolerance: Self.tolerance,
        directory: VectorMapFixtures.referenceFolder, record: false)
      if case .matched(let result) = outcome {
        print("vector reference \(reference.file): \(result.summary)")
        if let folder = ProcessInfo.processInfo.environment["MYMAP_VECTOR_OUT"] {
          let base = URL(fileURLWithPath: folder).appendingPathComponent(String(reference.file.dropLast(4)))
          try png.write(to: base.appendingPathExtension("actual.png"))
          if let diff = result.diffImage() {
            try PNGCodec.encode(diff).write(to: base.appendingPathExtension("diff.png"))
          }
        }
      }
      if let message = outcome.failureMessage { XCTFail("\(reference.file): \(message)") }
    }
  }

  func testLightStyleMatchesMapLibre() throws {
    try check(style: "light")
  }

  func testDarkStyleMatchesMapLibre() throws {
    try check(style: "dark")
  }
}
