// mymap-bench: renders the benchmark scenes repeatedly from a warm tile cache and prints, per scene, the
// median milliseconds and the peak memory. Run it as `swift run -c release mymap-bench [RUNS]`, or
// `mymap-bench --vector [--runs N] [--tiles PMTILES] [--size WxH] [--out PNG] [--tile-cache on|off]` for
// the street map over vector tiles alone (what Scripts/bench-vector runs; decoded tiles kept between its
// renders unless `--tile-cache off`), or `mymap-bench --million [--runs N] [--store PATH] [--out PNG]` for a
// store of 1,000,000 places rendered whole (clustered). Figures, not tests: there are no thresholds here.
import Foundation
import MapMath
import Places
import Rendering
import Tiles

struct Scene {
  let name: String
  let file: String
  let size: PixelSize
  let scale: Double
  let format: OutputFormat
}

let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
  .deletingLastPathComponent()
let shared = repository.appendingPathComponent("../shared").standardizedFileURL
let bench = shared.appendingPathComponent("bench").path
/// Runs a scene of its own (the rest of this file is the default scenes), then exits: 1 on an error.
func runAlone(_ body: () throws -> Void) -> Never {
  do {
    try body()
    exit(0)
  } catch {
    FileHandle.standardError.write(Data("mymap-bench: \(error)\n".utf8))
    exit(1)
  }
}
switch CommandLine.arguments.dropFirst().first {
case "--vector":
  var scene = VectorScene(repository: repository)
  runAlone {
    try scene.read(CommandLine.arguments.dropFirst(2))
    try scene.run()
  }
case "--million":
  var scene = MillionScene(repository: repository)
  runAlone {
    try scene.read(CommandLine.arguments.dropFirst(2))
    try scene.run()
  }
case "--make-million-store" where CommandLine.arguments.count == 4:
  runAlone {
    try MillionScene.makeStore(
      path: CommandLine.arguments[2], count: Int(CommandLine.arguments[3]) ?? 1_000_000)
  }
default:
  break
}
let runs = CommandLine.arguments.count > 1 ? max(Int(CommandLine.arguments[1]) ?? 15, 1) : 15

var scenes = [
  Scene(
    name: "europe-trip", file: repository.appendingPathComponent("Examples/europe-trip.json").path,
    size: PixelSize(width: 1200, height: 800), scale: 1, format: .png),
  Scene(
    name: "europe-trip@2x", file: repository.appendingPathComponent("Examples/europe-trip.json").path,
    size: PixelSize(width: 1200, height: 800), scale: 2, format: .png),
  Scene(
    name: "europe-trip.svg", file: repository.appendingPathComponent("Examples/europe-trip.json").path,
    size: PixelSize(width: 1200, height: 800), scale: 1, format: .svg),
]
let sharedScenes: [(String, PixelSize)] = [
  ("one", PixelSize(width: 800, height: 600)), ("city", PixelSize(width: 1200, height: 800)),
  ("trip", PixelSize(width: 1600, height: 1000)), ("many", PixelSize(width: 1200, height: 800)),
]
if FileManager.default.fileExists(atPath: bench) {
  for (name, size) in sharedScenes {
    scenes.append(Scene(name: name, file: bench + "/\(name).json", size: size, scale: 1, format: .png))
  }
} else {
  print("note: \(bench) not found; only the Examples scenes run")
}

// The whole-world z0-6 tiles where present (they cover every scene), else the example's Europe tiles.
let worldTiles = shared.appendingPathComponent("data/osm/osm-z0-6.mbtiles").path
let tilePath =
  FileManager.default.fileExists(atPath: worldTiles)
  ? worldTiles : repository.appendingPathComponent("Examples/tiles/osm-europe.mbtiles").path
let tiles = try openTileSource(at: tilePath)
let cache = TileImageCache(byteLimit: 256 << 20)

/// Milliseconds of `runs` renders of a request, sorted (after the caller's warm-up render).
func renderTimes(_ request: RenderRequest) throws -> [Double] {
  var times: [Double] = []
  for _ in 0..<runs {
    let start = DispatchTime.now().uptimeNanoseconds
    _ = try Snapshotter.render(request)
    times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
  }
  return times.sorted()
}

/// Resets the kernel's peak-RSS mark so each scene reports its own peak (Linux only).
func resetPeakMemory() {
  try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
}

/// The peak resident set size since the last reset, in MiB.
func peakMemoryMiB() -> Double {
  guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
    let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
  else { return .nan }
  let kilobytes = Double(line.split(separator: " ").dropFirst().first ?? "") ?? .nan
  return kilobytes / 1024
}

print("tiles: \(tilePath)")
print("runs per scene: \(runs) (after one warm-up run)")
print(
  "scene".padding(toLength: 18, withPad: " ", startingAt: 0)
    + "places  pixels       median ms   min ms   peak MiB   bytes")
for scene in scenes {
  let places = try LocationsFile.read(path: scene.file)
  var request = RenderRequest(annotations: places.locations, user: places.user)
  request.size = scene.size
  request.scale = scene.scale
  request.format = scene.format
  request.tiles = tiles
  request.tileCache = cache
  let warmUp = try Snapshotter.render(request)
  resetPeakMemory()
  let times = try renderTimes(request)
  let median = times[times.count / 2]
  let pixels = "\(warmUp.layout.width)×\(warmUp.layout.height)"
  print(
    scene.name.padding(toLength: 18, withPad: " ", startingAt: 0)
      + String(places.locations.count).padding(toLength: 8, withPad: " ", startingAt: 0)
      + pixels.padding(toLength: 13, withPad: " ", startingAt: 0)
      + String(format: "%9.1f %8.1f %10.1f   %d", median, times[0], peakMemoryMiB(), warmUp.data.count))
}

// The built-in basemap alone (no places): an 800×600 view over Paris at zooms 0 to 18.
let basemapPath = repository.appendingPathComponent("Data/basemap.sqlite").path
if FileManager.default.fileExists(atPath: basemapPath) {
  let basemap = try BasemapData(path: basemapPath)
  print("\nbuilt-in basemap, 800×600 over Paris, PNG (data read + drawing + encoding)")
  print("zoom  median ms   min ms   bytes")
  for zoom in [0, 2, 4, 5, 6, 8, 10, 12, 14, 16, 18] {
    var request = RenderRequest(annotations: [])
    request.center = Coordinate(latitude: 48.8566, longitude: 2.3522)
    request.zoom = Double(zoom)
    request.basemap = basemap
    let warmUp = try Snapshotter.render(request)
    let times = try renderTimes(request)
    print(
      String(zoom).padding(toLength: 6, withPad: " ", startingAt: 0)
        + String(format: "%9.1f %8.1f   %d", times[times.count / 2], times[0], warmUp.data.count))
  }
}
