import Foundation
import FuzzSupport
import ImageCodecs
import Tiles

// WebP through libwebp, decoded at the largest tile size mymap draws
// (`TileLimits.tileSizes`).
let largest = TileLimits.tileSizes.upperBound

Fuzz.run { input in
  guard let image = try? WebPCodec.decode(input.data, maximumSide: largest) else { return }
  require(image.width > 0 && image.height > 0, "decoded a \(image.width)×\(image.height) image")
  require(image.width <= largest && image.height <= largest, "decoded past the size limit")
}
