import Foundation
import TestSupport
import XCTest

/// What the dynamic loader brings into a `mymap` process, from its own account (`LD_DEBUG=files` lists
/// every shared library it loads, at start and by dlopen): a render that fetches nothing loads no
/// networking library (libcurl, TLS, Kerberos, LDAP); a fetch loads libcurl when it needs it; no process
/// loads libxml2, not even to read a GPX file (mymap's own `XMLReader` does).
final class LoadedLibrariesTests: XCTestCase {
  private static let networking = [
    "libFoundationNetworking", "libcurl", "libgnutls", "libssl", "libkrb5", "libgssapi", "libldap", "libssh2",
    "librtmp", "libnghttp2",
  ]

  /// The sonames the loader reports loading, from its `file=NAME [N];` lines on standard error.
  private func loaded(_ result: CLIResult) -> Set<String> {
    var names = Set<String>()
    for line in result.stderrLines {
      guard let start = line.range(of: "file=") else { continue }
      let rest = line[start.upperBound...]
      names.insert(String(rest.prefix { $0 != " " && $0 != "[" && $0 != ";" }))
    }
    return names
  }

  private func assertNoNetworking(_ names: Set<String>, file: StaticString = #filePath, line: UInt = #line) {
    // The loader's report was read: the drawing library is in it.
    XCTAssertTrue(names.contains { $0.hasPrefix("libcairo.so") }, "\(names.sorted())", file: file, line: line)
    for name in names {
      XCTAssertFalse(
        Self.networking.contains { name.hasPrefix($0) }, "\(name) was loaded", file: file, line: line)
    }
  }

  func testAnOfflineRenderLoadsNoNetworkingLibrary() throws {
    let sandbox = try Sandbox()
    let debug = ["LD_DEBUG": "files"]
    for extra in [["--tiles", Inputs.europeTiles], ["--tiles", "builtin"]] {
      let result = try sandbox.run(
        ["render", "--locations", Inputs.europeTrip, "--size", "300x200", "--out", "map.png"] + extra,
        environment: debug)
      XCTAssertEqual(result.status, 0, "\(extra)")
      assertNoNetworking(loaded(result))
    }
    let version = try sandbox.run(["--version"], environment: debug)
    XCTAssertEqual(version.status, 0)
    assertNoNetworking(loaded(version))
  }

  func testReadingGPXLoadsNoXMLLibrary() throws {
    let sandbox = try Sandbox()
    try sandbox.write(
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1"><wpt lat="60.17" lon="24.94">\
      <name>Senate Square</name></wpt></gpx>
      """, to: "walk.gpx")
    let result = try sandbox.run(
      ["render", "--locations", "walk.gpx", "--tiles", "builtin", "--size", "300x200", "--out", "map.png"],
      environment: ["LD_DEBUG": "files"])
    XCTAssertEqual(
      result.status, 0, result.stderrLines.filter { !$0.contains("file=") }.joined(separator: "\n"))
    let names = loaded(result)
    XCTAssertTrue(names.contains { $0.hasPrefix("libcairo.so") }, "\(names.sorted())")
    for name in names {
      XCTAssertFalse(name.hasPrefix("libxml2") || name.hasPrefix("libFoundationXML"), "\(name) was loaded")
    }
  }

  func testAFetchLoadsLibcurlWhenItNeedsIt() throws {
    let server = try LocalTileServer()
    defer { server.stop() }
    let sandbox = try Sandbox()
    let result = try sandbox.run(
      [
        "tiles", "fetch", "--url", FetchTesting.url(server, "ok"), "--bbox", "2.25,48.81,2.42,48.90",
        "--zoom",
        "0-1", "--to", "tiles", "--attribution", "T",
      ],
      environment: ["LD_DEBUG": "files"])
    XCTAssertEqual(
      result.status, 0, result.stderrLines.filter { !$0.contains("file=") }.joined(separator: "\n"))
    XCTAssertTrue(loaded(result).contains("libcurl.so.4"), "\(loaded(result).sorted())")
  }
}
