import Foundation

/// What is at a path, as stat(2) sees it (links followed).
///
/// Tile sources are read only from regular files: reading a named pipe waits for a writer that may never
/// come, and a device such as `/dev/zero` never ends.
public enum FileKind: Equatable, Sendable, CustomStringConvertible {
  case regular
  case folder
  case namedPipe
  case characterDevice
  case blockDevice
  case socket
  case other

  /// The kind of what is at `path`; nil when nothing is there (or it cannot be looked at).
  public init?(path: String) {
    var status = stat()
    guard stat(path, &status) == 0 else { return nil }
    self.init(mode: status.st_mode)
  }

  public init(mode: mode_t) {
    switch mode & S_IFMT {
    case S_IFREG: self = .regular
    case S_IFDIR: self = .folder
    case S_IFIFO: self = .namedPipe
    case S_IFCHR: self = .characterDevice
    case S_IFBLK: self = .blockDevice
    case S_IFSOCK: self = .socket
    default: self = .other
    }
  }

  /// `a named pipe (FIFO)`, `a folder`, … : what the path is, for an error message.
  public var description: String {
    switch self {
    case .regular: "a file"
    case .folder: "a folder"
    case .namedPipe: "a named pipe (FIFO)"
    case .characterDevice: "a character device"
    case .blockDevice: "a block device"
    case .socket: "a socket"
    case .other: "not a regular file"
    }
  }
}
