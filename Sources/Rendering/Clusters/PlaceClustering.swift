import MapMath

/// Merges places whose pins would collide into clusters, in image space at the final camera.
///
/// A place whose pin head overlaps no other place's stays a pin, as it would be without clusters. The other
/// places (the crowded ones) are binned into a flat grid of cells the size of `marker`, the rectangle any
/// marker may cover (a pin, or the largest cluster circle); each cell's places form a group at their mean
/// point (summed in fixed point, so the order of the input cannot change a bit of it). Groups are taken
/// from the fullest down (ties by cell, row by row): one whose marker would collide with a group marker
/// already accepted joins the nearest of those (ties: the first accepted), which keeps its place;
/// otherwise it is accepted, and takes in the lone pins its circle would cover. Anything a marker could
/// collide with lies in the 3×3 cells around it, so no marker overlaps another marker or a pin, and no two
/// pin heads overlap. O(n) for the places plus O(g log g) for the g groups.
struct PlaceClustering {
  /// Places drawn as a cluster marker.
  struct Cluster: Hashable {
    /// The marker's centre, in points: the mean of the places of the group that founded it.
    let point: PixelPoint
    /// Indices into the clustered points (a set, in effect: grouped by cell).
    let members: [Int]
  }

  /// Places drawn as their own pin, ascending.
  private(set) var singletons: [Int] = []
  /// The clusters, top to bottom, then left to right.
  private(set) var clusters: [Cluster] = []
  /// Places left out because they lie off the image (beyond a marker's reach).
  private(set) var outside = 0

  /// Fixed-point steps per point for the sums.
  private static let fixedPoint = 256.0
  /// The smallest cell, so that a degenerate style cannot ask for an unbounded grid.
  static let minimumCell = 4.0

  /// Clusters `points` (in points) shown on an image of `size`. `marker` is the rectangle any marker may
  /// cover, relative to its point; `circle` what the largest cluster covers, `pin` what a pin covers and
  /// `head` its head (`marker` holds them all).
  init(
    points: [PixelPoint], size: PixelSize, marker: PixelRect, circle: PixelRect, pin: PixelRect,
    head: PixelRect
  ) {
    let grid = Grid(size: size, marker: marker)
    let lone = Self.lonePins(points, size: size, head: head)
    // Counting sort of the crowded places by cell.
    var cellOf = [Int32](repeating: -1, count: points.count)
    var counts = [Int32](repeating: 0, count: grid.cellCount + 1)
    var crowded = 0
    for (index, point) in points.enumerated() {
      guard let cell = grid.cell(of: point) else {
        outside += 1
        continue
      }
      guard !lone[index] else { continue }
      cellOf[index] = Int32(cell)
      counts[cell + 1] += 1
      crowded += 1
    }
    for cell in 0..<grid.cellCount { counts[cell + 1] += counts[cell] }
    var fill = counts
    var byCell = [Int32](repeating: 0, count: crowded)
    var sumX = [Int64](repeating: 0, count: grid.cellCount)
    var sumY = [Int64](repeating: 0, count: grid.cellCount)
    for (index, cell32) in cellOf.enumerated() where cell32 >= 0 {
      let cell = Int(cell32)
      byCell[Int(fill[cell])] = Int32(index)
      fill[cell] += 1
      sumX[cell] += Int64((points[index].x * Self.fixedPoint).rounded())
      sumY[cell] += Int64((points[index].y * Self.fixedPoint).rounded())
    }
    // One group per non-empty cell, fullest first.
    var groups: [(cell: Int, count: Int)] = []
    for cell in 0..<grid.cellCount where counts[cell + 1] > counts[cell] {
      groups.append((cell, Int(counts[cell + 1] - counts[cell])))
    }
    groups.sort { $0.count != $1.count ? $0.count > $1.count : $0.cell < $1.cell }

    var markers = Markers(cellCount: grid.cellCount)
    for (index, point) in points.enumerated() where lone[index] && cellOf[index] < 0 {
      if let cell = grid.cell(of: point) { markers.add(point: point, cell: cell, place: index, group: -1) }
    }
    var owner = [Int](repeating: -1, count: groups.count)  // the accepted group each group went into
    var takenIn: [Int: [Int]] = [:]  // lone pins taken in, by accepted group
    for (order, group) in groups.enumerated() {
      let slots = Int(counts[group.cell])..<Int(counts[group.cell + 1])
      let point: PixelPoint
      if group.count == 1 {
        point = points[Int(byCell[slots.lowerBound])]
      } else {
        let divisor = Double(group.count) * Self.fixedPoint
        point = PixelPoint(x: Double(sumX[group.cell]) / divisor, y: Double(sumY[group.cell]) / divisor)
      }
      let cell = grid.clampedCell(of: point)
      var nearest: (group: Int, distance: Double)?
      var covered: [Int] = []
      // A lone pin in the way of the circle joins the cluster. (Should this group stay a pin, its head
      // overlaps no lone pin's: those overlap no one's.)
      let area = circle.offsetBy(dx: point.x, dy: point.y)
      for neighbour in [cell] + grid.neighbours(of: cell) {
        for entry in markers.entries(in: neighbour) {
          let other = markers.point[entry]
          if markers.group[entry] >= 0 {
            guard grid.collide(point, other) else { continue }
            let dx = point.x - other.x
            let dy = point.y - other.y
            let distance = dx * dx + dy * dy
            let candidate = markers.group[entry]
            if let current = nearest,
              current.distance < distance || (current.distance == distance && current.group < candidate)
            {
              continue
            }
            nearest = (candidate, distance)
          } else if area.intersects(pin.offsetBy(dx: other.x, dy: other.y)) {
            covered.append(entry)
          }
        }
      }
      if let nearest {
        owner[order] = nearest.group
      } else {
        owner[order] = order
        markers.add(point: point, cell: cell, place: -1, group: order)
        takenIn[order] = covered.map { markers.place[$0] }
        for entry in covered { markers.remove(entry) }
      }
    }

    var members: [Int: [Int]] = [:]
    for (order, group) in groups.enumerated() {
      for slot in Int(counts[group.cell])..<Int(counts[group.cell + 1]) {
        members[owner[order], default: []].append(Int(byCell[slot]))
      }
    }
    for entry in markers.point.indices where markers.alive[entry] {
      if markers.group[entry] < 0 {
        singletons.append(markers.place[entry])
        continue
      }
      let group = markers.group[entry]
      let all = (members[group] ?? []) + (takenIn[group] ?? [])
      if all.count == 1 {
        singletons.append(all[0])
      } else {
        clusters.append(Cluster(point: markers.point[entry], members: all))
      }
    }
    singletons.sort()
    clusters.sort { ($0.point.y, $0.point.x) < ($1.point.y, $1.point.x) }
  }

  /// For each point, true when its pin head (`head` around it) overlaps no other point's and it lies on
  /// the image. Two points in one head-sized cell always overlap; otherwise only the 8 cells around can
  /// hold one that does, and a cell with one point is compared with them (O(n) in all).
  static func lonePins(_ points: [PixelPoint], size: PixelSize, head: PixelRect) -> [Bool] {
    let grid = Grid(size: size, marker: head)
    var cellOf = [Int](repeating: -1, count: points.count)
    var first = [Int32](repeating: -1, count: grid.cellCount)
    var next = [Int32](repeating: -1, count: points.count)
    var counts = [Int32](repeating: 0, count: grid.cellCount)
    for (index, point) in points.enumerated() {
      guard let cell = grid.cell(of: point) else { continue }
      cellOf[index] = cell
      next[index] = first[cell]
      first[cell] = Int32(index)
      counts[cell] += 1
    }
    var lone = [Bool](repeating: false, count: points.count)
    for (index, cell) in cellOf.enumerated() where cell >= 0 && counts[cell] == 1 {
      var alone = true
      search: for neighbour in grid.neighbours(of: cell) {
        var other = first[neighbour]
        while other >= 0 {
          if grid.collide(points[index], points[Int(other)]) {
            alone = false
            break search
          }
          other = next[Int(other)]
        }
      }
      lone[index] = alone
    }
    return lone
  }

  /// True when any two of `rect` placed at `points` overlap (pin heads, for `--cluster auto`); stops at the
  /// first overlap found. Points whose rectangle lies off the image are ignored.
  static func anyOverlap(points: [PixelPoint], size: PixelSize, rect: PixelRect) -> Bool {
    let grid = Grid(size: size, marker: rect)
    var taken: [Int: PixelPoint] = [:]
    for point in points {
      guard let cell = grid.cell(of: point) else { continue }
      // Two points in one cell always overlap; any other overlap is with a neighbouring cell.
      if taken[cell] != nil { return true }
      for neighbour in grid.neighbours(of: cell) {
        if let other = taken[neighbour], grid.collide(point, other) { return true }
      }
      taken[cell] = point
    }
    return false
  }
}

/// The markers accepted so far (lone pins and group markers), listed per grid cell.
private struct Markers {
  var point: [PixelPoint] = []
  /// The place of a lone pin, else -1.
  var place: [Int] = []
  /// The group of a group marker, else -1.
  var group: [Int] = []
  var alive: [Bool] = []
  private var next: [Int32] = []
  private var first: [Int32]

  init(cellCount: Int) {
    first = [Int32](repeating: -1, count: cellCount)
  }

  mutating func add(point: PixelPoint, cell: Int, place: Int, group: Int) {
    self.point.append(point)
    self.place.append(place)
    self.group.append(group)
    alive.append(true)
    next.append(first[cell])
    first[cell] = Int32(self.point.count - 1)
  }

  /// Takes a marker out (a lone pin taken into a cluster).
  mutating func remove(_ entry: Int) {
    alive[entry] = false
  }

  func entries(in cell: Int) -> [Int] {
    var result: [Int] = []
    var entry = first[cell]
    while entry >= 0 {
      if alive[Int(entry)] { result.append(Int(entry)) }
      entry = next[Int(entry)]
    }
    return result
  }
}

/// Cells the size of a marker over the image and a marker's reach around it.
private struct Grid {
  let origin: PixelPoint
  let cellWidth: Double
  let cellHeight: Double
  let columns: Int
  let rows: Int

  var cellCount: Int { columns * rows }

  init(size: PixelSize, marker: PixelRect) {
    cellWidth = max(marker.width, PlaceClustering.minimumCell)
    cellHeight = max(marker.height, PlaceClustering.minimumCell)
    // A place whose marker could reach into the image counts; one farther out cannot be seen.
    origin = PixelPoint(x: -marker.maxX, y: -marker.maxY)
    let width = size.width + marker.width
    let height = size.height + marker.height
    columns = max(Int((width / cellWidth).rounded(.up)), 1)
    rows = max(Int((height / cellHeight).rounded(.up)), 1)
  }

  func cell(of point: PixelPoint) -> Int? {
    let column = ((point.x - origin.x) / cellWidth).rounded(.down)
    let row = ((point.y - origin.y) / cellHeight).rounded(.down)
    guard column >= 0, row >= 0, column < Double(columns), row < Double(rows) else { return nil }
    return Int(row) * columns + Int(column)
  }

  /// The cell of a point just outside the grid (a mean rounded past an edge) is the nearest one inside.
  func clampedCell(of point: PixelPoint) -> Int {
    let column = min(max(((point.x - origin.x) / cellWidth).rounded(.down), 0), Double(columns - 1))
    let row = min(max(((point.y - origin.y) / cellHeight).rounded(.down), 0), Double(rows - 1))
    return Int(row) * columns + Int(column)
  }

  func neighbours(of cell: Int) -> [Int] {
    let row = cell / columns
    let column = cell % columns
    var result: [Int] = []
    for r in max(row - 1, 0)...min(row + 1, rows - 1) {
      for c in max(column - 1, 0)...min(column + 1, columns - 1) where r != row || c != column {
        result.append(r * columns + c)
      }
    }
    return result
  }

  /// True when two cell-sized rectangles at these points overlap.
  func collide(_ a: PixelPoint, _ b: PixelPoint) -> Bool {
    abs(a.x - b.x) < cellWidth && abs(a.y - b.y) < cellHeight
  }
}
