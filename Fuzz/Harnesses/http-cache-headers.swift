import Foundation
import FuzzSupport
import TileFetching
import Tiles

// HTTP cache headers (`Cache-Control`, `Expires`, `Date`, `Age`, validators), one `Name: value` a line:
// a freshness whose lifetime is never negative nor over `TileFreshness.maximumLifetime`.
let now = Date(timeIntervalSince1970: 1_764_000_000)

Fuzz.run { input in
  var headers: [String: String] = [:]
  for line in input.text.split(separator: "\n") {
    let parts = line.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
    headers[String(parts[0])] = parts.count == 2 ? String(parts[1]) : ""
    if let date = TileFreshness.parseHTTPDate(String(parts.last ?? "")) {
      require(date.timeIntervalSince1970.isFinite, "an HTTP date that is not finite")
    }
  }
  let fresh = TileFreshness(responseHeaders: headers, now: now)
  let lifetime = fresh.expires.timeIntervalSince(now)
  require(lifetime >= 0 && lifetime <= TileFreshness.maximumLifetime, "lifetime \(lifetime) s")
  let later = now.addingTimeInterval(60)
  let merged = fresh.merged(withNotModified: headers, now: later)
  let mergedLifetime = merged.expires.timeIntervalSince(later)
  require(mergedLifetime >= 0 && mergedLifetime <= TileFreshness.maximumLifetime, "merged lifetime")
}
