import Foundation
import MapMath
import Places
import Rendering
import Tiles

/// The 1,000,000-place scene: a store of a million synthetic places (made once, deterministically, and kept
/// at `--store`), rendered whole at 1200×800 over the built-in basemap, `runs` times in one process. Each
/// render goes from the store's file to the PNG's bytes: open the store, read the coordinates
/// (`LocationStore.places`), cluster, read and measure the texts of the pins drawn alone, draw, encode.
/// Prints each run, the median, the process's peak RSS (getrusage ru_maxrss) and what the map showed.
struct MillionScene {
  var runs = 5
  var store = "/tmp/mymap-bench-1M/locations.sqlite"
  var count = 1_000_000
  var out: String?
  let basemapPath: String

  init(repository: URL) {
    basemapPath = repository.appendingPathComponent("Data/basemap.sqlite").path
  }

  /// Reads `--runs N`, `--store PATH`, `--count N` (places in a new store), `--out PNG`.
  mutating func read(_ arguments: ArraySlice<String>) throws {
    for (option, value) in try optionPairs(arguments) {
      switch option {
      case "--runs": runs = max(Int(value) ?? runs, 1)
      case "--store": store = value
      case "--count": count = max(Int(value) ?? count, 1)
      case "--out": out = value
      default: throw BenchUsage("unknown option \(option)")
      }
    }
  }

  func run() throws {
    if !FileManager.default.fileExists(atPath: store) {
      // Made in a process of its own, so that this one's peak memory is the render's alone.
      try makeStoreInChild()
    } else {
      // A store made by an older mymap is brought up to the current schema once, outside the timed runs
      // (they open it read-only, which cannot migrate it).
      _ = try LocationStore(path: store, create: false)
    }
    let basemap = try BasemapData(path: basemapPath)
    print("store: \(store)")
    print("each run: open the store, read every coordinate, cluster, read the texts of the lone pins,")
    print("draw over the built-in basemap at 1200×800, encode the PNG (nothing written to disk)")
    var times: [Double] = []
    var last: RenderResult?
    for run in 1...runs {
      let start = DispatchTime.now().uptimeNanoseconds
      let cpuStart = MillionScene.cpuMilliseconds()
      let locations = try LocationStore(path: store, create: false, access: .readOnly)
      var request = RenderRequest(annotations: [])
      request.places = try locations.places()
      let read = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
      request.size = PixelSize(width: 1200, height: 800)
      request.basemap = basemap
      let result = try Snapshotter.render(request)
      let milliseconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
      times.append(milliseconds)
      let phases = result.phaseTimes.map { String(format: "%@ %.0f", $0.name, $0.seconds * 1000) }
      print(
        String(
          format: "run %d: %.1f ms, CPU %.0f ms (read coordinates %.0f, ", run, milliseconds,
          MillionScene.cpuMilliseconds() - cpuStart, read)
          + phases.joined(separator: ", ") + ")")
      last = result
    }
    guard let last else { return }
    if let out { try Data(last.data).write(to: URL(fileURLWithPath: out)) }
    let clustered = last.layout.clusters.reduce(0) { $0 + $1.count }
    print(
      "places: \(clustered + last.layout.annotations.count) drawn as \(last.layout.clusters.count) clusters"
        + " (\(clustered) places) and \(last.layout.annotations.count) pins")
    print(String(format: "median: %.1f ms", times.sorted()[times.count / 2]))
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    print(
      String(
        format: "peak RSS: %.1f MiB (getrusage ru_maxrss, whole process)", Double(usage.ru_maxrss) / 1024))
  }

  /// The process's user and system CPU time so far (a figure that a busy machine inflates less).
  static func cpuMilliseconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    func milliseconds(_ time: timeval) -> Double { Double(time.tv_sec) * 1000 + Double(time.tv_usec) / 1000 }
    return milliseconds(usage.ru_utime) + milliseconds(usage.ru_stime)
  }

  private func makeStoreInChild() throws {
    let child = Process()
    child.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
    child.arguments = ["--make-million-store", store, String(count)]
    try child.run()
    child.waitUntilExit()
    guard child.terminationStatus == 0 else { throw BenchUsage("making \(store) failed") }
  }

  /// Fills a new store with `count` places: clumps around 400 centres spread over the land-ish latitudes,
  /// from a fixed-seed generator, so every store made is the same. Imported 100,000 at a time.
  static func makeStore(path: String, count: Int) throws {
    let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let partial = path + ".partial"
    try? FileManager.default.removeItem(atPath: partial)
    let store = try LocationStore(path: partial)
    var random = XorShift(seed: 0x6D79_6D61_7031_4D)
    let centres = (0..<400).map { _ in
      (
        latitude: random.uniform(-50, 65), longitude: random.uniform(-170, 175),
        spread: random.uniform(0.2, 4)
      )
    }
    let start = DispatchTime.now().uptimeNanoseconds
    var made = 0
    while made < count {
      var batch: [Location] = []
      for index in made..<min(made + 100_000, count) {
        let centre = centres[Int(random.next() % UInt64(centres.count))]
        let latitude = min(max(centre.latitude + random.gaussian() * centre.spread, -85), 85)
        var longitude = centre.longitude + random.gaussian() * centre.spread
        if longitude > 180 { longitude -= 360 }
        if longitude < -180 { longitude += 360 }
        batch.append(
          Location(
            id: String(format: "bench-%07d", index), latitude: latitude, longitude: longitude,
            locationDescription: "Place \(index)", category: "Landmark",
            date: Date(timeIntervalSince1970: 1_700_000_000 + Double(index) * 60)))
      }
      _ = try store.importLocations(batch, idsWereGiven: [], dryRun: false)
      made += batch.count
    }
    try FileManager.default.moveItem(atPath: partial, toPath: path)
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    print(String(format: "made %@ with %d places in %.1f s", path, count, seconds))
  }
}

/// A small fixed-seed generator (xorshift64*): the same numbers on every machine.
struct XorShift {
  var state: UInt64
  init(seed: UInt64) { state = seed | 1 }

  mutating func next() -> UInt64 {
    state ^= state >> 12
    state ^= state << 25
    state ^= state >> 27
    return state &* 0x2545_F491_4F6C_DD1D
  }

  mutating func uniform(_ low: Double, _ high: Double) -> Double {
    low + (high - low) * Double(next() >> 11) / Double(1 << 53)
  }

  /// A standard normal number (Box–Muller).
  mutating func gaussian() -> Double {
    let u = max(uniform(0, 1), 1e-12)
    let v = uniform(0, 1)
    return (-2 * log(u)).squareRoot() * cos(2 * .pi * v)
  }
}
