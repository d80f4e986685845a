import Arguments
import Foundation
import TileFetching
import Tiles

/// What `render --tiles URL` and `tiles fetch` share: the template, the cache folder, the fetcher with its
/// User-Agent, the attribution and the tile limit.
enum TileServerAccess {
  static let defaultMaximumTiles = 2_000

  static let options: [OptionSpec] = [
    .value(
      "max-tiles", valueName: "N",
      help: "Refuse to fetch more than N tiles in one command (default 2000; tile servers are shared, and"
        + " bulk downloads are against most usage policies)."),
    .value(
      "attribution", valueName: "TEXT",
      help: "The credit the tile provider requires on every map (known for openstreetmap.org and a few"
        + " others; render draws it for any tile source)."),
    .value(
      "contact", valueName: "TEXT",
      help: "An e-mail or URL added to the User-Agent so the tile server's operators can reach you"
        + " (default: $MYMAP_CONTACT)."),
  ]

  /// True for `http://…` and `https://…`: a tile URL template rather than a path.
  static func isTemplate(_ text: String) -> Bool {
    let lowered = text.lowercased()
    return lowered.hasPrefix("http://") || lowered.hasPrefix("https://")
  }

  /// The template, with `{key:NAME}` read from the environment. A bad template is a usage error.
  static func template(_ text: String) throws(CLIError) -> TileURLTemplate {
    do {
      return try TileURLTemplate(text, environment: ProcessInfo.processInfo.environment)
    } catch {
      throw .usage("\(error)")
    }
  }

  /// `$XDG_CACHE_HOME/mymap/tiles`, else `~/.cache/mymap/tiles` (DESIGN §4).
  static var cacheRoot: String {
    let environment = ProcessInfo.processInfo.environment
    if let base = environment["XDG_CACHE_HOME"], base.hasPrefix("/") { return base + "/mymap/tiles" }
    let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
    return home + "/.cache/mymap/tiles"
  }

  /// The default cache of one tile source: a folder per source (and per tile size) under the cache root.
  static func defaultCache(for template: TileURLTemplate, retina: Bool) -> String {
    cacheRoot + "/" + template.cacheName + (retina ? "@2x" : "")
  }

  static func maximumTiles(_ arguments: ParsedArguments) throws(CLIError) -> Int {
    do {
      return try arguments.value("max-tiles", as: tileLimit) ?? defaultMaximumTiles
    } catch {
      throw .usage("\(error)")
    }
  }

  static func fetcher(_ arguments: ParsedArguments) -> TileFetcher {
    let contact = arguments.string("contact") ?? ProcessInfo.processInfo.environment["MYMAP_CONTACT"]
    return TileFetcher(version: version, contact: contact)
  }

  /// The warning for a tile source whose credit nobody named, because most providers require one.
  static func noAttributionWarning(_ template: TileURLTemplate) -> String {
    "no attribution is known for \(template.redacted); most tile providers require one on every map:"
      + " give it with --attribution TEXT"
  }

  /// Opens (or creates) the cache; a cache that cannot be used is bad input.
  static func openCache(at path: String, for description: TileCacheDescription) throws(CLIError)
    -> any TileCacheStore
  {
    do {
      return try openTileCache(at: path, for: description)
    } catch {
      throw .badInput(naming("--to", in: "\(error)"))
    }
  }

  /// A cache error's advice ("choose another cache", in the library's words) with what chooses the cache:
  /// `--to` in `tiles fetch`, `XDG_CACHE_HOME` in `render`.
  static func naming(_ chooser: String, in message: String) -> String {
    let advice = ["choose another cache", "choose an empty or new folder", "choose a new .mbtiles file"]
    return advice.contains(where: message.hasSuffix) ? message + " with \(chooser)" : message
  }

  /// The CLI's face of a download failure; `chooser` is what chooses the cache in the command.
  static func map(_ error: TileDownloadError, cacheChooser: String = "--to") -> CLIError {
    switch error {
    case .tooManyTiles(let needed, let limit):
      let raise = needed <= 1_000_000 ? ", or raise the limit with --max-tiles \(needed)" : ""
      return .usage(
        "this would fetch \(needed) tiles, more than the limit of \(limit) per command (tile servers are"
          + " shared: fetch fewer zooms or a smaller area\(raise))")
    case .interrupted: return .interrupted(error.description)
    case .cache: return .badInput(naming(cacheChooser, in: error.description))
    }
  }

  /// 1 to 1,000,000: more than a million tiles in one command is not a map, it is a mirror.
  private static func tileLimit(_ text: String) throws -> Int {
    guard let number = Int(text), (1...1_000_000).contains(number) else {
      throw InvalidValue("expected a whole number from 1 to 1000000")
    }
    return number
  }
}
