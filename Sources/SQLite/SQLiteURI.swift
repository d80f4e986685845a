import Foundation

/// SQLite `file:` URIs for opening a database in a way a plain path cannot say.
public enum SQLiteURI {
  /// `file:` URI for `path` with `immutable=1`: absolute, every byte outside the unreserved set
  /// percent-encoded (SQLite decodes `%HH`; `?`, `#` and `%` in a name would otherwise break the URI).
  public static func immutable(_ path: String) -> String {
    let absolute =
      path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~/".utf8)
    var encoded = ""
    for byte in absolute.utf8 {
      if unreserved.contains(byte) {
        encoded.append(Character(Unicode.Scalar(byte)))
      } else {
        encoded += String(format: "%%%02X", byte)
      }
    }
    return "file://\(encoded)?immutable=1"
  }
}
