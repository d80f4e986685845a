import Foundation
import XCTest

/// Helpers for the tests of the store commands (`add`, `list`, `show`, `edit`, `delete`, `import`, `export`).
extension Sandbox {
  /// Whether the sandbox's default store file exists.
  var storeExists: Bool { FileManager.default.fileExists(atPath: storePath) }

  /// Runs `mymap add` with these arguments, checks that it printed one id and nothing else, and returns it.
  @discardableResult
  func add(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) throws -> String {
    let result = try run(["add"] + arguments, file: file, line: line)
    XCTAssertEqual(result.status, 0, "add\n\(result.transcript)", file: file, line: line)
    XCTAssertEqual(result.stderr, "", "add writes nothing on stderr", file: file, line: line)
    let id = result.stdoutText.hasSuffix("\n") ? String(result.stdoutText.dropLast()) : ""
    XCTAssertTrue(
      isLowercaseUUID(id), "add prints its id: \(result.stdoutText.debugDescription)", file: file, line: line)
    return id
  }

  /// `mymap list --json` (plus `arguments`), checked and parsed: the places, in the order listed.
  func listJSON(
    _ arguments: [String] = [], file: StaticString = #filePath, line: UInt = #line
  ) throws -> [[String: Any]] {
    let result = try run(["list", "--json"] + arguments, file: file, line: line)
    XCTAssertEqual(result.status, 0, "list --json\n\(result.transcript)", file: file, line: line)
    XCTAssertEqual(result.stderr, "", "list --json writes nothing on stderr", file: file, line: line)
    return try places(inJSON: result.stdout, file: file, line: line)
  }

  /// The `list --json` output as bytes, for comparing two stores exactly.
  func listJSONText(
    _ arguments: [String] = [], file: StaticString = #filePath, line: UInt = #line
  ) throws -> String {
    let result = try run(["list", "--json"] + arguments, file: file, line: line)
    assertSucceeded(result, file: file, line: line)
    return result.stdoutText
  }

  /// The ids of `list --json`, in the order listed.
  func listedIDs(
    _ arguments: [String] = [], file: StaticString = #filePath, line: UInt = #line
  ) throws -> [String] {
    try listJSON(arguments, file: file, line: line).compactMap { $0["id"] as? String }
  }

  /// The `--layout-json` of a render of the store, written to standard output (the image to `map.png`).
  func renderLayout(
    _ arguments: [String], file: StaticString = #filePath, line: UInt = #line
  ) throws -> Layout {
    let result = try run(
      ["render", "--out", "map.png", "--size", "200x150", "--callouts", "none", "--cluster", "never"]
        + ["--layout-json", "-"] + arguments, file: file, line: line)
    assertSucceeded(result, file: file, line: line)
    return try Layout(result.stdout, file: file, line: line)
  }
}

/// The `locations` of a mymap locations JSON document.
func places(inJSON data: Data, file: StaticString = #filePath, line: UInt = #line) throws -> [[String: Any]] {
  let object = try JSONSerialization.jsonObject(with: data)
  guard let document = object as? [String: Any], let places = document["locations"] as? [[String: Any]] else {
    XCTFail("not mymap locations JSON: \(String(decoding: data, as: UTF8.self))", file: file, line: line)
    throw CocoaError(.coderInvalidValue)
  }
  return places
}

/// A UUID in the lowercase form mymap gives new places (`5e9223dc-4ef1-40bb-a438-5d322d468585`).
func isLowercaseUUID(_ text: String) -> Bool {
  UUID(uuidString: text) != nil && text == text.lowercased() && text.count == 36
}

/// The rows `mymap list` prints for one place: its short id and title, then its address under the title.
func listRow(_ id: String, _ title: String, _ address: String) -> String {
  let short = String(id.prefix(8))
  return "  \(short)  \(title)\n  \(String(repeating: " ", count: short.count))  \(address)\n"
}

/// The categories `mymap` knows, in the seed's order.
let seedCategories = [
  "No Category", "Apple Store", "Bar", "Bookstore", "Club", "Grocery Store", "Historic Building", "House",
  "Icecream Vendor", "Landmark", "Park",
]
