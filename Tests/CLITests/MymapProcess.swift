import Foundation
import TestSupport
import XCTest

/// The built `mymap` executable, found beside the test bundle (`swift test` puts both in `<scratch>/debug/`).
///
/// `$MYMAP_BINARY` overrides the search, e.g. to test an installed binary.
enum MymapBinary {
  static let name = "mymap"

  /// The executable, or a message that says where it was looked for.
  static let located: Result<URL, LocateError> = locate()

  struct LocateError: Error, CustomStringConvertible {
    let description: String
  }

  /// The executable's URL; throws (failing the test with a clear message) when it is not there.
  static func url() throws -> URL {
    try located.get()
  }

  private static func locate() -> Result<URL, LocateError> {
    let fileManager = FileManager.default
    if let override = ProcessInfo.processInfo.environment["MYMAP_BINARY"], !override.isEmpty {
      return fileManager.isExecutableFile(atPath: override)
        ? .success(URL(fileURLWithPath: override))
        : .failure(LocateError(description: "$MYMAP_BINARY is \(override), which is not an executable file"))
    }
    var folders: [URL] = []
    // Linux: the test runner is `<scratch>/debug/<package>PackageTests.xctest`, an executable.
    if let first = CommandLine.arguments.first {
      folders.append(URL(fileURLWithPath: first).deletingLastPathComponent())
    }
    // macOS: the runner is xctest, and the test bundle is a folder `<scratch>/debug/<x>.xctest`.
    for bundle in [Bundle.main] + Bundle.allBundles {
      folders.append(bundle.bundleURL)
      folders.append(bundle.bundleURL.deletingLastPathComponent())
    }
    var looked: [String] = []
    for folder in folders {
      let candidate = folder.appendingPathComponent(name).standardizedFileURL
      if looked.contains(candidate.path) { continue }
      looked.append(candidate.path)
      if fileManager.isExecutableFile(atPath: candidate.path) { return .success(candidate) }
    }
    return .failure(
      LocateError(
        description: "the \(name) executable was not found beside the tests (looked for "
          + looked.joined(separator: ", ")
          + "); build it with `swift build` first or set $MYMAP_BINARY"))
  }
}

/// What one run of `mymap` produced.
struct CLIResult {
  let arguments: [String]
  let status: Int32
  let stdout: Data
  let stderr: String

  var stdoutText: String { String(decoding: stdout, as: UTF8.self) }

  /// The lines of standard error, without their newlines.
  var stderrLines: [String] {
    stderr.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
  }

  /// A summary for failure messages.
  var transcript: String {
    "mymap \(arguments.joined(separator: " "))\n  exit \(status)\n  stderr: \(stderr.debugDescription)"
  }
}

/// A fresh folder to run `mymap` in, with its own HOME, store and tile cache so that no test touches the
/// user's files or depends on them.
final class Sandbox: Sendable {
  let directory: TemporaryDirectory

  init() throws {
    directory = try TemporaryDirectory(prefix: "mymap-cli-tests")
    try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
  }

  var url: URL { directory.url }

  /// The folder used as HOME; `files()` leaves it out.
  var home: URL { directory.url(".home") }

  /// A path inside the sandbox (nothing is created).
  func path(_ name: String) -> String { directory.url(name).path }

  /// Writes a text file into the sandbox and returns its absolute path.
  @discardableResult
  func write(_ text: String, to name: String) throws -> String {
    try directory.write(text, to: name).path
  }

  /// Writes bytes into the sandbox and returns its absolute path.
  @discardableResult
  func write(_ data: Data, to name: String) throws -> String {
    try directory.write(data, to: name).path
  }

  func contents(of name: String) -> Data? {
    FileManager.default.contents(atPath: path(name))
  }

  /// The names in the sandbox folder (hidden ones included, HOME left out), sorted.
  func files(in subfolder: String = "") throws -> [String] {
    let folder = subfolder.isEmpty ? url : directory.url(subfolder)
    return try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0 != ".home" }.sorted()
  }

  /// A mymap built for code coverage (`swift test --enable-code-coverage`) writes `default.profraw` into its
  /// working directory, the sandbox, whose files the tests check: its profile goes nowhere instead.
  static let noProfile = ["LLVM_PROFILE_FILE": "/dev/null"]

  /// Where `mymap` keeps its store in this sandbox: `$MYMAP_HOME/locations.sqlite`.
  var storePath: String { home.appendingPathComponent("mymap/locations.sqlite").path }

  /// Runs `mymap` with these arguments in the sandbox folder and waits for it (30 s at most).
  func run(
    _ arguments: [String], stdin: Data? = nil, environment extra: [String: String] = [:],
    executable: URL? = nil, workingDirectory: URL? = nil, file: StaticString = #filePath, line: UInt = #line
  ) throws -> CLIResult {
    try start(
      arguments, stdin: stdin, environment: extra, executable: executable, workingDirectory: workingDirectory
    ).wait(file: file, line: line)
  }

  /// Starts `mymap` without waiting for it, so that several can run at once; `wait()` collects the result.
  ///
  /// The environment is the sandbox's own: HOME, `MYMAP_HOME` (`home/mymap`), the XDG folders under HOME,
  /// `TZ=UTC` (dates do not depend on the machine's zone), no coverage profile (`noProfile`), and the
  /// search paths from the test's own environment; `LANG` and the `LC_*` variables are not passed, so dates
  /// read as in plain US English unless `extra` sets them. `extra` overrides any of these.
  /// `executable` runs another copy of mymap (an installed layout); `workingDirectory` replaces the sandbox
  /// as the working folder.
  func start(
    _ arguments: [String], stdin: Data? = nil, environment extra: [String: String] = [:],
    executable: URL? = nil, workingDirectory: URL? = nil
  ) throws -> RunningMymap {
    let process = Process()
    process.executableURL = try executable ?? MymapBinary.url()
    process.arguments = arguments
    process.currentDirectoryURL = workingDirectory ?? url

    var environment: [String: String] = [
      "HOME": home.path,
      "MYMAP_HOME": home.appendingPathComponent("mymap").path,
      "XDG_DATA_HOME": home.appendingPathComponent("data").path,
      "XDG_CACHE_HOME": home.appendingPathComponent("cache").path,
      "TZ": "UTC",
    ]
    for key in ["PATH", "LD_LIBRARY_PATH", "DYLD_LIBRARY_PATH", "DYLD_FRAMEWORK_PATH"] {
      if let value = ProcessInfo.processInfo.environment[key] { environment[key] = value }
    }
    environment.merge(Sandbox.noProfile) { $1 }
    environment.merge(extra) { $1 }
    process.environment = environment

    // Files, not pipes: a pipe that fills up while nobody reads it would block the child.
    let capture = try TemporaryDirectory(prefix: "mymap-cli-capture")
    let stdoutURL = try capture.write(Data(), to: "stdout")
    let stderrURL = try capture.write(Data(), to: "stderr")
    let stdoutHandle = try FileHandle(forWritingTo: stdoutURL)
    let stderrHandle = try FileHandle(forWritingTo: stderrURL)
    defer {
      try? stdoutHandle.close()
      try? stderrHandle.close()
    }
    process.standardOutput = stdoutHandle
    process.standardError = stderrHandle
    if let stdin {
      process.standardInput = try FileHandle(forReadingFrom: capture.write(stdin, to: "stdin"))
    } else {
      process.standardInput = FileHandle.nullDevice
    }

    try process.run()
    return RunningMymap(arguments: arguments, process: process, capture: capture)
  }
}

/// A `mymap` process started by `Sandbox.start`.
struct RunningMymap {
  let arguments: [String]
  let process: Process
  /// Holds the captured stdout and stderr files until the result is read.
  let capture: TemporaryDirectory

  /// Waits for the process (30 s at most from now) and returns what it produced.
  func wait(file: StaticString = #filePath, line: UInt = #line) -> CLIResult {
    let deadline = Date().addingTimeInterval(30)
    while process.isRunning {
      if Date() > deadline {
        process.terminate()
        process.waitUntilExit()
        XCTFail(
          "mymap \(arguments.joined(separator: " ")) did not finish within 30 s", file: file, line: line)
        break
      }
      usleep(2_000)
    }
    process.waitUntilExit()

    let result = CLIResult(
      arguments: arguments, status: process.terminationStatus,
      stdout: (try? Data(contentsOf: capture.url("stdout"))) ?? Data(),
      stderr: String(decoding: (try? Data(contentsOf: capture.url("stderr"))) ?? Data(), as: UTF8.self))
    if process.terminationReason == .uncaughtSignal {
      XCTFail("mymap crashed (signal \(result.status))\n\(result.transcript)", file: file, line: line)
    }
    return result
  }
}

/// Files in the repository that the tests render from.
enum Inputs {
  /// `Examples/europe-trip.json`: 13 places across Europe.
  static let europeTrip = RepositoryPaths.examples.appendingPathComponent("europe-trip.json").path
  /// `Examples/tiles/osm-europe.mbtiles`: zoom 0–2 for the world, 3–6 for Europe only.
  static let europeTiles = RepositoryPaths.examples.appendingPathComponent("tiles/osm-europe.mbtiles").path
  /// The ids of the 13 places of the example, in file order.
  static let europeIDs = [
    "eiffel-tower", "shakespeare-and-company", "apple-covent-garden", "rijksmuseum", "brandenburger-tor",
    "vigelandsparken", "u-fleku", "colosseum", "gelateria-dei-neri", "acropolis", "sagrada-familia",
    "parque-del-retiro", "livraria-lello",
  ]

  /// `render` of the example with its tiles (or `tiles`) at a small size, plus `extra`.
  static func renderEurope(_ extra: [String], size: String = "200x150", tiles: String? = nil) -> [String] {
    ["render", "--locations", europeTrip, "--tiles", tiles ?? europeTiles, "--size", size] + extra
  }

  /// Two places in California, where the example tiles have nothing beyond zoom 2.
  static let californiaJSON = """
    { "locations": [
        { "id": "apple-park", "latitude": 37.3349, "longitude": -122.0090,
          "description": "Apple Park", "category": "Landmark" },
        { "id": "ferry-building", "latitude": 37.7955, "longitude": -122.3937,
          "description": "Ferry Building", "category": "Landmark" } ] }
    """

  /// Two places in Japan, as GeoJSON (coordinates are longitude, latitude).
  static let japanGeoJSON = """
    { "type": "FeatureCollection", "features": [
        { "type": "Feature", "id": "tokyo-tower",
          "geometry": { "type": "Point", "coordinates": [139.7454, 35.6586] },
          "properties": { "description": "Tokyo Tower", "category": "Landmark" } },
        { "type": "Feature", "id": "nishiki",
          "geometry": { "type": "Point", "coordinates": [135.7727, 35.0116] },
          "properties": { "description": "Nishiki Market", "category": "Grocery Store" } } ] }
    """
}

// MARK: - Assertions on what the user sees

/// Exit 0, nothing on stderr but warnings.
func assertSucceeded(_ result: CLIResult, file: StaticString = #filePath, line: UInt = #line) {
  XCTAssertEqual(result.status, 0, "expected exit 0\n\(result.transcript)", file: file, line: line)
  for text in result.stderrLines where !text.hasPrefix("mymap: warning: ") {
    XCTFail("unexpected stderr line \(text.debugDescription)\n\(result.transcript)", file: file, line: line)
  }
}

/// The given exit code, nothing on stdout, and stderr exactly `mymap: error: <message>` on one line.
func assertFailed(
  _ result: CLIResult, status: Int32, message: String, file: StaticString = #filePath, line: UInt = #line
) {
  XCTAssertEqual(result.status, status, "exit code\n\(result.transcript)", file: file, line: line)
  XCTAssertEqual(
    result.stderr, "mymap: error: \(message)\(helpPointer(result, status: status, message: message))\n",
    "stderr", file: file, line: line)
  XCTAssertTrue(result.stdout.isEmpty, "stdout should be empty: \(result.stdoutText)", file: file, line: line)
}

/// What a usage error (exit 2) ends with: a pointer to the help of the command it was made in, e.g.
/// ` (see 'mymap tiles fetch --help')`; errors before a command is known point to `mymap help` themselves.
func helpPointer(_ result: CLIResult, status: Int32, message: String) -> String {
  guard status == 2, !message.hasSuffix("(see 'mymap help')") else { return "" }
  let words = result.arguments.first == "tiles" ? result.arguments.prefix(2) : result.arguments.prefix(1)
  return " (see 'mymap \(words.joined(separator: " ")) --help')"
}

/// The given exit code, nothing on stdout, and stderr one `mymap: error: ` line that starts with `prefix` and
/// contains each of `containing`. For messages that include paths this test cannot know exactly.
func assertFailed(
  _ result: CLIResult, status: Int32, prefix: String, containing: [String] = [],
  file: StaticString = #filePath, line: UInt = #line
) {
  XCTAssertEqual(result.status, status, "exit code\n\(result.transcript)", file: file, line: line)
  XCTAssertTrue(result.stdout.isEmpty, "stdout should be empty: \(result.stdoutText)", file: file, line: line)
  let lines = result.stderrLines
  guard lines.count == 1, let text = lines.first, result.stderr.hasSuffix("\n") else {
    XCTFail("expected one line on stderr\n\(result.transcript)", file: file, line: line)
    return
  }
  XCTAssertTrue(
    text.hasPrefix("mymap: error: " + prefix),
    "expected \"mymap: error: \(prefix)…\", got \(text.debugDescription)",
    file: file, line: line)
  for part in containing {
    XCTAssertTrue(
      text.contains(part), "\(text.debugDescription) should contain \(part.debugDescription)",
      file: file, line: line)
  }
}

// MARK: - Reading outputs

/// Width and height from a PNG's signature and IHDR chunk; nil when the bytes are not a PNG.
func pngSize(_ data: Data) -> (width: Int, height: Int)? {
  let bytes = [UInt8](data.prefix(24))
  let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
  guard bytes.count == 24, Array(bytes[0..<8]) == signature, bytes[12..<16].elementsEqual(Array("IHDR".utf8))
  else { return nil }
  func bigEndian(_ start: Int) -> Int {
    bytes[start..<start + 4].reduce(0) { $0 << 8 | Int($1) }
  }
  return (bigEndian(16), bigEndian(20))
}

/// Asserts that `data` is a PNG of exactly this many pixels.
func assertPNG(
  _ data: Data?, width: Int, height: Int, file: StaticString = #filePath, line: UInt = #line
) {
  guard let data else {
    XCTFail("no PNG was written", file: file, line: line)
    return
  }
  guard let size = pngSize(data) else {
    XCTFail("not a PNG: starts with \([UInt8](data.prefix(8)))", file: file, line: line)
    return
  }
  XCTAssertEqual(size.width, width, "PNG width", file: file, line: line)
  XCTAssertEqual(size.height, height, "PNG height", file: file, line: line)
}

/// The `--layout-json` document, parsed.
struct Layout {
  let json: [String: Any]

  init(_ data: Data, file: StaticString = #filePath, line: UInt = #line) throws {
    let object = try JSONSerialization.jsonObject(with: data)
    guard let dictionary = object as? [String: Any] else {
      XCTFail("the layout JSON is not an object", file: file, line: line)
      throw CocoaError(.coderInvalidValue)
    }
    json = dictionary
  }

  var width: Double? { number(json["width"]) }
  var height: Double? { number(json["height"]) }
  var scale: Double? { number(json["scale"]) }
  var annotations: [[String: Any]] { json["annotations"] as? [[String: Any]] ?? [] }
  var ids: [String] { annotations.compactMap { $0["id"] as? String } }
  var tiles: [String: Any] { json["tiles"] as? [String: Any] ?? [:] }
  var camera: [String: Any] { json["camera"] as? [String: Any] ?? [:] }
  /// The `user` object, or nil when it is JSON null or absent.
  var user: [String: Any]? { json["user"] as? [String: Any] }
  var userIsNull: Bool { json["user"] is NSNull }
}

/// A JSON number as a Double (JSONSerialization gives NSNumber).
func number(_ value: Any?) -> Double? {
  if let value = value as? NSNumber { return value.doubleValue }
  if let value = value as? Double { return value }
  if let value = value as? Int { return Double(value) }
  return nil
}

/// A `{x, y, width, height}` object as a rectangle.
func rect(_ value: Any?) -> (x: Double, y: Double, width: Double, height: Double)? {
  guard let object = value as? [String: Any], let x = number(object["x"]), let y = number(object["y"]),
    let width = number(object["width"]), let height = number(object["height"])
  else { return nil }
  return (x, y, width, height)
}

/// `.NAME.tmp-XXXXXX` files that an interrupted or failed atomic write would leave behind.
func temporaryLeftovers(_ names: [String]) -> [String] {
  names.filter { $0.hasPrefix(".") && $0.contains(".tmp-") }
}
