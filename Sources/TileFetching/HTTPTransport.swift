import Foundation

/// One GET request: where to, and the header fields to send.
public struct HTTPRequest: Sendable, Equatable {
  public var url: URL
  /// Header fields by name; a transport may add its own (such as `Host`).
  public var headers: [String: String]

  public init(url: URL, headers: [String: String] = [:]) {
    self.url = url
    self.headers = headers
  }

  /// The value of a header field, whatever the case of its name; nil when absent.
  public func header(_ name: String) -> String? {
    HTTPRequest.value(of: name, in: headers)
  }

  /// The value of `name` in `fields`, compared case-insensitively (HTTP field names are).
  static func value(of name: String, in fields: [String: String]) -> String? {
    if let exact = fields[name] { return exact }
    let lowered = name.lowercased()
    return fields.first { $0.key.lowercased() == lowered }?.value
  }
}

/// A server's complete answer to one request.
public struct HTTPResponse: Sendable, Equatable {
  public var status: Int
  /// Header fields by name, spelled as the transport delivers them (look them up with `header(_:)`).
  public var headers: [String: String]
  /// The whole body, already decompressed when the server sent it compressed.
  public var body: Data
  /// The `Content-Length` the server announced, nil when it announced none.
  public var announcedLength: Int?

  public init(status: Int, headers: [String: String] = [:], body: Data = Data(), announcedLength: Int? = nil)
  {
    self.status = status
    self.headers = headers
    self.body = body
    self.announcedLength = announcedLength
  }

  /// The value of a header field, whatever the case of its name; nil when absent.
  public func header(_ name: String) -> String? {
    HTTPRequest.value(of: name, in: headers)
  }
}

/// Carries one HTTP exchange: sends a request and brings back the whole response, or says why it could not.
/// `TileFetcher` keeps every decision about what a response means (retries, statuses, caching) and talks
/// to the network only through this, so that tests can answer in its place.
public protocol HTTPTransport: Sendable {
  /// Sends `request` and returns the response once its body has arrived.
  ///
  /// - `limit`: the largest body accepted, in bytes; a larger one is refused with `.tooLarge` as soon as it
  ///   is announced or has grown past the limit, and never kept.
  /// - `timeout`: seconds the request may wait for data before it fails with `.timedOut`; an exchange that
  ///   keeps trickling in fails with `.deadlinePassed` once it has taken several times that long.
  ///
  /// Cancelling the calling task cancels the request (`.cancelled`).
  func send(_ request: HTTPRequest, limit: Int, timeout: Double) async throws(HTTPTransportError)
    -> HTTPResponse
}
