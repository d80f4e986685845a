import Foundation
import TileFetching
import Tiles
import XCTest

/// `Tests/Fixtures/tileserver/tile_server.py`, running on 127.0.0.1: the first path segment of a request
/// picks how it answers (`ok`, `busy`, `etag`, …; see the script's docstring), and it logs every request.
///
/// One server process serves the whole test process (starting Python for every test cost a third of a
/// second each); each `LocalTileServer` is a namespace of it (`baseURL` ends in `/~N`), with its own request
/// log and its own request counts, so that tests do not see each other's requests. The process ends with
/// the test process (it exits when its standard input, a pipe from this process, closes). `init` throws
/// `TestPrerequisiteMissing` (a failure) when python3 is not available.
public final class LocalTileServer: Sendable {
  /// One request the server received.
  public struct LoggedRequest: Sendable, Equatable {
    /// The path, without the query (and without the namespace).
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
  /// `~N`: the first path segment of this server's URLs.
  public let namespace: String
  private let process: SharedProcess
  /// Where the log stood when this namespace was made: its requests come after.
  private let logStart: UInt64

  /// A new namespace of the shared server (started now if it is not running); throws `TestPrerequisiteMissing` when python3
  /// is missing or the server does not start.
  public init() throws {
    process = try SharedProcess.running()
    port = process.port
    namespace = "~" + String(process.nextNamespace())
    logStart = process.logSize()
  }

  /// Nothing to stop: the shared server runs on for the other tests. Kept so that tests read the same.
  public func stop() {}

  /// `http://127.0.0.1:PORT/~N`, without a trailing slash.
  public var baseURL: String { "http://127.0.0.1:\(port)/\(namespace)" }

  /// A template for one behaviour of the server (`ok`, `busy`, …) with an optional query:
  /// `http://127.0.0.1:PORT/~N/<behaviour>/{z}/{x}/{y}.png[?query]` (`.pbf` and the like with `fileExtension`).
  public func template(_ behaviour: String, query: String = "", fileExtension: String = "png") throws
    -> TileURLTemplate
  {
    try TileURLTemplate(
      "\(baseURL)/\(behaviour)/{z}/{x}/{y}.\(fileExtension)" + (query.isEmpty ? "" : "?" + query),
      environment: ["TILE_KEY": "s3cr3t-key"])
  }

  /// Every request of this namespace so far, oldest first.
  public func requests() -> [LoggedRequest] {
    process.requests(since: logStart).filter { $0.namespace == namespace }.map(\.request)
  }

  /// Requests with no namespace at all that came since this namespace was made: a client that lost the
  /// namespace (such as FoundationNetworking turning a redirect to `file:///etc/hostname` into a request
  /// for `/etc/hostname` on the same server) shows up here.
  public func requestsOutsideAnyNamespace() -> [LoggedRequest] {
    process.requests(since: logStart).filter { $0.namespace == "-" }.map(\.request)
  }

  /// How many requests asked for one behaviour.
  public func requestCount(_ behaviour: String) -> Int {
    requests().filter { $0.path.hasPrefix("/\(behaviour)/") }.count
  }
}

/// The one `tile_server.py` process of this test process.
///
/// `@unchecked Sendable`: the constants are set once, and `namespaces` is touched only while `lock` is held.
private final class SharedProcess: @unchecked Sendable {
  let port: Int
  private let process: Process
  /// Kept open for the life of the test process: the server exits when it closes.
  private let input: Pipe
  private let directory: TemporaryDirectory
  private let logURL: URL
  private let lock = NSLock()
  private var namespaces = 0

  private static let lock = NSLock()
  nonisolated(unsafe) private static var shared: Result<SharedProcess, TestPrerequisiteMissing>?

  /// The running server, started the first time.
  static func running() throws -> SharedProcess {
    lock.lock()
    defer { lock.unlock() }
    if let shared { return try shared.get() }
    let result: Result<SharedProcess, TestPrerequisiteMissing>
    do {
      result = .success(try SharedProcess())
    } catch let skip as TestPrerequisiteMissing {
      result = .failure(skip)
    } catch {
      result = .failure(TestPrerequisiteMissing("the local tile server did not start: \(error)"))
    }
    shared = result
    return try result.get()
  }

  private init() throws {
    directory = try TemporaryDirectory(prefix: "mymap-tileserver")
    logURL = directory.url("requests.log")
    process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    // -S: no site packages to import, which only slows the start.
    process.arguments = [
      "python3", "-S", RepositoryPaths.fixture("tileserver/tile_server.py").path, logURL.path,
    ]
    let output = Pipe()
    input = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    do {
      try process.run()
    } catch {
      throw TestPrerequisiteMissing("the local tile server needs python3 on PATH (\(error))")
    }
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
      throw TestPrerequisiteMissing(
        "the local tile server did not start (printed \(text.debugDescription); it needs python3 on PATH)")
    }
    self.port = port
  }

  func nextNamespace() -> Int {
    lock.lock()
    defer { lock.unlock() }
    namespaces += 1
    return namespaces
  }

  /// The log's size in bytes now.
  func logSize() -> UInt64 {
    let attributes = try? FileManager.default.attributesOfItem(atPath: logURL.path)
    return (attributes?[.size] as? NSNumber)?.uint64Value ?? 0
  }

  /// The requests logged from byte `start` on, with their namespaces (`-` for none).
  func requests(since start: UInt64) -> [(request: LocalTileServer.LoggedRequest, namespace: String)] {
    guard let handle = try? FileHandle(forReadingFrom: logURL) else { return [] }
    defer { try? handle.close() }
    guard (try? handle.seek(toOffset: start)) != nil, let data = try? handle.readToEnd() else { return [] }
    // Only whole lines: the server may be writing the last one.
    let text = String(decoding: data, as: UTF8.self)
    return text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().compactMap { line in
      let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
      guard fields.count == 5 else { return nil }
      func header(_ index: Int) -> String? { fields[index] != "-" ? fields[index] : nil }
      return (
        LocalTileServer.LoggedRequest(
          path: fields[0], userAgent: fields[1], ifNoneMatch: header(2), ifModifiedSince: header(3)),
        fields[4]
      )
    }
  }
}

/// A port on 127.0.0.1 that nothing listens on: bound by the system, then closed again.
public func closedLocalPort() throws -> Int {
  let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
  guard fd >= 0 else { throw TestPrerequisiteMissing("cannot create a socket") }
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
  guard bound else { throw TestPrerequisiteMissing("cannot bind a socket on 127.0.0.1") }
  return Int(UInt16(bigEndian: address.sin_port))
}
