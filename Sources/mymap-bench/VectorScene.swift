import Foundation
import MapMath
import MapStyle
import Places
import Rendering
import Tiles

/// The street-map scene: the Helsinki example over vector tiles with the bundled light style, rendered
/// `runs` times in one process (after one warm-up render), each render from the request on (the tiles
/// are read and decoded every time). Prints the median and each stage's median, then one `result` line
/// of JSON for `Scripts/bench-vector`.
struct VectorScene {
  var runs = 15
  var tiles: String
  var places: String
  var mapStyle: String
  var size = PixelSize(width: 1200, height: 800)
  var out: String?
  /// Whether renders keep decoded tiles between them (`VectorTileCache`, as a batch or a watch does).
  var keepsTiles = true

  init(repository: URL) {
    tiles = repository.appendingPathComponent("Examples/tiles/helsinki.pmtiles").path
    places = repository.appendingPathComponent("Examples/helsinki.json").path
    mapStyle = repository.appendingPathComponent("Styles/vector/light.json").path
  }

  /// Reads `--runs N`, `--tiles PATH`, `--size WxH`, `--out PNG` (the warm-up render's image).
  mutating func read(_ arguments: ArraySlice<String>) throws {
    for (option, value) in try optionPairs(arguments) {
      switch option {
      case "--runs": runs = max(Int(value) ?? runs, 1)
      case "--tiles": tiles = value
      case "--out": out = value
      case "--tile-cache":
        guard value == "on" || value == "off" else { throw BenchUsage("--tile-cache wants on or off") }
        keepsTiles = value == "on"
      case "--size":
        let parts = value.split(separator: "x").compactMap { Double($0) }
        guard parts.count == 2 else { throw BenchUsage("--size wants WxH") }
        size = PixelSize(width: parts[0], height: parts[1])
      default: throw BenchUsage("unknown option \(option)")
      }
    }
  }

  func run() throws {
    let started = ContinuousClock.now
    let source = try openTileSource(at: tiles)
    let opened = ContinuousClock.now - started
    let style = try MapStyle(bytes: try Data(contentsOf: URL(fileURLWithPath: mapStyle)))
    let set = try LocationsFile.read(path: places)
    var request = RenderRequest(annotations: set.locations, user: set.user)
    request.size = size
    request.tiles = source
    request.mapStyle = style
    if keepsTiles { request.vectorTileCache = VectorTileCache(byteLimit: 64 << 20) }
    let warmUp = try Snapshotter.render(request)
    if let out { try Data(warmUp.data).write(to: URL(fileURLWithPath: out)) }
    resetPeakMemory()
    var totals: [Double] = []
    var processorTimes: [Double] = []
    var phases: [String: [Double]] = [:]
    var phaseOrder: [String] = []
    for _ in 0..<runs {
      let startCPU = processorMilliseconds()
      let start = ContinuousClock.now
      let result = try Snapshotter.render(request)
      totals.append(milliseconds(ContinuousClock.now - start))
      processorTimes.append(processorMilliseconds() - startCPU)
      for phase in result.phaseTimes {
        if phases[phase.name] == nil { phaseOrder.append(phase.name) }
        phases[phase.name, default: []].append(phase.seconds * 1000)
      }
    }
    let median = Self.median(totals)
    print("vector scene: \(places) over \(tiles)")
    print(
      String(
        format: "%d renders of %.0f×%.0f PNG: median %.1f ms, min %.1f ms, %d bytes, peak %.1f MiB",
        runs, size.width, size.height, median, totals.min() ?? 0, warmUp.data.count, peakMemoryMiB()))
    print(
      String(
        format: "CPU (user + system, all threads) per render: median %.1f ms", Self.median(processorTimes)))
    print(String(format: "tile source opened in %.2f ms", milliseconds(opened)))
    for name in phaseOrder {
      print(
        "  " + name.padding(toLength: 14, withPad: " ", startingAt: 0)
          + String(format: "%7.2f ms", Self.median(phases[name] ?? [])))
    }
    let phaseJSON = phaseOrder.map { "\"\($0)\": \(String(format: "%.3f", Self.median(phases[$0] ?? [])))" }
    print(
      "result {\"median_ms\": \(String(format: "%.3f", median)), \"cpu_median_ms\": "
        + "\(String(format: "%.3f", Self.median(processorTimes))), \"min_ms\": "
        + "\(String(format: "%.3f", totals.min() ?? 0)), \"open_ms\": "
        + "\(String(format: "%.3f", milliseconds(opened))), \"bytes\": \(warmUp.data.count), "
        + "\"phases_ms\": {\(phaseJSON.joined(separator: ", "))}}")
  }

  private static func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
  }
}

/// The process's CPU time so far (user and system, every thread), in milliseconds.
func processorMilliseconds() -> Double {
  var usage = rusage()
  getrusage(RUSAGE_SELF.rawValue, &usage)
  func milliseconds(_ time: timeval) -> Double { Double(time.tv_sec) * 1000 + Double(time.tv_usec) / 1000 }
  return milliseconds(usage.ru_utime) + milliseconds(usage.ru_stime)
}

func milliseconds(_ duration: Duration) -> Double {
  Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) * 1e-15
}

struct BenchUsage: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}

/// A scene's `--option value` pairs, in order.
func optionPairs(_ arguments: ArraySlice<String>) throws -> [(option: String, value: String)] {
  var rest = arguments
  var pairs: [(option: String, value: String)] = []
  while let option = rest.popFirst() {
    guard let value = rest.popFirst() else { throw BenchUsage("\(option) needs a value") }
    pairs.append((option, value))
  }
  return pairs
}
