import CCairo
import Foundation
import ImageCodecs
import MapMath
import Tiles

/// Why drawing or encoding failed.
public enum CanvasError: Error, Equatable, CustomStringConvertible {
  case cannotCreateSurface(width: Int, height: Int, status: String)
  case drawingFailed(String)

  public var description: String {
    switch self {
    case .cannotCreateSurface(let width, let height, let status):
      return "cannot create a \(width)×\(height) drawing surface (\(status))"
    case .drawingFailed(let status): return "drawing failed (\(status))"
    }
  }
}

/// A Cairo surface and its context, in one of the output formats, sized in pixels.
///
/// Drawing code works in points: the context is scaled by `scale`, so pixel output is `scale` times the
/// point size. Cairo handles are not thread-safe; a canvas is created, drawn and finished on one thread,
/// which is why the class is not `Sendable`.
final class Canvas {
  let format: OutputFormat
  let pixelWidth: Int
  let pixelHeight: Int
  let scale: Double
  let surface: OpaquePointer
  let context: OpaquePointer
  /// The shared drawing helpers over `context`.
  let drawing: DrawingContext
  private let sink: ByteSink

  init(format: OutputFormat, pixelWidth: Int, pixelHeight: Int, scale: Double) throws {
    self.format = format
    self.pixelWidth = pixelWidth
    self.pixelHeight = pixelHeight
    self.scale = scale
    let sink = ByteSink()
    self.sink = sink
    let created: OpaquePointer?
    switch format {
    case .png:
      created = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(pixelWidth), Int32(pixelHeight))
    case .svg:
      created = cairo_svg_surface_create_for_stream(
        writeToSink, Unmanaged.passUnretained(sink).toOpaque(), Double(pixelWidth), Double(pixelHeight))
      if let created { cairo_svg_surface_set_document_unit(created, CAIRO_SVG_UNIT_PX) }
    case .pdf:
      created = cairo_pdf_surface_create_for_stream(
        writeToSink, Unmanaged.passUnretained(sink).toOpaque(), Double(pixelWidth), Double(pixelHeight))
      if let created {
        // A fixed creation date: the same input must give the same bytes.
        cairo_pdf_surface_set_metadata(created, CAIRO_PDF_METADATA_CREATE_DATE, "2000-01-01T00:00:00Z")
        cairo_pdf_surface_set_metadata(created, CAIRO_PDF_METADATA_CREATOR, "mymap")
      }
    }
    guard let created, cairo_surface_status(created) == CAIRO_STATUS_SUCCESS else {
      let status = created.map { String(cString: cairo_status_to_string(cairo_surface_status($0))) } ?? "null"
      if let created { cairo_surface_destroy(created) }
      throw CanvasError.cannotCreateSurface(width: pixelWidth, height: pixelHeight, status: status)
    }
    surface = created
    context = cairo_create(created)
    drawing = DrawingContext(cr: context)
    cairo_scale(context, scale, scale)
  }

  /// A canvas over the pixel rows `rows` of an image canvas, drawn in the image's points (its context is
  /// moved up by the band's top, and Cairo clips to the band): threads may draw different bands of one
  /// image at once. The image must outlive the band and not be drawn while bands are.
  init(band rows: Range<Int>, of image: Canvas) throws {
    format = image.format
    pixelWidth = image.pixelWidth
    pixelHeight = image.pixelHeight
    scale = image.scale
    sink = ByteSink()
    let stride = Int(cairo_image_surface_get_stride(image.surface))
    guard image.format == .png, rows.lowerBound >= 0, rows.upperBound <= image.pixelHeight, !rows.isEmpty,
      let pixels = cairo_image_surface_get_data(image.surface)
    else {
      throw CanvasError.cannotCreateSurface(
        width: pixelWidth, height: rows.count, status: "not an image band")
    }
    let created = cairo_image_surface_create_for_data(
      pixels + rows.lowerBound * stride, CAIRO_FORMAT_ARGB32, Int32(pixelWidth), Int32(rows.count),
      Int32(stride))
    guard let created, cairo_surface_status(created) == CAIRO_STATUS_SUCCESS else {
      let status = created.map { String(cString: cairo_status_to_string(cairo_surface_status($0))) } ?? "null"
      if let created { cairo_surface_destroy(created) }
      throw CanvasError.cannotCreateSurface(width: pixelWidth, height: rows.count, status: status)
    }
    surface = created
    context = cairo_create(created)
    drawing = DrawingContext(cr: context)
    cairo_translate(context, 0, -Double(rows.lowerBound))
    cairo_scale(context, scale, scale)
  }

  /// Whether everything drawn so far succeeded.
  var isIntact: Bool { cairo_status(context) == CAIRO_STATUS_SUCCESS }

  /// Why drawing failed where the context cannot tell (a band drawn by another context).
  var failure: String?

  deinit {
    cairo_destroy(context)
    cairo_surface_destroy(surface)
  }

  /// Ends drawing and returns the file's bytes.
  func finish() throws -> Data {
    if let failure { throw CanvasError.drawingFailed(failure) }
    let status = cairo_status(context)
    guard status == CAIRO_STATUS_SUCCESS else {
      throw CanvasError.drawingFailed(String(cString: cairo_status_to_string(status)))
    }
    switch format {
    case .png:
      cairo_surface_flush(surface)
      guard let pixels = cairo_image_surface_get_data(surface) else {
        throw CanvasError.drawingFailed("no pixel data")
      }
      let stride = Int(cairo_image_surface_get_stride(surface))
      return try PNGCodec.encodeARGB32(
        UnsafeRawPointer(pixels), width: pixelWidth, height: pixelHeight, stride: stride,
        opaque: isOpaque(pixels: pixels, stride: stride))
    case .svg, .pdf:
      cairo_surface_finish(surface)
      let finished = cairo_surface_status(surface)
      guard finished == CAIRO_STATUS_SUCCESS else {
        throw CanvasError.drawingFailed(String(cString: cairo_status_to_string(finished)))
      }
      guard format == .svg else { return sink.data }
      return Data(SVGPathPrecision.round([UInt8](SVGIdentifiers.renumber(sink.data))))
    }
  }

  /// True when every pixel is fully opaque, so the PNG can leave out its alpha channel.
  private func isOpaque(pixels: UnsafeMutablePointer<UInt8>, stride: Int) -> Bool {
    for row in 0..<pixelHeight {
      let line = UnsafeBufferPointer(
        start: UnsafeRawPointer(pixels + row * stride).assumingMemoryBound(to: UInt32.self), count: pixelWidth
      )
      // One AND over the row (no early exit) is a loop the compiler vectorises.
      if line.reduce(0xFF00_0000, &) >> 24 != 0xFF { return false }
    }
    return true
  }
}

/// Collects the bytes Cairo streams out for SVG and PDF.
private final class ByteSink {
  var data = Data()
}

private func writeToSink(
  closure: UnsafeMutableRawPointer?, bytes: UnsafePointer<UInt8>?, length: UInt32
) -> cairo_status_t {
  guard let closure, let bytes else { return CAIRO_STATUS_WRITE_ERROR }
  let sink = Unmanaged<ByteSink>.fromOpaque(closure).takeUnretainedValue()
  sink.data.append(bytes, count: Int(length))
  return CAIRO_STATUS_SUCCESS
}
