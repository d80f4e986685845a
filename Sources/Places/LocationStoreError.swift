import SQLite

/// Why the store could not do what was asked. Each description is one line a user can act on.
public enum LocationStoreError: Error, Equatable, CustomStringConvertible {
  /// The file could not be opened or created: a folder that cannot be made or written, not a database…
  case cannotOpen(path: String, reason: String)
  /// Something that cannot be a store at all: a folder, a FIFO or device, a file that is not SQLite.
  case wrongFile(path: String, reason: String)
  /// An SQLite file, but not a mymap store.
  case notAStore(path: String)
  /// Written by a newer mymap, whose schema `version` this one does not know.
  case newerSchema(path: String, version: Int)
  /// Opened read-only, but at an older schema `version` that only a write can bring up to date.
  case needsUpgrade(path: String, version: Int)
  case unknownID(String)
  case duplicateID(String)
  /// A place that cannot be stored (a coordinate out of range or not a number), or an ambiguous id prefix.
  case invalidPlace(String)
  /// Any other SQLite failure, with SQLite's message.
  case failed(String)

  public var description: String {
    switch self {
    case .cannotOpen(let path, let reason), .wrongFile(let path, let reason):
      return "cannot open the places store '\(path)': \(reason)"
    case .notAStore(let path):
      return "'\(path)' is an SQLite database but not a mymap places store; give another path"
    case .newerSchema(let path, let version):
      return
        "the places store '\(path)' was written by a newer mymap (schema version \(version), this mymap"
        + " knows up to \(StoreSchema.latestVersion)); update mymap to use it"
    case .needsUpgrade(let path, let version):
      return
        "the places store '\(path)' (schema version \(version)) must be brought up to date before it can be"
        + " read, which needs write access; make it writable, or add a place to it once"
    case .unknownID(let id):
      return "no place with id '\(id)'"
    case .duplicateID(let id):
      return "a place with id '\(id)' is already stored"
    case .invalidPlace(let message):
      return message
    case .failed(let message):
      return "the places store failed: \(message)"
    }
  }

  /// SQLite's own message for `.failed`, else the description.
  var message: String {
    if case .failed(let message) = self { return message }
    return description
  }
}

extension LocationStoreError {
  /// A failure of the store's SQLite connection: `.failed` with SQLite's message, or for a lock held past
  /// the busy timeout a message saying so.
  init(_ error: SQLiteError) {
    if error.kind == .busy {
      self = .failed("another program kept the store locked for too long (\(error.message)); try again")
    } else {
      self = .failed(error.message)
    }
  }
}
