import CCurl
import Foundation

/// libcurl, opened with `dlopen` at the first fetch rather than linked: a render that fetches nothing then
/// loads neither it nor the TLS, Kerberos and LDAP libraries it needs (about 40 shared libraries, most of
/// a cold start's time in the dynamic loader).
struct CurlLibrary: @unchecked Sendable {
  /// The library's soname, and the Debian package that installs it.
  static let defaultName = "libcurl.so.4"
  static let debianPackage = "libcurl4"

  /// The table of libcurl's calls; it lives as long as the process (`@unchecked Sendable`: never written
  /// after `ccurl_open` returns it).
  let api: OpaquePointer

  /// Opens `name` once per process; the error says which package to install when it cannot be opened.
  static func open(_ name: String = defaultName) throws(HTTPTransportError) -> CurlLibrary {
    var message = [CChar](repeating: 0, count: 512)
    guard let api = ccurl_open(name, &message, message.count) else {
      let reason = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
      throw .unreachable(.networkLibraryMissing(library: name, package: debianPackage, reason: reason))
    }
    return CurlLibrary(api: api)
  }
}
