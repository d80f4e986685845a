import CCairo
import MapMath

/// One element of a Cairo path, its points in the path's coordinates.
enum PathElement {
  case move(PixelPoint)
  case line(PixelPoint)
  case curve(PixelPoint, PixelPoint, PixelPoint)
  case close

  /// Calls `body` with each element of the context's current path in order: flattened into lines when
  /// `flat` (`cairo_copy_path_flat`), else as it stands. An element whose length runs past the path's
  /// data ends the walk, and one without the points its kind needs is left out.
  static func forEach(inCurrentPathOf cr: OpaquePointer, flat: Bool = false, _ body: (PathElement) -> Void) {
    guard let path = flat ? cairo_copy_path_flat(cr) : cairo_copy_path(cr) else { return }
    defer { cairo_path_destroy(path) }
    guard path.pointee.status == CAIRO_STATUS_SUCCESS, let data = path.pointee.data else { return }
    var index = 0
    let count = Int(path.pointee.num_data)
    func point(_ offset: Int) -> PixelPoint {
      PixelPoint(x: data[index + offset].point.x, y: data[index + offset].point.y)
    }
    while index < count {
      let header = data[index].header
      let length = max(Int(header.length), 1)
      guard index + length <= count else { break }
      switch header.type {
      case CAIRO_PATH_MOVE_TO where length >= 2: body(.move(point(1)))
      case CAIRO_PATH_LINE_TO where length >= 2: body(.line(point(1)))
      case CAIRO_PATH_CURVE_TO where length >= 4: body(.curve(point(1), point(2), point(3)))
      case CAIRO_PATH_CLOSE_PATH: body(.close)
      default: break
      }
      index += length
    }
  }

  /// Appends `elements` to the context's current path, each point through `map` first.
  static func add(
    _ elements: [PathElement], to cr: OpaquePointer, map: (PixelPoint) -> PixelPoint = { $0 }
  ) {
    for element in elements {
      switch element {
      case .move(let p):
        let q = map(p)
        cairo_move_to(cr, q.x, q.y)
      case .line(let p):
        let q = map(p)
        cairo_line_to(cr, q.x, q.y)
      case .curve(let a, let b, let c):
        let (q1, q2, q3) = (map(a), map(b), map(c))
        cairo_curve_to(cr, q1.x, q1.y, q2.x, q2.y, q3.x, q3.y)
      case .close:
        cairo_close_path(cr)
      }
    }
  }
}
