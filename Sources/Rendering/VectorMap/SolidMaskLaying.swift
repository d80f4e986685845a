import CRaster

/// One colour laid through an 8-bit coverage mask onto premultiplied ARGB pixels (Cairo's image format),
/// over what is there, with the mask cleared as it is read: the same bytes as Cairo's `cairo_mask_surface`
/// of a solid colour (pixman's over-solid-through-a8 arithmetic, rounding and saturation included), in
/// one pass that skips the untouched mask sixteen bytes at a time. A layer's lines cover a tenth of the
/// box they span; Cairo's composite still visits every pixel of it, and a second pass cleared it.
enum SolidMaskLaying {
  /// The colour as Cairo turns it into a pixel: premultiplied, each channel to 16 bits rounded, then its
  /// top 8 bits (alpha in the top byte).
  static func pixel(_ color: Color) -> UInt32 {
    func clamped(_ value: Double) -> Double { value.isNaN ? 0 : min(max(value, 0), 1) }
    let alpha = clamped(color.alpha)
    func channel(_ value: Double) -> UInt32 { UInt32(value * 65535.0 + 0.5) >> 8 }
    return channel(alpha) << 24 | channel(clamped(color.red) * alpha) << 16
      | channel(clamped(color.green) * alpha) << 8 | channel(clamped(color.blue) * alpha)
  }

  /// Lays `color` (a `pixel(_:)`) through the mask's `columns` of each of `rows` onto the same columns and
  /// rows of `pixels`, and zeroes those mask bytes (`craster_lay_solid`).
  static func lay(
    _ color: UInt32, mask: UnsafeMutablePointer<UInt8>, maskStride: Int,
    pixels: UnsafeMutableRawPointer, pixelStride: Int, columns: ClosedRange<Int>, rows: Range<Int>
  ) {
    craster_lay_solid(
      color, mask, maskStride, pixels.assumingMemoryBound(to: UInt8.self), pixelStride,
      Int32(columns.lowerBound), Int32(columns.upperBound), Int32(rows.lowerBound), Int32(rows.upperBound))
  }
}
