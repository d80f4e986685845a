import Foundation
import Rendering

/// Finds the style that `--style` names: a file path, or a name looked up in the style folders.
///
/// An installed binary has no bundle to look in, so the folders are explicit: `$MYMAP_STYLES`,
/// `../share/mymap/styles` beside the executable, and a `Styles` folder in the executable's folder or the
/// folders above it (a build inside the repository). `default` is built in and needs no file.
enum StyleResolver {
  static func resolve(_ value: String) throws(CLIError) -> Style {
    let looksLikePath = value.contains("/") || value.lowercased().hasSuffix(".json")
    if looksLikePath { return try load(URL(fileURLWithPath: value)) }
    for folder in searchFolders() {
      let candidate = folder.appendingPathComponent(value + ".json")
      if FileManager.default.fileExists(atPath: candidate.path) { return try load(candidate) }
    }
    if value == "default" { return .standard }
    let searched = searchFolders().map(\.path)
    throw .badInput(StyleError.notFound(name: value, searched: searched).description)
  }

  private static func load(_ url: URL) throws(CLIError) -> Style {
    guard FileManager.default.fileExists(atPath: url.path) else {
      throw .badInput("no style file \(url.path)")
    }
    do {
      return try Style.load(contentsOf: url)
    } catch {
      throw .badInput("\(error)")
    }
  }

  static func searchFolders() -> [URL] {
    var folders: [URL] = []
    if let custom = ProcessInfo.processInfo.environment["MYMAP_STYLES"], !custom.isEmpty {
      folders.append(URL(fileURLWithPath: custom))
    }
    let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    var folder = executable.deletingLastPathComponent()
    folders.append(folder.appendingPathComponent("../share/mymap/styles").standardizedFileURL)
    for _ in 0..<4 {
      let styles = folder.appendingPathComponent("Styles")
      if FileManager.default.fileExists(atPath: styles.path) {
        folders.append(styles.standardizedFileURL)
        break
      }
      folder = folder.deletingLastPathComponent()
    }
    return folders
  }
}
