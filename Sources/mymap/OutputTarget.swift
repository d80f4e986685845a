import Foundation

/// Where an output path really leads, decided before anything is written: through symbolic links to the
/// file they name, and to what kind of thing is there. A link is written through (its target gets the new
/// bytes, the link stays a link); a FIFO or a terminal is written into, not replaced; a file that the same
/// command reads (the store, the places file, a tile file) is never an output.
struct OutputTarget {
  enum Kind: Equatable {
    /// A regular file or nothing yet: written atomically, by renaming a temporary file over it.
    case file
    /// A FIFO or a character device (`/dev/stdout`, a terminal): written into directly.
    case stream
    /// `-`.
    case standardOutput
  }

  /// The path as the user gave it, for messages.
  let given: String
  /// The path after following symbolic links; the file that will be replaced or written into.
  let resolved: String
  let kind: Kind
  /// Device and inode of what is there now; nil when nothing is.
  let identity: FileIdentity?

  /// Follows `path`'s links (at most 40, as the kernel does) and looks at what is at the end.
  init(_ path: String) throws(CLIError) {
    given = path
    guard path != "-" else {
      resolved = path
      kind = .standardOutput
      identity = nil
      return
    }
    var current = path
    var hops = 0
    var info = stat()
    while lstat(current, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK {
      hops += 1
      guard hops <= 40, let link = Self.readLink(current) else {
        throw .failure("cannot write \(path): too many levels of symbolic links")
      }
      let folder = (current as NSString).deletingLastPathComponent
      current = link.hasPrefix("/") || folder.isEmpty ? link : folder + "/" + link
    }
    resolved = current
    guard lstat(current, &info) == 0 else {
      kind = .file
      identity = nil
      return
    }
    identity = FileIdentity(info)
    switch info.st_mode & S_IFMT {
    case S_IFREG: kind = .file
    case S_IFIFO, S_IFCHR: kind = .stream
    case S_IFDIR: throw .failure("cannot write \(path): \(String(cString: strerror(EISDIR)))")
    default: throw .failure("cannot write \(path): it is neither a file, a FIFO nor a terminal")
    }
  }

  /// Refuses a target that is one of `inputs` (or a journal beside one), or the same file as `other`.
  func checkNotOverwriting(_ inputs: [ProtectedInput], option: String) throws(CLIError) {
    guard let identity else { return }
    for input in inputs {
      for sidecar in SQLiteSidecars.suffixes {
        guard let inputIdentity = FileIdentity(path: input.path + sidecar), inputIdentity == identity else {
          continue
        }
        throw .usage(
          "\(option) \(given) is \(sidecar.isEmpty ? "" : "a journal of ")\(input.role) (\(input.path)), which"
            + " this command reads; writing there would destroy it: choose another path")
      }
    }
  }

  /// Whether both paths end at the same file (an existing one by identity, a new one by its folder and name).
  func isSameFile(as other: OutputTarget) -> Bool {
    guard kind != .standardOutput, other.kind != .standardOutput else { return false }
    if let identity, let otherIdentity = other.identity { return identity == otherIdentity }
    guard identity == nil, other.identity == nil else { return false }
    return Self.canonicalNewPath(resolved) == Self.canonicalNewPath(other.resolved)
  }

  /// Equal for two targets exactly when `isSameFile` holds between them (neither standard output), so
  /// that many outputs can be checked at once by a dictionary.
  var sameFileKey: String {
    if let identity { return "file \(identity.device):\(identity.inode)" }
    return "new " + Self.canonicalNewPath(resolved)
  }

  /// The folder's real path and the file's name: two spellings of one new file compare equal.
  private static func canonicalNewPath(_ path: String) -> String {
    let folder = (path as NSString).deletingLastPathComponent
    let name = (path as NSString).lastPathComponent
    guard let real = realpath(folder.isEmpty ? "." : folder, nil) else { return path }
    defer { free(real) }
    return String(cString: real) + "/" + name
  }

  private static func readLink(_ path: String) -> String? {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let count = readlink(path, &buffer, buffer.count - 1)
    guard count > 0 else { return nil }
    return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}

/// A file a command reads, which no output of that command may replace.
struct ProtectedInput {
  let path: String
  /// How a message names it: `the places store`, `the places file`.
  let role: String
}

/// Which file a path is, independent of how it is spelled or linked.
struct FileIdentity: Equatable {
  let device: UInt64
  let inode: UInt64

  init(_ info: stat) {
    device = UInt64(info.st_dev)
    inode = UInt64(info.st_ino)
  }

  /// Follows links; nil when nothing is there.
  init?(path: String) {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    self.init(info)
  }
}
