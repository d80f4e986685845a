import Foundation

/// How long a cached tile may be used without asking the server again, and what to ask with.
///
/// Made from a response's `Cache-Control`, `Expires`, `ETag` and `Last-Modified` headers; a cache keeps one
/// per tile so that a later fetch can skip a fresh tile or revalidate a stale one with `If-None-Match` /
/// `If-Modified-Since` instead of downloading it again.
public struct TileFreshness: Sendable, Equatable {
  /// The response's `ETag`, sent back as `If-None-Match`.
  public var etag: String?
  /// The response's `Last-Modified`, sent back as `If-Modified-Since`.
  public var lastModified: String?
  /// Until when the tile may be used without asking the server.
  public var expires: Date
  /// When the tile was fetched or last confirmed by the server.
  public var fetched: Date

  public init(etag: String? = nil, lastModified: String? = nil, expires: Date, fetched: Date) {
    self.etag = etag
    self.lastModified = lastModified
    self.expires = expires
    self.fetched = fetched
  }

  /// Whether the tile may be used at `now` without asking the server.
  public func isFresh(at now: Date) -> Bool { now < expires }

  /// Whether the server can be asked "has it changed?" instead of sending the tile again.
  public var canRevalidate: Bool { etag != nil || lastModified != nil }
}
