import MapMath

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The measure and fit stages for the places: one pin each (with callouts, `PlacesOverlay`), or, when
/// pins would collide, cluster markers for the crowded places and pins only for the places left alone
/// (ARCHITECTURE.md §2).
///
/// Deciding costs coordinates only: the tightest camera the pins alone allow shows whether any two pin
/// heads overlap (they overlap at every farther zoom too). Clustered maps are fitted to their markers, so
/// no room is ever kept for a callout that is not drawn; texts are read and measured only for the pins.
enum PlacesFit {
  /// The overlays to place and draw (the places first, then `others`) and the camera they were fitted on.
  struct Fitted {
    var overlays: [any MapOverlay]
    var camera: Camera
    var warnings: [RenderWarning]
    /// The seed's region of the places and tracks, for fitting again (`PlateRoomFit`).
    var region: Region?
    /// Whether crowded places became cluster markers, placed for `camera` alone.
    var clustered: Bool
  }

  static func fit(
    _ request: RenderRequest, others: [any MapOverlay],
    pins makePins: ([any Annotation]) -> PlacesOverlay
  ) throws(RenderError) -> Fitted {
    let places = request.places ?? AnnotationArray(request.annotations)
    let geometry = PlacesGeometry(
      places.coordinates, tracks: request.tracks.flatMap(\.extremes), user: request.user)
    let pin = PinGeometry(style: request.style.pin)
    // The plates' room (the title's band) is kept free in every fit.
    let room = others.reduce(EdgeRoom.none) { $0.union($1.fitRoom) }
    if request.clustering != .always {
      var crowded = false
      if request.clustering == .auto && geometry.world.count > 1 {
        let pinsOnly = MarkerExtents(geometry, rect: pin.extent)
        let tightest = try CameraFit.camera(
          for: request, placesRegion: geometry.region, overlays: [pinsOnly] + others, room: room
        ).camera
        crowded = PlaceClustering.anyOverlap(
          points: geometry.points(on: tightest), size: tightest.size, rect: pin.headRect)
      }
      if !crowded {
        let all = places.inListOrder(Array(geometry.world.indices))
        let overlays = [makePins(try read(places, at: all))] + others
        let (camera, warnings) = try CameraFit.camera(
          for: request, placesRegion: geometry.region, overlays: overlays, room: room)
        let overlapping =
          request.clustering == .auto
          && PlaceClustering.anyOverlap(
            points: geometry.points(on: camera), size: camera.size, rect: pin.headRect)
        if !overlapping {
          return Fitted(
            overlays: overlays, camera: camera, warnings: warnings, region: geometry.region, clustered: false)
        }
      }
    }
    return try clustered(
      request, places: places, geometry: geometry, others: others, room: room, makePins: makePins)
  }

  /// Markers for the crowded places, pins for the rest, on a camera fitted to the markers.
  private static func clustered(
    _ request: RenderRequest, places: any AnnotationCollection, geometry: PlacesGeometry,
    others: [any MapOverlay], room: EdgeRoom, makePins: ([any Annotation]) -> PlacesOverlay
  ) throws(RenderError) -> Fitted {
    let pin = PinGeometry(style: request.style.pin)
    let layer = ClusterLayer(style: request.style)
    // Any marker, a pin or a circle as large as one of every place, fits this; a point of air between.
    let reach = layer.reach(count: geometry.world.count)
    let circle = PixelRect(x: -reach, y: -reach, width: 2 * reach, height: 2 * reach)
    let marker = pin.extent.union(circle).insetBy(dx: -0.5, dy: -0.5)
    let (camera, warnings) = try CameraFit.camera(
      for: request, placesRegion: geometry.region,
      overlays: [MarkerExtents(geometry, rect: marker)] + others, room: room)
    let clustering = PlaceClustering(
      points: geometry.points(on: camera), size: camera.size, marker: marker, circle: circle,
      pin: pin.extent, head: pin.headRect)
    var markers: [ClusterOverlay.Marker] = []
    for cluster in clustering.clusters {
      let pixel = PixelPoint(x: cluster.point.x * camera.scale, y: cluster.point.y * camera.scale)
      markers.append(
        ClusterOverlay.Marker(
          point: cluster.point, coordinate: camera.coordinate(atPixel: pixel), count: cluster.members.count,
          members: try listedMembers(cluster.members, of: places)))
    }
    // North to south, then west to east, then by id: the callouts are tried in an order that does not
    // depend on the input's.
    let lone = try read(places, at: clustering.singletons)
    let order = (0..<lone.count).sorted { i, j in
      let (a, b) = (lone[i], lone[j])
      let (first, second) = (a.coordinate, b.coordinate)
      return first == second ? a.identifier < b.identifier : northWest(first, before: second)
    }
    // Numbers still count the places in the list's order (by date from the command line).
    let rank = Dictionary(
      uniqueKeysWithValues: places.inListOrder(clustering.singletons).enumerated().map { ($1, $0) })
    let pins = makePins(order.map { lone[$0] })
    pins.layout.listOrder = order.map { rank[clustering.singletons[$0]] ?? $0 }
    return Fitted(
      overlays: [pins, ClusterOverlay(markers: markers, style: request.style)] + others, camera: camera,
      warnings: warnings, region: geometry.region, clustered: true)
  }

  /// North to south, then west to east.
  static func northWest(_ a: Coordinate, before b: Coordinate) -> Bool {
    a.latitude != b.latitude ? a.latitude > b.latitude : a.longitude < b.longitude
  }

  /// The first members' ids for the layout, north to south, then west to east, then by id. Only the
  /// members in the northernmost latitude bands holding `limit` of them are sorted (`NorthernmostSelection`),
  /// and ids are read only for them.
  private static func listedMembers(_ members: [Int], of places: any AnnotationCollection)
    throws(RenderError) -> [String]
  {
    let coordinates = places.coordinates
    let limit = MapLayout.ClusterLayout.maximumListedMembers
    var chosen = members
    if members.count > limit {
      chosen = NorthernmostSelection.candidates(limit, of: members, coordinates: coordinates)
    }
    chosen.sort { a, b in
      coordinates[a] == coordinates[b] ? a < b : northWest(coordinates[a], before: coordinates[b])
    }
    // Past the limit, only members tied with the last listed one can still come before it (by id).
    if chosen.count > limit {
      let last = coordinates[chosen[limit - 1]]
      var end = limit
      while end < chosen.count && coordinates[chosen[end]] == last { end += 1 }
      chosen.removeSubrange(end...)
    }
    let ids: [String]
    do {
      ids = try places.identifiers(at: chosen)
    } catch {
      throw RenderError.drawing("cannot read the places: \(error)")
    }
    let ordered = zip(chosen, ids).sorted { a, b in
      let (first, second) = (coordinates[a.0], coordinates[b.0])
      return first == second ? a.1 < b.1 : northWest(first, before: second)
    }
    return ordered.prefix(limit).map(\.1)
  }

  private static func read(_ places: any AnnotationCollection, at indices: [Int]) throws(RenderError)
    -> [any Annotation]
  {
    do {
      return try places.annotations(at: indices)
    } catch {
      throw RenderError.drawing("cannot read the places: \(error)")
    }
  }
}

/// The places' coordinates, their region (computed once: it sorts the longitudes) and their world points
/// in the copy nearest to the region's centre (projected once, then only shifted per camera).
struct PlacesGeometry {
  let coordinates: [Coordinate]
  let region: Region?
  let world: [WorldPoint]

  /// `tracks` are points the region must hold too (each track's extremes), drawn by another overlay.
  init(_ coordinates: [Coordinate], tracks: [Coordinate] = [], user: UserPosition?) {
    self.coordinates = coordinates
    // The places' box itself, not the seed's box × 1.1: the fit keeps every pin, callout and marker, and
    // the padding around them, in view, so the places fill the frame.
    region = Region.forAnnotations(
      tracks.isEmpty ? coordinates : coordinates + tracks, user: user?.coordinate, spanMargin: 1)
    let reference = region.map { WebMercator.project($0.center).x } ?? 0.5
    world = coordinates.map { WebMercator.project($0).nearestCopy(to: reference) }
  }

  /// Where the places land on `camera`, in points.
  func points(on camera: Camera) -> [PixelPoint] {
    let center = camera.centerWorld
    let worldPoints = 256 * pow(2, camera.zoom)
    let half = PixelPoint(x: camera.size.width / 2, y: camera.size.height / 2)
    return world.map { point in
      let x = point.x - (point.x - center.x).rounded()
      return PixelPoint(
        x: half.x + (x - center.x) * worldPoints, y: half.y + (point.y - center.y) * worldPoints)
    }
  }
}

/// The northernmost members of a large cluster without sorting them all.
enum NorthernmostSelection {
  /// Latitude bands between the cluster's southernmost and northernmost member.
  static let bands = 4096

  /// The members in the northernmost bands that together hold at least `k` of them: a superset of the `k`
  /// northernmost (and of every member tied with the last of those), found in two passes.
  static func candidates(_ k: Int, of members: [Int], coordinates: [Coordinate]) -> [Int] {
    guard members.count > k, let first = members.first else { return members }
    var south = coordinates[first].latitude
    var north = south
    for member in members {
      south = min(south, coordinates[member].latitude)
      north = max(north, coordinates[member].latitude)
    }
    guard north > south else { return members }
    let scale = Double(bands) / (north - south)
    func band(_ member: Int) -> Int {
      let offset = (coordinates[member].latitude - south) * scale
      return offset.isFinite ? Int(min(max(offset, 0), Double(bands - 1))) : 0
    }
    var counts = [Int](repeating: 0, count: bands)
    for member in members { counts[band(member)] += 1 }
    var lowest = bands - 1
    var held = counts[lowest]
    while held < k && lowest > 0 {
      lowest -= 1
      held += counts[lowest]
    }
    return members.filter { band($0) >= lowest }
  }
}

/// What the fit keeps in view of many places that all draw the same rectangle: only the four places
/// farthest out matter (west, east, north, south, in the world copy the fit unwraps them into).
struct MarkerExtents: MapOverlay {
  private let extents: [OverlayExtent]

  init(_ geometry: PlacesGeometry, rect: PixelRect) {
    var extremes: [Int] = []
    for (index, point) in geometry.world.enumerated() {
      if extremes.isEmpty {
        extremes = [index, index, index, index]
        continue
      }
      if point.x < geometry.world[extremes[0]].x { extremes[0] = index }
      if point.x > geometry.world[extremes[1]].x { extremes[1] = index }
      if point.y < geometry.world[extremes[2]].y { extremes[2] = index }
      if point.y > geometry.world[extremes[3]].y { extremes[3] = index }
    }
    extents = extremes.map { OverlayExtent(anchor: geometry.coordinates[$0], rect: rect) }
  }

  func fitExtents(leavingOut leftOut: Set<Int>) -> [OverlayExtent] { extents }
  var drawLevels: [DrawLevel] { [] }
  func draw(_ level: DrawLevel, on canvas: Canvas) {}
}
