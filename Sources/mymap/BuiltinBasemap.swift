import Foundation
import Tiles

/// Opens the built-in vector basemap's data for `render`.
enum BuiltinBasemap {
  /// What `--tiles` (or a style's `basemap.tiles`) says to ask for it.
  static let name = "builtin"

  /// The basemap data of `BasemapData.locate`. When it cannot be found or read: bad input (exit 3) if it was
  /// `required` (`--tiles builtin`), else nil and a warning (a plain background is drawn instead).
  static func open(required: Bool, warnings: inout [String]) throws(CLIError) -> (any BasemapSource)? {
    let problem: String
    if let path = BasemapData.locate() {
      do {
        return try BasemapData(path: path)
      } catch BasemapDataError.notFound(let missing) {
        problem = "the built-in basemap data was not found (\(missing) does not exist)"
      } catch {
        problem = "\(error)"
      }
    } else {
      problem =
        "the built-in basemap data was not found (no \(BasemapData.fileName) in share/mymap or Data/ near the"
        + " executable, and $\(BasemapData.environmentVariable) is not set)"
    }
    if required { throw .badInput(problem) }
    warnings.append(problem + "; drawing a plain background")
    return nil
  }
}
