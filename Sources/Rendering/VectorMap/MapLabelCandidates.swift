import MapMath
import MapStyle
import VectorTiles

/// A label waiting for a place: its text, style, priority and where it could go.
struct MapLabelCandidate {
  enum Site {
    /// A point label's anchor, in points.
    case point(PixelPoint)
    /// A line label's street, its pieces already joined across tile edges, in points.
    case lines([LabelLine])
  }

  var text: String
  var style: LabelStyle
  /// `symbol-sort-key`: lower goes first; ties keep the features' order.
  var sortKey: Double
  var order: Int
  var site: Site
}

/// Reads one symbol layer's candidates from every tile.
enum MapLabelCandidates {
  /// Pieces of one street kept for joining at most (a hostile tile could repeat one name endlessly).
  static let maximumPiecesPerText = 256

  static func collect(
    _ layer: StyleLayer, style: SymbolLayerStyle, sources: [FeatureLayer?], tiles: [MapTile], view: PixelRect,
    zoom: Double
  ) -> [MapLabelCandidate] {
    var points: [MapLabelCandidate] = []
    var lineOrder: [String] = []
    var lineGroups: [String: (candidate: MapLabelCandidate, pieces: [[PixelPoint]])] = [:]
    var order = 0
    func collect(_ slot: FeatureSlot, _ feature: MapFeature, _ styled: (LabelStyle, Double)) {
      guard let text = style.text(for: feature) else { return }
      let (labelStyle, sortKey) = styled
      order += 1
      let tile = tiles[Int(slot.tile)]
      let extent = feature.source.layer.extent
      let path = TilePath(tileRect: tile.rect, extent: extent, view: view, step: 0)
      let geometry = feature.feature.geometry
      switch labelStyle.placement {
      case .point:
        for anchor in anchors(of: geometry, extent: extent) {
          let point = path.point(anchor)
          guard view.contains(point) else { continue }
          points.append(
            MapLabelCandidate(
              text: text, style: labelStyle, sortKey: sortKey, order: order, site: .point(point)))
        }
      case .line:
        guard geometry.type != .point else { return }
        // Cut at the tile's edge: the neighbour tile has the rest, and the pieces are joined below.
        let pieces = path.lines(geometry)
        guard !pieces.isEmpty else { return }
        if var group = lineGroups[text] {
          guard group.pieces.count < maximumPiecesPerText else { return }
          group.pieces += pieces
          group.candidate.sortKey = min(group.candidate.sortKey, sortKey)
          lineGroups[text] = group
        } else {
          lineOrder.append(text)
          lineGroups[text] = (
            MapLabelCandidate(
              text: text, style: labelStyle, sortKey: sortKey, order: order, site: .lines([])),
            pieces
          )
        }
      }
    }
    StyledFeatures.forEach(
      of: layer, in: sources, zoom: zoom, types: [.point, .lineString, .polygon],
      readsFeatureID: style.readsFeatureID,
      style: { feature in style.style(for: feature).map { ($0, style.sortKey.value(for: feature) ?? 0) } },
      each: collect)
    var result = points
    for text in lineOrder {
      guard let group = lineGroups[text] else { continue }
      var candidate = group.candidate
      // Long straight lines first: a street's own line before the sidewalks and squares that share
      // its name (which bend around blocks).
      let lines = LabelLine.merge(group.pieces).map(LabelLine.init)
      let ranked = lines.enumerated().map {
        ($0.offset, $0.element.length / (1 + $0.element.turning * 2 / .pi))
      }
      candidate.site = .lines(
        ranked.sorted { a, b in a.1 != b.1 ? a.1 > b.1 : a.0 < b.0 }.map { lines[$0.0] })
      result.append(candidate)
    }
    return result.sorted { a, b in
      a.sortKey != b.sortKey ? a.sortKey < b.sortKey : a.order < b.order
    }
  }

  /// Where a point label goes, in tile coordinates, only inside the tile's own square (its buffer is
  /// the neighbours' business): each point of a point feature, the middle of a line, the centroid of a
  /// polygon's outer ring.
  static func anchors(of geometry: VectorTileGeometry, extent: Int) -> [VectorTilePoint] {
    let inside = { (p: VectorTilePoint) in p.x >= 0 && p.y >= 0 && Int(p.x) < extent && Int(p.y) < extent }
    switch geometry.type {
    case .point:
      return geometry.points.filter(inside)
    case .lineString:
      guard let line = geometry.parts.first, let middle = middle(of: line) else { return [] }
      return inside(middle) ? [middle] : []
    case .polygon:
      guard let ring = geometry.polygons.first?.first, let center = centroid(of: ring) else { return [] }
      return inside(center) ? [center] : []
    }
  }

  private static func middle(of line: ArraySlice<VectorTilePoint>) -> VectorTilePoint? {
    let points = line.map { PixelPoint(x: Double($0.x), y: Double($0.y)) }
    let measured = LabelLine(points)
    guard measured.points.count >= 2 else { return line.first }
    let point = measured.place(at: measured.length / 2).point
    return VectorTilePoint(x: Int32(point.x.rounded()), y: Int32(point.y.rounded()))
  }

  private static func centroid(of ring: ArraySlice<VectorTilePoint>) -> VectorTilePoint? {
    var area = 0.0
    var x = 0.0
    var y = 0.0
    guard let first = ring.first else { return nil }
    var previous = ring[ring.endIndex - 1]
    for point in ring {
      let cross = Double(previous.x) * Double(point.y) - Double(point.x) * Double(previous.y)
      area += cross
      x += (Double(previous.x) + Double(point.x)) * cross
      y += (Double(previous.y) + Double(point.y)) * cross
      previous = point
    }
    guard abs(area) > 0 else { return first }
    let cx = x / (3 * area)
    let cy = y / (3 * area)
    guard abs(cx) < 1e9, abs(cy) < 1e9 else { return first }
    return VectorTilePoint(x: Int32(cx.rounded()), y: Int32(cy.rounded()))
  }
}
