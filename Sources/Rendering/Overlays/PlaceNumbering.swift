import MapMath

/// The places named by a number in their pin head instead of a callout, and the number of each: decided by
/// the places overlay as it places itself, read by the legend that names them. Numbers count from 1 in the
/// order of the annotations (the caller's order: by date for the command line).
final class PlaceNumbering {
  /// Annotation indices in number order: the place numbered `n` is `indices[n - 1]`.
  private(set) var indices: [Int] = []
  private var numbers: [Int: Int] = [:]
  /// The places the indices refer to: those drawn as pins (cluster members are not among them).
  private(set) var annotations: [any Annotation] = []
  /// True when a legend names the numbered places.
  let namedInLegend: Bool

  init(namedInLegend: Bool = true) {
    self.namedInLegend = namedInLegend
  }

  /// True when more places than `maximumNumbered` were to be numbered, and none was.
  private(set) var tooMany = false

  /// Numbers the places at `indices` (indices into `annotations`, when given, else into the places given
  /// before), replacing any numbering before; none when they are more than `maximumNumbered`.
  /// `order` ranks the annotations in the caller's list when they are not in it.
  func assign(_ indices: [Int], of annotations: [any Annotation]? = nil, order: [Int]? = nil) {
    if let annotations { self.annotations = annotations }
    tooMany = indices.count > PlaceNumbering.maximumNumbered
    self.indices = tooMany ? [] : indices.sorted { a, b in order.map { $0[a] < $0[b] } ?? (a < b) }
    numbers = Dictionary(uniqueKeysWithValues: self.indices.enumerated().map { ($0.element, $0.offset + 1) })
  }

  /// The number of the place at annotation `index`, nil when it has none.
  func number(of index: Int) -> Int? { numbers[index] }

  /// The most places a map numbers: past it the numbers would fill the map and no legend could name
  /// them (and a million numbers would cost a million text layouts); such a map numbers none.
  static let maximumNumbered = 999

  /// Which of the placed places are numbered: with `numbers` every place in the image, with `auto` those
  /// whose callout was dropped, with `callouts` none.
  static func numbered(
    _ placed: [OverlayLayout.Placed], dropped: [Int], labels: PlaceLabels, size: PixelSize
  ) -> [Int] {
    switch labels {
    case .callouts: return []
    case .auto: return dropped
    case .numbers:
      let image = PixelRect(x: 0, y: 0, width: size.width, height: size.height)
      return placed.filter { image.contains($0.point) }.map(\.index)
    }
  }
}
