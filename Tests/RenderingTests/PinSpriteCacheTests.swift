import Dispatch
import Foundation
import Locking
import MapMath
import XCTest

@testable import Rendering

/// Pin sprites kept between renders: a map drawn from kept sprites is the map drawn from fresh ones,
/// byte for byte, and what is kept stays bounded.
final class PinSpriteCacheTests: XCTestCase {
  /// Places spread so that their pins fall on many quarter-pixel offsets, in category colours.
  private func request(colors: Bool, scale: Double = 1) -> RenderRequest {
    Self.request(colors: colors, scale: scale)
  }

  private static func request(colors: Bool, scale: Double = 1) -> RenderRequest {
    let places = (0..<24).map { index in
      RenderKit.place(
        "p\(index)", 48.85 + Double(index % 6) * 0.0071, 2.30 + Double(index / 6) * 0.0133,
        title: "Place \(index)", subtitle: "c\(index % 5)")
    }
    var request = RenderKit.request(places, width: 480, height: 360, scale: scale, format: .png)
    request.showCallouts = false
    if colors {
      request.style.pin.categoryColors = Dictionary(
        uniqueKeysWithValues: (0..<5).map { ("c\($0)", Color(red: 0.2 * Double($0), green: 0.3, blue: 0.8)) })
    }
    return request
  }

  func testKeptSpritesGiveTheSameBytesAsFreshOnes() throws {
    for (colors, scale) in [(false, 1.0), (true, 1.0), (false, 2.0)] {
      PinSpriteCache.removeAll()
      let fresh = try Snapshotter.render(request(colors: colors, scale: scale)).data
      XCTAssertGreaterThan(PinSpriteCache.keptByteCount, 0, "the sprites are kept")
      let kept = try Snapshotter.render(request(colors: colors, scale: scale)).data
      XCTAssertEqual(fresh, kept, "colours \(colors), scale \(scale)")
    }
  }

  func testRendersSideBySideShareSprites() throws {
    PinSpriteCache.removeAll()
    let expected = try Snapshotter.render(request(colors: true)).data
    PinSpriteCache.removeAll()
    let results = Locked<[[UInt8]]>([])
    DispatchQueue.concurrentPerform(iterations: 4) { _ in
      // Each thread makes its own request (a request holds non-Sendable annotations).
      let data = (try? Snapshotter.render(Self.request(colors: true)).data) ?? []
      results.withLock { $0.append(data) }
    }
    XCTAssertEqual(results.withLock { $0 }, Array(repeating: expected, count: 4))
  }

  func testKeptSpritesStayUnderTheirBound() throws {
    PinSpriteCache.removeAll()
    // Large pins in many colours: more sprites than the bound holds.
    for scale in [2.5, 3.0, 3.5, 4.0] {
      _ = try Snapshotter.render(request(colors: true, scale: scale))
      XCTAssertLessThanOrEqual(PinSpriteCache.keptByteCount, PinSpriteCache.keptBytes)
    }
    XCTAssertGreaterThan(PinSpriteCache.keptByteCount, PinSpriteCache.keptBytes / 2)
  }
}
