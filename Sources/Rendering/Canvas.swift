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
  /// The image's pixel rows this canvas's surface holds: all of them, or a band's. The surface's device
  /// offset moves drawing up by the band's top, so code draws in the image's points and pixels alike;
  /// code that writes the surface's pixels itself subtracts `rows.lowerBound`.
  let rows: Range<Int>
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
    rows = 0..<pixelHeight
    let sink = ByteSink()
    self.sink = sink
    let created: OpaquePointer?
    switch format {
    case .png:
      created = SurfaceMemory.imageSurface(width: pixelWidth, height: pixelHeight)
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

  /// A canvas over the pixel rows `rows` of an image canvas, drawn in the image's points (Cairo clips to
  /// the band): threads may draw different bands of one image at once. The image must outlive the band
  /// and not be drawn while bands are.
  convenience init(band rows: Range<Int>, of image: Canvas) throws {
    let stride = Int(cairo_image_surface_get_stride(image.surface))
    guard image.format == .png, image.rows == 0..<image.pixelHeight, rows.lowerBound >= 0,
      rows.upperBound <= image.pixelHeight, !rows.isEmpty,
      let pixels = cairo_image_surface_get_data(image.surface)
    else {
      throw CanvasError.cannotCreateSurface(
        width: image.pixelWidth, height: rows.count, status: "not an image band")
    }
    try self.init(
      band: rows, pixelWidth: image.pixelWidth, pixelHeight: image.pixelHeight, scale: image.scale,
      surface: cairo_image_surface_create_for_data(
        pixels + rows.lowerBound * stride, CAIRO_FORMAT_ARGB32, Int32(image.pixelWidth), Int32(rows.count),
        Int32(stride)))
  }

  /// A canvas of its own for the pixel rows `rows` of a `pixelWidth` × `pixelHeight` PNG, drawn in the
  /// image's points (Cairo clips to the band): a large image drawn and encoded a band at a time.
  convenience init(rows: Range<Int>, ofImageWidth pixelWidth: Int, height pixelHeight: Int, scale: Double)
    throws
  {
    guard rows.lowerBound >= 0, rows.upperBound <= pixelHeight, !rows.isEmpty else {
      throw CanvasError.cannotCreateSurface(
        width: pixelWidth, height: rows.count, status: "not an image band")
    }
    try self.init(
      band: rows, pixelWidth: pixelWidth, pixelHeight: pixelHeight, scale: scale,
      surface: SurfaceMemory.imageSurface(width: pixelWidth, height: rows.count))
  }

  /// A band's canvas over `surface` (taken over: destroyed on failure too), moved up by the band's top.
  private init(
    band rows: Range<Int>, pixelWidth: Int, pixelHeight: Int, scale: Double, surface: OpaquePointer?
  )
    throws
  {
    guard let surface, cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else {
      let status = surface.map { String(cString: cairo_status_to_string(cairo_surface_status($0))) } ?? "null"
      if let surface { cairo_surface_destroy(surface) }
      throw CanvasError.cannotCreateSurface(width: pixelWidth, height: rows.count, status: status)
    }
    format = .png
    self.pixelWidth = pixelWidth
    self.pixelHeight = pixelHeight
    self.scale = scale
    self.rows = rows
    sink = ByteSink()
    cairo_surface_set_device_offset(surface, 0, -Double(rows.lowerBound))
    self.surface = surface
    context = cairo_create(surface)
    drawing = DrawingContext(cr: context)
    cairo_scale(context, scale, scale)
  }

  /// Whether drawing is clipped (`cairo_clip`) below the canvas's own edges; set by whoever clips, so that
  /// what writes pixels past Cairo (`LineCoverageMask.paint`) lets Cairo honour the clip.
  var isClipped = false

  /// The coverage mask an image's vector lines and label halos are drawn through (`LineCoverageMask`;
  /// made at first use, kept clear).
  lazy var lineCoverageMask = LineCoverageMask(over: self)

  /// Whether everything drawn so far succeeded.
  var isIntact: Bool { cairo_status(context) == CAIRO_STATUS_SUCCESS }

  /// Why drawing failed where the context cannot tell (a band drawn by another context).
  var failure: String?

  /// Why drawing on the canvas failed: `failure`, else its context's status; nil while all succeeded.
  var drawingFailure: String? {
    if let failure { return failure }
    let status = cairo_status(context)
    return status == CAIRO_STATUS_SUCCESS ? nil : String(cString: cairo_status_to_string(status))
  }

  deinit {
    cairo_destroy(context)
    cairo_surface_destroy(surface)
  }

  /// Ends drawing and returns the file's bytes; a PNG's pixels filtered and deflated as `compression` says.
  func finish(compression: PNGCompression = .standard) throws -> Data {
    if let drawingFailure { throw CanvasError.drawingFailed(drawingFailure) }
    switch format {
    case .png:
      cairo_surface_flush(surface)
      guard let pixels = cairo_image_surface_get_data(surface), rows.count == pixelHeight else {
        throw CanvasError.drawingFailed("no pixel data")
      }
      return try PNGCodec.encodeARGB32(
        UnsafeRawPointer(pixels), width: pixelWidth, height: pixelHeight, stride: stride, opaque: isOpaque,
        compressionLevel: compression.level, filter: compression.filter)
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

  /// The bytes from one pixel row of the surface to the next.
  var stride: Int { Int(cairo_image_surface_get_stride(surface)) }

  /// True when every pixel of an image's surface is fully opaque, so the PNG can leave out its alpha
  /// channel (the caller has flushed the surface).
  var isOpaque: Bool {
    guard let pixels = cairo_image_surface_get_data(surface) else { return false }
    let stride = self.stride
    for row in 0..<rows.count {
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
