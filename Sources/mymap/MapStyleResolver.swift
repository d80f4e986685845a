import Arguments
import FileSystem
import Foundation
import MapStyle
import Rendering

/// The MapLibre style that draws vector tiles: `--map-style FILE`, else the bundled one (`Styles/vector/`)
/// that goes with `--style` (its `basemap.vectorStyle`: `light` unless it says `dark` or a file).
enum MapStyleResolver {
  static let option = OptionSpec.value(
    "map-style", valueName: "FILE",
    help:
      "A MapLibre style (JSON, spec version 8) for vector tiles, instead of the bundled one that goes with"
      + " --style. Its sources, glyphs and sprites are never fetched: --tiles (or a local mbtiles:// or"
      + " pmtiles:// source in the style) provides the tiles.")

  /// The largest style file read.
  static let maximumBytes = 16 << 20

  /// The style and the file it came from.
  static func resolve(_ arguments: ParsedArguments, style: Style) throws(CLIError) -> (MapStyle, path: String)
  {
    if let path = arguments.string("map-style") { return (try load(path), path) }
    let name = style.basemap.vectorStyle ?? "light"
    let looksLikePath = name.contains("/") || name.lowercased().hasSuffix(".json")
    if looksLikePath { return (try load(name), name) }
    for folder in StyleResolver.searchFolders() {
      let candidate = folder.appendingPathComponent("vector/\(name).json").path
      if FileManager.default.fileExists(atPath: candidate) { return (try load(candidate), candidate) }
    }
    let searched = StyleResolver.searchFolders().map { $0.appendingPathComponent("vector").path }
    throw .badInput(
      "no vector style named \"\(name)\" (looked in \(searched.joined(separator: ", "))); give one with"
        + " --map-style")
  }

  /// The local archive a style's vector source names (`pmtiles://helsinki.pmtiles`), relative to the
  /// style's own folder; nil when it names none or the file is not there.
  static func localTiles(of style: MapStyle, stylePath: String) -> String? {
    guard let archive = style.sources.first(where: { $0.type == "vector" })?.archive else { return nil }
    var location = archive.location
    if location.hasPrefix("//") { location.removeFirst(2) }
    let folder = URL(fileURLWithPath: stylePath).deletingLastPathComponent()
    let path = location.hasPrefix("/") ? location : folder.appendingPathComponent(location).path
    return FileManager.default.fileExists(atPath: path) ? path : nil
  }

  private static func load(_ path: String) throws(CLIError) -> MapStyle {
    let data: Data?
    do throws(RegularFileError) {
      data = try RegularFile.read(path, limit: maximumBytes)
    } catch {
      throw .badInput("cannot read map style \(path): \(error.reason)")
    }
    guard let data else { throw .badInput("no map style file \(path)") }
    do throws(MapStyleError) {
      return try MapStyle(bytes: data)
    } catch {
      throw .badInput("\(path): \(error)")
    }
  }
}
