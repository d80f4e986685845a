import Foundation
import Tiles

/// How a redirect's target is shown in a message: `scheme://host/path` without user, password, query or
/// fragment (which may carry a key), control characters replaced, at most 80 characters.
enum RedirectTarget {
  static func shown(_ location: String, resolved: URL?) -> String {
    var text = location
    if let resolved, var parts = URLComponents(url: resolved, resolvingAgainstBaseURL: true) {
      (parts.user, parts.password, parts.query, parts.fragment) = (nil, nil, nil, nil)
      text = parts.string ?? location
    }
    if let cut = text.firstIndex(where: { $0 == "?" || $0 == "#" }) { text = String(text[..<cut]) }
    if text.isEmpty { return "an empty location" }
    return inputExcerpt(text, limit: 80)
  }

  /// Where a redirect answered to a request for `url` leads, when mymap follows it: an absolute `http` or
  /// `https` URL with a host, resolved from `location` as RFC 9110 says; nil otherwise.
  static func followed(_ location: String, from url: URL) -> URL? {
    guard let target = URL(string: location, relativeTo: url)?.absoluteURL,
      let scheme = target.scheme?.lowercased(), scheme == "http" || scheme == "https",
      target.host?.isEmpty == false
    else { return nil }
    return target
  }
}
