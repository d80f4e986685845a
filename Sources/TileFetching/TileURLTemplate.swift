import Foundation
import MapMath
import Tiles

/// A tile server URL template such as `https://{s}.tile.example.org/{z}/{x}/{y}{r}.png?key={key:EXAMPLE_KEY}`.
///
/// Placeholders: `{z}`, `{x}`, `{y}` (XYZ row), `{-y}` (TMS row, counted from the south), `{s}` (a subdomain,
/// `a`, `b`, `c` by default, or the characters of `{s:1234}`, or the comma-separated names of `{s:t1,t2}`),
/// `{r}` (`@2x` for retina tiles, else nothing) and `{key:NAME}` (an API key read from the environment
/// variable NAME, never from the template itself). The key's value appears only in `url(for:)`: `redacted`
/// and `cacheName` never contain it, so they are safe for logs and cache metadata.
public struct TileURLTemplate: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible,
  CustomReflectable
{
  /// One piece of the template.
  private enum Part: Sendable, Equatable {
    case literal(String)
    case zoom
    case column
    case row
    case tmsRow
    case subdomain
    case retina
    case key(name: String, value: String)
  }

  /// The template as given, with its scheme lowercased (`HTTPS://…` → `https://…`); it holds placeholders
  /// and never a key's value.
  public let template: String
  /// The subdomains `{s}` cycles through.
  public let subdomains: [String]
  private let parts: [Part]

  /// Parses `template`, reading `{key:NAME}` values from `environment`. Throws `TileURLTemplateError`.
  ///
  /// The scheme may be written in any case; it is lowercased (URL schemes are case-insensitive, but
  /// some HTTP libraries fail every request to `HTTP://…`), and the rest is kept as given.
  public init(_ template: String, environment: [String: String]) throws {
    let lowered = template.lowercased()
    guard let scheme = ["http://", "https://"].first(where: { lowered.hasPrefix($0) }) else {
      throw TileURLTemplateError.notHTTP(template)
    }
    let template = scheme + template.dropFirst(scheme.count)
    var parts: [Part] = []
    var subdomains = ["a", "b", "c"]
    var literal = ""
    var rest = Substring(template)
    while let open = rest.firstIndex(of: "{") {
      literal += rest[..<open]
      guard let close = rest[open...].firstIndex(of: "}") else { throw TileURLTemplateError.unclosedBrace }
      let name = String(rest[rest.index(after: open)..<close])
      rest = rest[rest.index(after: close)...]
      if !literal.isEmpty {
        parts.append(.literal(literal))
        literal = ""
      }
      switch name {
      case "z": parts.append(.zoom)
      case "x": parts.append(.column)
      case "y": parts.append(.row)
      case "-y": parts.append(.tmsRow)
      case "r": parts.append(.retina)
      case "s": parts.append(.subdomain)
      case _ where name.hasPrefix("s:"):
        let list = name.dropFirst(2)
        let names =
          list.contains(",")
          ? list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
          : list.map { String($0) }
        guard !names.isEmpty else { throw TileURLTemplateError.noSubdomains }
        subdomains = names
        parts.append(.subdomain)
      case _ where name.hasPrefix("key:"):
        let variable = String(name.dropFirst(4))
        guard !variable.isEmpty else { throw TileURLTemplateError.unknownPlaceholder(name) }
        guard let value = environment[variable], !value.isEmpty else {
          throw TileURLTemplateError.missingKey(variable)
        }
        parts.append(.key(name: variable, value: value))
      default:
        throw TileURLTemplateError.unknownPlaceholder(name)
      }
    }
    literal += rest
    if !literal.isEmpty { parts.append(.literal(literal)) }
    guard parts.contains(.zoom) else { throw TileURLTemplateError.missingPlaceholder("{z}") }
    guard parts.contains(.column) else { throw TileURLTemplateError.missingPlaceholder("{x}") }
    guard parts.contains(.row) || parts.contains(.tmsRow) else {
      throw TileURLTemplateError.missingPlaceholder("{y} or {-y}")
    }
    self.template = template
    self.parts = parts
    self.subdomains = subdomains
  }

  /// The URL of one tile. `subdomainIndex` picks the `{s}` subdomain (wrapping around the list); without
  /// it the subdomain follows from the tile, so that neighbouring tiles spread over the servers.
  public func url(for tile: TileID, subdomainIndex: Int? = nil, retina: Bool = false) -> String {
    let index = subdomainIndex ?? (tile.x + tile.y)
    let count = subdomains.count
    let subdomain = subdomains[((index % count) + count) % count]
    var url = ""
    for part in parts {
      switch part {
      case .literal(let text): url += text
      case .zoom: url += String(tile.z)
      case .column: url += String(tile.x)
      case .row: url += String(tile.y)
      case .tmsRow: url += String(tile.tmsRow)
      case .subdomain: url += subdomain
      case .retina: url += retina ? "@2x" : ""
      case .key(_, let value): url += value
      }
    }
    return url
  }

  /// Whether the template has `{r}`, so that it can serve `@2x` (512-pixel) tiles.
  public var hasRetinaPlaceholder: Bool { parts.contains(.retina) }

  /// What the server's tiles are, by the extension of the URL's path: vector tiles for `.pbf` and `.mvt`,
  /// images for anything else.
  public var content: TileContent {
    let path = URLComponents(string: template)?.path ?? template
    let lowered = path.lowercased()
    return lowered.hasSuffix(".pbf") || lowered.hasSuffix(".mvt") ? .vector : .raster
  }

  /// The size of the server's tiles: vector tiles are drawn 512 points wide; images are 256 pixels, 512
  /// for `@2x` ones.
  public func tileSize(retina: Bool) -> Int {
    content == .vector || retina ? 512 : 256
  }

  /// The names of the environment variables the template reads keys from.
  public var keyVariables: [String] {
    parts.compactMap {
      if case .key(let name, _) = $0 { return name }
      return nil
    }
  }

  /// The template for logs and cache metadata: keys stay placeholders, and a password written in the
  /// URL (`https://user:password@host/…`) is replaced by `***`.
  public var redacted: String {
    guard let schemeEnd = template.range(of: "://") else { return template }
    let authorityEnd = template[schemeEnd.upperBound...].firstIndex(of: "/") ?? template.endIndex
    let authority = template[schemeEnd.upperBound..<authorityEnd]
    guard let at = authority.lastIndex(of: "@") else { return template }
    let user = authority[..<at].split(separator: ":", maxSplits: 1).first.map(String.init) ?? ""
    return template[..<schemeEnd.upperBound] + user + ":***" + template[at..<template.endIndex]
  }

  /// The server's host name, lowercased, without user info, port, trailing dot or placeholders
  /// (`https://{s}.tile.openstreetmap.org:443/…` → `tile.openstreetmap.org`).
  public var host: String {
    var host = authority
    if let colon = host.lastIndex(of: ":"), !host.hasSuffix("]") { host = String(host[..<colon]) }
    while host.hasPrefix(".") { host.removeFirst() }
    while host.hasSuffix(".") { host.removeLast() }
    return host.lowercased()
  }

  /// A stable folder name for this source's tiles: the host (placeholders and user info left out) and
  /// eight hex digits of a hash of the redacted template, e.g. `tile.openstreetmap.org-1a2b3c4d`.
  public var cacheName: String {
    // Only characters that are safe in a folder name (a port's colon becomes `_`).
    let allowed = Set("abcdefghijklmnopqrstuvwxyz0123456789.-")
    var host = String(authority.lowercased().map { allowed.contains($0) ? $0 : "_" })
    while host.hasPrefix(".") || host.hasPrefix("-") { host.removeFirst() }
    if host.isEmpty { host = "tiles" }
    return host + "-" + Self.shortHash(redacted)
  }

  /// The host and port as written, without user info and placeholders (`{s}.tile…:8080` → `.tile…:8080`).
  private var authority: String {
    let afterScheme = template.range(of: "://").map { template[$0.upperBound...] } ?? Substring(template)
    var authority = String(afterScheme.prefix { $0 != "/" && $0 != "?" && $0 != "#" })
    if let at = authority.lastIndex(of: "@") { authority = String(authority[authority.index(after: at)...]) }
    while let open = authority.firstIndex(of: "{"), let close = authority[open...].firstIndex(of: "}") {
      authority.removeSubrange(open...close)
    }
    return authority
  }

  public var description: String { redacted }

  public var debugDescription: String { "TileURLTemplate(\(redacted))" }

  /// `dump` and debuggers show the redacted template only, never the key's value.
  public var customMirror: Mirror { Mirror(self, children: ["template": redacted]) }

  /// FNV-1a (64 bits) of the UTF-8 bytes, as 8 hex digits: stable across runs, unlike `Hasher`.
  private static func shortHash(_ text: String) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in text.utf8 {
      hash ^= UInt64(byte)
      hash = hash &* 0x0000_0100_0000_01b3
    }
    let hex = String(hash >> 32, radix: 16)
    return String(repeating: "0", count: 8 - hex.count) + hex
  }
}

/// Why a tile URL template cannot be used. Each `description` is one line for the user; none contains a
/// key's value.
public enum TileURLTemplateError: Error, Equatable, CustomStringConvertible {
  /// The template does not start with `http://` or `https://`.
  case notHTTP(String)
  /// A required placeholder (`{z}`, `{x}`, `{y} or {-y}`) is missing.
  case missingPlaceholder(String)
  /// A `{…}` that is not one of the known placeholders (the text between the braces).
  case unknownPlaceholder(String)
  /// `{s:}` lists no subdomains.
  case noSubdomains
  /// `{key:NAME}` names an environment variable that is not set (or is empty).
  case missingKey(String)
  /// A `{` without its `}`.
  case unclosedBrace

  public var description: String {
    switch self {
    case .notHTTP:
      return "a tile URL template must start with http:// or https://"
    case .missingPlaceholder(let placeholder):
      return "the tile URL template has no \(placeholder) placeholder"
    case .unknownPlaceholder(let name):
      return "unknown placeholder {\(name)} in the tile URL template "
        + "(expected {z}, {x}, {y}, {-y}, {s}, {s:abc}, {r} or {key:NAME})"
    case .noSubdomains:
      return "{s:} in the tile URL template lists no subdomains (write {s} for a, b, c, or e.g. {s:1234})"
    case .missingKey(let variable):
      return
        "the tile URL template needs an API key from the environment variable \(variable), which is not set"
    case .unclosedBrace:
      return "the tile URL template has a '{' without its '}'"
    }
  }
}
