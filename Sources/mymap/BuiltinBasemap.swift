import Foundation
import Tiles

/// Opens the built-in vector basemap's data for `render`.
enum BuiltinBasemap {
  /// What `--tiles` (or a style's `basemap.tiles`) says to ask for it.
  static let name = "builtin"
  /// What `--tiles` says for no basemap at all: the style's plain background.
  static let none = "none"

  /// The basemap data: `$MYMAP_BASEMAP` when set, else the first `basemap.sqlite` of `DataFolders`.
  /// Missing or unreadable data is bad input (exit 3), never a silent plain background: a cron job would
  /// publish blank maps.
  static func open(environment: [String: String] = ProcessInfo.processInfo.environment) throws(CLIError)
    -> any BasemapSource
  {
    let path: String
    if let override = environment[BasemapData.environmentVariable], !override.isEmpty {
      path = override
    } else {
      let found = DataFolders.basemap(environment: environment)
      guard let first = found.path else {
        throw .badInput(
          "the built-in basemap data was not found (looked for \(found.searched.joined(separator: ", ")));"
            + " install mymap with its data (Scripts/install), set $\(DataFolders.dataVariable) to its"
            + " share/mymap folder, or draw a plain background with --tiles none")
      }
      path = first
    }
    do {
      return try BasemapData(path: path)
    } catch BasemapDataError.notFound(let missing) {
      throw .badInput(
        "the built-in basemap data was not found (\(missing) does not exist, from"
          + " $\(BasemapData.environmentVariable)); fix or unset it, or draw a plain background with"
          + " --tiles none")
    } catch {
      throw .badInput("\(error)")
    }
  }
}
