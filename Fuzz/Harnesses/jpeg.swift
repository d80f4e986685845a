import Foundation
import FuzzSupport
import Tiles

// JPEG through libjpeg-turbo, decoded at the largest tile size mymap draws (1024 px a side).
Fuzz.run { input in
  guard let image = try? JPEGCodec.decode(input.data, maximumSide: 1024) else { return }
  require(image.width > 0 && image.height > 0, "decoded a \(image.width)×\(image.height) image")
  require(image.width <= 1024 && image.height <= 1024, "decoded past the size limit")
}
