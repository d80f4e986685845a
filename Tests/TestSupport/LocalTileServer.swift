import Foundation
import TileFetching
import Tiles
import XCTest

/// `Tests/Fixtures/tileserver/tile_server.py`, running on 127.0.0.1 for one test: the first path segment of
/// a request picks how it answers (`ok`, `busy`, `etag`, …; see the script's docstring), and it logs every
/// request. `init` throws `XCTSkip` when python3 is not available; call `stop()` when done (or let the
/// value go away).
public final class LocalTileServer: @unchecked Sendable {
  // @unchecked: every stored property is a constant, and `stop()` is serialised by `lock`.

  /// One request the server received.
  public struct LoggedRequest: Sendable, Equatable {
    /// The path, without the query.
    public var path: String
    public var userAgent: String
    /// The `If-None-Match` header, nil when the request had none.
    public var ifNoneMatch: String?
    /// The `If-Modified-Since` header, nil when the request had none.
    public var ifModifiedSince: String?

    public init(path: String, userAgent: String, ifNoneMatch: String? = nil, ifModifiedSince: String? = nil) {
      self.path = path
      self.userAgent = userAgent
      self.ifNoneMatch = ifNoneMatch
      self.ifModifiedSince = ifModifiedSince
    }
  }

  public let port: Int
  private let process: Process
  private let directory: TemporaryDirectory
  private let logURL: URL
  private let lock = NSLock()

  /// Starts the server; throws `XCTSkip` when python3 is missing or the server does not start.
  public init() throws {
    guard Self.hasPython() else {
      throw XCTSkip("the local tile server needs python3 on PATH")
    }
    directory = try TemporaryDirectory(prefix: "mymap-tileserver")
    logURL = directory.url("requests.log")
    process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [
      "python3", RepositoryPaths.fixture("tileserver/tile_server.py").path, logURL.path,
    ]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    var line = Data()
    while !line.contains(UInt8(ascii: "\n")) {
      let chunk = output.fileHandleForReading.availableData
      if chunk.isEmpty { break }
      line.append(chunk)
    }
    let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    guard let port = Int(text), port > 0 else {
      process.terminate()
      process.waitUntilExit()
      throw XCTSkip("the local tile server did not start (printed \(text.debugDescription))")
    }
    self.port = port
  }

  deinit { stop() }

  private static func hasPython() -> Bool {
    let probe = Process()
    probe.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    probe.arguments = ["python3", "-c", "pass"]
    probe.standardOutput = FileHandle.nullDevice
    probe.standardError = FileHandle.nullDevice
    guard (try? probe.run()) != nil else { return false }
    probe.waitUntilExit()
    return probe.terminationStatus == 0
  }

  /// `http://127.0.0.1:PORT`, without a trailing slash.
  public var baseURL: String { "http://127.0.0.1:\(port)" }

  /// Stops the server and removes its log; calling it again does nothing.
  public func stop() {
    lock.lock()
    defer { lock.unlock() }
    if process.isRunning {
      process.terminate()
      process.waitUntilExit()
    }
    directory.remove()
  }

  /// A template for one behaviour of the server (`ok`, `busy`, …) with an optional query:
  /// `http://127.0.0.1:PORT/<behaviour>/{z}/{x}/{y}.png[?query]`.
  public func template(_ behaviour: String, query: String = "") throws -> TileURLTemplate {
    try TileURLTemplate(
      "\(baseURL)/\(behaviour)/{z}/{x}/{y}.png" + (query.isEmpty ? "" : "?" + query),
      environment: ["TILE_KEY": "s3cr3t-key"])
  }

  /// Every request so far, oldest first.
  public func requests() -> [LoggedRequest] {
    let text = (try? String(contentsOf: logURL, encoding: .utf8)) ?? ""
    return text.split(separator: "\n").map { line in
      let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
      func header(_ index: Int) -> String? {
        index < fields.count && fields[index] != "-" ? fields[index] : nil
      }
      return LoggedRequest(
        path: fields[0], userAgent: fields.count > 1 ? fields[1] : "", ifNoneMatch: header(2),
        ifModifiedSince: header(3))
    }
  }

  /// How many requests asked for one behaviour.
  public func requestCount(_ behaviour: String) -> Int {
    requests().filter { $0.path.hasPrefix("/\(behaviour)/") }.count
  }
}

/// A port on 127.0.0.1 that nothing listens on: bound by the system, then closed again.
public func closedLocalPort() throws -> Int {
  let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
  guard fd >= 0 else { throw XCTSkip("cannot create a socket") }
  defer { close(fd) }
  var address = sockaddr_in()
  address.sin_family = sa_family_t(AF_INET)
  address.sin_port = 0
  address.sin_addr.s_addr = inet_addr("127.0.0.1")
  var length = socklen_t(MemoryLayout<sockaddr_in>.size)
  let bound = withUnsafeMutablePointer(to: &address) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
      bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
    }
  }
  guard bound else { throw XCTSkip("cannot bind a socket on 127.0.0.1") }
  return Int(UInt16(bigEndian: address.sin_port))
}
