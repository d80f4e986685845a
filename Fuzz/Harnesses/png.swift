import Foundation
import FuzzSupport
import ImageCodecs
import Tiles

// PNG through libpng: the header, then a full decode at the largest tile size mymap draws
// (`TileLimits.tileSizes`), so that no input allocates more than 4 MiB of pixels.
let largest = TileLimits.tileSizes.upperBound

Fuzz.run { input in
  let data = input.data
  let header = PNGCodec.size(of: data)
  guard let image = try? PNGCodec.decode(data, maximumSide: largest) else { return }
  require(image.width > 0 && image.height > 0, "decoded a \(image.width)×\(image.height) image")
  require(image.width <= largest && image.height <= largest, "decoded past the size limit")
  require(header.map { $0 == (image.width, image.height) } ?? false, "header size differs from decoded size")
}
