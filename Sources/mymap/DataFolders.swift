import Foundation

/// One place mymap's shared data may live: the built-in basemap's file and the styles folder (whose
/// `vector/` holds the MapLibre styles).
struct DataFolder: Equatable {
  /// Where `basemap.sqlite` would be.
  var basemap: String
  /// Where `<name>.json` styles would be.
  var styles: String
  /// The folder as a person would look for it, for messages.
  var root: String
}

/// Where `render` looks for its data (ARCHITECTURE.md §4), in order:
/// 1. beside the real executable (`/proc/self/exe`, so neither a symbolic link on `PATH` nor the working
///    folder matters): `<bin>/../share/mymap` for an installed mymap, and a checkout's `Data/` and `Styles/`
///    in the executable's folder or up to five above it (a build inside the repository);
/// 2. `$MYMAP_DATA` (laid out as `share/mymap`);
/// 3. `$XDG_DATA_HOME/mymap` (else `~/.local/share/mymap`), then each of `$XDG_DATA_DIRS` (else
///    `/usr/local/share:/usr/share`) followed by `/mymap`.
///
/// `$MYMAP_BASEMAP` (a file) and `$MYMAP_STYLES` (a folder) come before all of these.
enum DataFolders {
  static let dataVariable = "MYMAP_DATA"

  /// Every candidate, in search order, without duplicates.
  static func candidates(
    environment: [String: String] = ProcessInfo.processInfo.environment,
    executable: String? = executablePath()
  ) -> [DataFolder] {
    var folders: [DataFolder] = []
    if let executable {
      let bin = URL(fileURLWithPath: executable).deletingLastPathComponent()
      folders.append(shared(bin.appendingPathComponent("../share/mymap").standardizedFileURL.path))
      var current = bin
      for _ in 0...5 {
        let data = current.appendingPathComponent("Data")
        let styles = current.appendingPathComponent("Styles")
        if FileManager.default.fileExists(atPath: data.path),
          FileManager.default.fileExists(atPath: styles.path)
        {
          folders.append(
            DataFolder(
              basemap: data.appendingPathComponent("basemap.sqlite").path,
              styles: styles.path, root: current.path))
          break
        }
        current = current.deletingLastPathComponent()
      }
    }
    if let data = environment[dataVariable], !data.isEmpty { folders.append(shared(data)) }
    let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 }
    if let dataHome = environment["XDG_DATA_HOME"], dataHome.hasPrefix("/") {
      folders.append(shared(dataHome + "/mymap"))
    } else if let home {
      folders.append(shared(home + "/.local/share/mymap"))
    }
    let dirs = environment["XDG_DATA_DIRS"].flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/local/share:/usr/share"
    // The XDG spec ignores relative entries: they would depend on the working folder.
    for dir in dirs.split(separator: ":") where dir.hasPrefix("/") {
      folders.append(shared(String(dir) + "/mymap"))
    }
    var seen: Set<String> = []
    return folders.filter { seen.insert($0.root).inserted }
  }

  /// The first `basemap.sqlite` that exists, and every place looked in (for the message when none does).
  static func basemap(
    environment: [String: String] = ProcessInfo.processInfo.environment,
    executable: String? = executablePath()
  ) -> (path: String?, searched: [String]) {
    let candidates = candidates(environment: environment, executable: executable)
    for candidate in candidates {
      var isDirectory: ObjCBool = false
      if FileManager.default.fileExists(atPath: candidate.basemap, isDirectory: &isDirectory),
        !isDirectory.boolValue
      {
        return (candidate.basemap, candidates.map(\.basemap))
      }
    }
    return (nil, candidates.map(\.basemap))
  }

  /// The running program's real file: `/proc/self/exe` on Linux (argv[0] may be a bare name found on
  /// `PATH`, or a symbolic link), else the bundle's path with its links resolved.
  static func executablePath() -> String? {
    if let real = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"),
      real.hasPrefix("/")
    {
      return real
    }
    guard let path = Bundle.main.executablePath else { return nil }
    return URL(fileURLWithPath: path).resolvingSymlinksInPath().path
  }

  /// A folder laid out as `share/mymap`: `basemap.sqlite` and `styles/`.
  private static func shared(_ root: String) -> DataFolder {
    let url = URL(fileURLWithPath: root)
    return DataFolder(
      basemap: url.appendingPathComponent("basemap.sqlite").path,
      styles: url.appendingPathComponent("styles").path, root: url.path)
  }
}
