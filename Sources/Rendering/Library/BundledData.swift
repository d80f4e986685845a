import Foundation
import MapStyle
import Tiles

/// Why data that comes with mymap (the built-in basemap, the named styles) could not be used.
public enum BundledDataError: Error, Equatable, CustomStringConvertible {
  /// No file where the data should be: `what` names it, `searched` lists the paths looked at.
  case notFound(what: String, searched: [String])
  /// A style name that is not a plain name (letters, digits, `-`, `_`).
  case badName(String)
  /// The file is there but cannot be used; `reason` says why (its own error's sentence).
  case unusable(path: String, reason: String)

  public var description: String {
    switch self {
    case .notFound(let what, let searched):
      return "\(what) was not found (looked for \(searched.joined(separator: ", "))); give its location"
        + " explicitly, or use a checkout of mymap that has its Data/ and Styles/ folders"
    case .badName(let name):
      return "\"\(name)\" is not a style name (letters, digits, \"-\" and \"_\" only)"
    case .unusable(let path, let reason):
      return "\(path) cannot be used: \(reason)"
    }
  }
}

/// Where the data that comes with mymap is for a program using the library: the package's own checkout
/// (`Data/basemap.sqlite`, `Styles/*.json`, `Styles/vector/*.json`), found from this source file's path
/// as the compiler saw it, so a package that depends on mymap (by path or from its checkouts) finds it
/// with no environment variable and no copying. A program moved to another machine without the checkout
/// gives its data explicitly (`BasemapData(path:)`, `Style.load(contentsOf:)`).
///
/// SwiftPM resources were not used: they must live inside a target's folder, and the command-line tool's
/// installed layout (`share/mymap`) and the checkout's `Data/` are shared with `basemap-builder`.
public enum BundledData {
  /// The package checkout: three folders above `Sources/Rendering/Library/`.
  public static let packageFolder = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  /// Where the built-in basemap's data file is.
  public static var basemapURL: URL {
    packageFolder.appendingPathComponent("Data").appendingPathComponent(BasemapData.fileName)
  }

  /// The folder of the named styles (`default`, `dark`, `categories`); `vector/` holds the MapLibre styles.
  public static var stylesFolder: URL { packageFolder.appendingPathComponent("Styles") }

  /// The largest style file read (a MapLibre style's own limit).
  static let maximumStyleBytes = 16 << 20

  /// Opens the built-in basemap's data.
  public static func basemap() throws(BundledDataError) -> BasemapData {
    let path = basemapURL.path
    guard FileManager.default.fileExists(atPath: path) else {
      throw .notFound(what: "the built-in basemap data", searched: [path])
    }
    do {
      return try BasemapData(path: path)
    } catch {
      throw .unusable(path: path, reason: "\(error)")
    }
  }

  /// The bytes of `<folder>/<name>.json`, for a name that is only a name.
  static func styleFile(_ name: String, in folder: URL, what: String) throws(BundledDataError) -> (
    Data, path: String
  ) {
    let plain = !name.isEmpty && name.unicodeScalars.allSatisfy { $0.isASCII && isNameCharacter($0) }
    guard plain else { throw .badName(name) }
    let path = folder.appendingPathComponent(name + ".json").path
    guard FileManager.default.fileExists(atPath: path) else {
      throw .notFound(what: "\(what) \"\(name)\"", searched: [path])
    }
    let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    guard size <= maximumStyleBytes, let data = FileManager.default.contents(atPath: path) else {
      throw .unusable(path: path, reason: "not a readable file of at most 16 MiB")
    }
    return (data, path)
  }

  private static func isNameCharacter(_ scalar: Unicode.Scalar) -> Bool {
    CharacterSet.alphanumerics.contains(scalar) || scalar == "-" || scalar == "_"
  }
}

extension BasemapData {
  /// The built-in basemap's data from mymap's package checkout (`BundledData`).
  public static func bundled() throws(BundledDataError) -> BasemapData { try BundledData.basemap() }
}

extension Style {
  /// A named style that comes with mymap: `default` (also built in: `Style.standard`), `dark`,
  /// `categories`, or any other `Styles/<name>.json` of the package.
  public static func named(_ name: String) throws(BundledDataError) -> Style {
    let (data, path) = try BundledData.styleFile(name, in: BundledData.stylesFolder, what: "the style")
    do {
      var style = try Style(json: data, path: path)
      if !style.nameWasGiven(in: data) { style.name = name }
      return style
    } catch {
      throw .unusable(path: path, reason: "\(error)")
    }
  }

  /// The names of the styles that come with mymap, sorted.
  public static var bundledNames: [String] {
    let files = (try? FileManager.default.contentsOfDirectory(atPath: BundledData.stylesFolder.path)) ?? []
    return files.filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted()
  }
}

extension MapStyle {
  /// A MapLibre style for vector tiles that comes with mymap: `light` or `dark` (`Styles/vector/`).
  public static func named(_ name: String) throws(BundledDataError) -> MapStyle {
    let folder = BundledData.stylesFolder.appendingPathComponent("vector")
    let (data, path) = try BundledData.styleFile(name, in: folder, what: "the vector style")
    do {
      return try MapStyle(bytes: data)
    } catch {
      throw .unusable(path: path, reason: "\(error)")
    }
  }
}
