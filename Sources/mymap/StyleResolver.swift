import Arguments
import Foundation
import Rendering

/// Finds the style that `--style` names: a file path, or a name looked up in the style folders.
///
/// An installed binary has no bundle to look in, so the folders are explicit: `$MYMAP_STYLES`, then the
/// data folders (`DataFolders`: beside the real executable, `$MYMAP_DATA`, the XDG data folders).
/// `default` is built in and needs no file.
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
    let message = StyleError.notFound(name: value, searched: searched).description
    let suggestion = closestMatch(to: value, among: availableNames()).map { "; did you mean \"\($0)\"?" }
    throw .badInput(message + (suggestion ?? ""))
  }

  /// The style names found in the search folders (and `default`), sorted, for a did-you-mean.
  static func availableNames() -> [String] {
    var names: Set<String> = ["default"]
    for folder in searchFolders() {
      let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
      for file in files where file.hasSuffix(".json") { names.insert(String(file.dropLast(5))) }
    }
    return names.sorted()
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

  /// `$MYMAP_STYLES`, then the `styles` folder of each of `DataFolders`.
  static func searchFolders() -> [URL] {
    var folders: [URL] = []
    if let custom = ProcessInfo.processInfo.environment["MYMAP_STYLES"], !custom.isEmpty {
      folders.append(URL(fileURLWithPath: custom))
    }
    folders += DataFolders.candidates().map { URL(fileURLWithPath: $0.styles) }
    return folders
  }
}
