import FileSystem
import Foundation
import MapMath
import Tiles

/// Why a tile could not be fetched. `description` is one line for the user; it names the source by its
/// redacted template, so it never contains an API key.
public struct TileFetchError: Error, Equatable, CustomStringConvertible {
  public enum Reason: Sendable, Equatable {
    /// An HTTP status other than 200 and 404, with the server's `Retry-After` in seconds, if any.
    case httpStatus(Int, retryAfter: Double?)
    /// The server sent no data within the timeout.
    case timedOut
    /// The connection failed or was dropped; the text says how.
    case connectionFailed(String)
    /// The server cannot be reached at all, so the other tiles of its host would fail the same way.
    case cannotConnect(Unreachable)
    /// The body was shorter than its `Content-Length`, by this many bytes when known.
    case truncated(bytesMissing: Int?)
    /// The body of a 200 response is not a PNG, JPEG or WebP image (e.g. an HTML error page).
    case notAnImage(contentType: String?)
    /// A vector tile server's 200 response is not a Mapbox Vector Tile (nor one in gzip).
    case notAVectorTile(contentType: String?)
    /// The image is not `expected` × `expected` pixels.
    case wrongSize(width: Int, height: Int, expected: Int)
    /// The body is larger than `limit` bytes (`TileFetchPolicy.maximumTileBytes`): `bytes` is its
    /// `Content-Length` when the server announced one (the request was refused on it), nil when the body
    /// was stopped while arriving.
    case tooLarge(bytes: Int?, limit: Int)
    /// The server redirected to a URL that is not `http` or `https` (such as `file:///etc/passwd`),
    /// shown as `scheme://host/path`, without its query.
    case redirectNotFollowed(to: String)
  }

  /// Why a server cannot be reached at all.
  public enum Unreachable: Sendable, Equatable {
    /// Nothing accepts connections at the host and port (refused, or no route to it).
    case cannotConnectToHost
    /// The host name does not resolve.
    case unknownHost
    /// This machine has no network connection.
    case notConnectedToInternet
    /// The network library mymap fetches with cannot be loaded (`reason` in the loader's words): `package`
    /// is the Debian package that installs it.
    case networkLibraryMissing(library: String, package: String, reason: String)
  }

  public let tile: TileID
  /// The redacted URL template.
  public let source: String
  public let reason: Reason
  /// How many requests were made.
  public let attempts: Int

  public init(tile: TileID, source: String, reason: Reason, attempts: Int) {
    self.tile = tile
    self.source = source
    self.reason = reason
    self.attempts = attempts
  }

  /// Whether a later request might succeed.
  public var isTransient: Bool {
    switch reason {
    case .httpStatus(let status, _): return status == 429 || status == 503
    case .timedOut, .connectionFailed, .cannotConnect, .truncated: return true
    case .notAnImage, .notAVectorTile, .wrongSize, .tooLarge, .redirectNotFollowed: return false
    }
  }

  /// Whether the server cannot be reached at all (cannot connect, unknown host, no network): a caller can
  /// stop asking the same host for its other tiles.
  public var isHostUnreachable: Bool {
    if case .cannotConnect = reason { return true }
    return false
  }

  /// A short label for the kind of failure, for counting failures in a summary such as "12 of 40 tiles could
  /// not be fetched: 10 × HTTP 503, 2 × not an image".
  public var summaryKind: String {
    switch reason {
    case .httpStatus(let status, _): return "HTTP \(status)"
    case .timedOut: return "timed out"
    case .connectionFailed: return "connection failed"
    case .cannotConnect: return "cannot connect"
    case .truncated: return "cut off"
    case .notAnImage: return "not an image"
    case .notAVectorTile: return "not a vector tile"
    case .wrongSize: return "wrong size"
    case .tooLarge: return "too large"
    case .redirectNotFollowed: return "redirect not followed"
    }
  }

  public var description: String {
    let tries = attempts > 1 ? " (after \(attempts) attempts)" : ""
    return "cannot fetch tile \(tile) from \(source): \(reasonText)\(tries)"
  }

  private var reasonText: String {
    switch reason {
    case .httpStatus(let status, let retryAfter):
      if status == 401 || status == 403 {
        return "the server refused (HTTP \(status); check the URL and its API key)"
      }
      let name =
        switch status {
        case 429: "too many requests"
        case 503: "server busy"
        case 500..<600: "server error"
        default: "unexpected response"
        }
      let wait = retryAfter.map { ", retry after \(Self.seconds($0)) s" } ?? ""
      return "\(name) (HTTP \(status)\(wait))"
    case .timedOut:
      return "the server did not answer in time"
    case .connectionFailed(let how):
      return "connection failed (\(how))"
    case .cannotConnect(let why):
      let how =
        switch why {
        case .cannotConnectToHost: "cannot connect to the server"
        case .unknownHost: "unknown host"
        case .notConnectedToInternet: "not connected to the internet"
        case .networkLibraryMissing(let library, let package, let reason):
          "\(library) cannot be loaded (\(reason)); install the Debian package \(package)"
        }
      return "connection failed (\(how))"
    case .truncated(let missing):
      return "the response was cut off" + (missing.map { " (\($0) bytes missing)" } ?? "")
    case .notAnImage(let contentType):
      return "the server sent something that is not an image"
        + (contentType.map { " (Content-Type \($0))" } ?? "")
    case .notAVectorTile(let contentType):
      return "the server sent something that is not a vector tile"
        + (contentType.map { " (Content-Type \($0))" } ?? "")
    case .wrongSize(let width, let height, let expected):
      return "the image is \(width)×\(height) pixels, expected \(expected)×\(expected)"
    case .tooLarge(let bytes, let limit):
      let size =
        bytes.map { "\(ByteCount.text($0)), the limit is \(ByteCount.text(limit))" }
        ?? "over the \(ByteCount.text(limit)) limit"
      return "the response is too large for a tile (\(size))"
    case .redirectNotFollowed(let target):
      return "the server redirected to \(target), which mymap does not follow (only http and https)"
    }
  }

  private static func seconds(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e9 ? String(Int(value)) : String(value)
  }
}
