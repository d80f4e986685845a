import Arguments
import Foundation

/// `render --watch`: draws the map, then draws it again whenever the places change (the store, or the
/// `--locations` file), for a wall display or a browser that reloads the image. Each map is written
/// atomically; a redraw that fails says why and the watch goes on (a places file saved half-edited must
/// not end it). Ctrl-C or SIGTERM ends it with exit 0 once the map in hand is written.
enum WatchRender {
  static let option = OptionSpec.flag(
    "watch",
    help:
      "Draw the map, then draw it again whenever the store (or the --locations file) changes, until"
      + " Ctrl-C; one line per redraw unless --quiet.")
  /// Milliseconds without another change before a redraw (the test suite shortens it).
  static let quietVariable = "MYMAP_WATCH_QUIET_MS"
  static let defaultQuiet: Duration = .milliseconds(300)

  static func run(_ arguments: ParsedArguments) throws(CLIError) {
    for name in ["out", "layout-json"] where arguments.string(name) == "-" {
      throw .usage(
        "--\(name) - cannot be used with --watch: each change rewrites the file; give --\(name) FILE")
    }
    let locations = arguments.string("locations")
    if locations == "-" {
      throw .usage("--locations - cannot be watched (standard input is read once); give --locations FILE")
    }
    let store = StoreAccess.path(arguments)
    let watched = locations.map { [$0] } ?? [store, store + "-wal", store + "-journal"]
    let quiet = arguments.flag("quiet")
    let out = arguments.string("out")!
    let signals = try StopSignals()
    defer { signals.restore() }
    // Watching starts before the first map, so a change made while it is drawn is not missed.
    let watcher: FileWatcher
    do throws(CLIError) {
      watcher = try FileWatcher(files: watched)
    } catch {
      if locations == nil && !FileManager.default.fileExists(atPath: store) {
        throw .usage(
          "no places stored yet (\(store) does not exist); add some with 'mymap add' or 'mymap import'"
            + " before watching")
      }
      throw error
    }
    // The store is opened anew for each map: one replaced by a rename must be read from its new file.
    let resources = RenderResources(sharing: true, sharesStores: false)
    var first = true
    // The last map written: a wake-up that changes nothing drawn (a writer that opened the store and has
    // not committed yet, a file saved unchanged) is not a redraw. Forgotten after an error, so that the
    // map of a fixed file is reported again.
    var last: RenderCommand.DrawnMap?
    repeat {
      let started = ContinuousClock.now
      var fileWarnings: [String] = []
      do throws(CLIError) {
        let map = try RenderCommand.makeMap(
          arguments, resources: resources, progress: nil, interruptible: false, fileWarnings: &fileWarnings,
          unlessSameAs: last)
        last = map.drawn
        if !quiet && map.written {
          for warning in fileWarnings + map.warnings { Console.warning(warning) }
          let seconds = String(format: "%.2f", (ContinuousClock.now - started) / .seconds(1))
          let drawn = "\(out) (\(count(map.places, "place"))) in \(seconds) s"
          Console.note(
            first
              ? "drew \(drawn); watching \(watched[0]) for changes (Ctrl-C to stop)" : "redrew \(drawn)")
        }
      } catch {
        last = nil
        if !quiet { for warning in fileWarnings { Console.warning(warning) } }
        // Options that are wrong stay wrong: the first map's usage error ends the watch.
        if first && error.exitCode == 2 { throw error }
        Console.error(error.message + (first ? "; watching \(watched[0]) for changes (Ctrl-C to stop)" : ""))
      }
      first = false
    } while watcher.waitForChange(quiet: quietPeriod(), stop: signals.descriptor)
  }

  /// `$MYMAP_WATCH_QUIET_MS` when it is a whole number of milliseconds up to a minute, else 300 ms.
  static func quietPeriod(environment: [String: String] = ProcessInfo.processInfo.environment) -> Duration {
    guard let text = environment[quietVariable], let milliseconds = Int(text),
      (0...60_000).contains(milliseconds)
    else { return defaultQuiet }
    return .milliseconds(milliseconds)
  }
}
