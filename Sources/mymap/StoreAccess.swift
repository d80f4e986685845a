import Arguments
import Foundation
import Places

/// Opening the store that `--store` (or `MYMAP_HOME`, `XDG_DATA_HOME`, `HOME`) names, for every command that
/// uses it, with store errors mapped to exit codes.
enum StoreAccess {
  static let option = OptionSpec.value(
    "store", valueName: "PATH",
    help: "The places store (default: $MYMAP_HOME/locations.sqlite, else ~/.local/share/mymap/).")

  /// The store's path from the arguments or the environment.
  static func path(_ arguments: ParsedArguments) -> String {
    arguments.string("store") ?? LocationStore.defaultPath()
  }

  /// Opens the store; `create` false fails when there is none yet (a read-only command says so plainly).
  /// Commands that only read open it `.readOnly`, so a store on a read-only or full disk can be read.
  static func open(
    _ arguments: ParsedArguments, create: Bool = true, access: LocationStore.Access = .readWrite
  ) throws(CLIError) -> LocationStore {
    let path = path(arguments)
    if (!create || access == .readOnly) && !FileManager.default.fileExists(atPath: path) {
      throw .usage(
        "no places stored yet (\(path) does not exist); add some with 'mymap add' or 'mymap import'")
    }
    do {
      return try LocationStore(path: path, create: create, access: access)
    } catch .needsUpgrade where access == .readOnly {
      // A store of an older mymap (before tracks): bring it up to date once where it can be written, then
      // read it as asked.
      do {
        _ = try LocationStore(path: path, create: false, access: .readWrite)
        return try LocationStore(path: path, create: false, access: access)
      } catch {
        throw map(error)
      }
    } catch {
      throw map(error)
    }
  }

  /// The exit code a store error deserves.
  static func map(_ error: LocationStoreError) -> CLIError {
    switch error {
    case .unknownID, .duplicateID, .invalidPlace: return .usage(error.description)
    case .wrongFile, .notAStore, .newerSchema: return .badInput(error.description)
    case .cannotOpen, .needsUpgrade, .failed: return .failure(error.description)
    }
  }
}
