// swift-tools-version:6.0
import Foundation
import PackageDescription

// The fuzz harnesses, kept out of the main package so that its `swift build` and `swift test` never see
// them (they are built with sanitizers, which apply to every module of a build).
//
// Every `Harnesses/<name>.swift` becomes an executable `fuzz-<name>`, depending on the mymap modules the
// file imports: adding a harness is adding one file.

let harnessFolder = Context.packageDirectory + "/Harnesses"
/// The main package, by the identity SwiftPM gives a path dependency: its folder's name.
let mymapPath = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent()
let mymap = mymapPath.lastPathComponent.lowercased()
/// The toolchain's modules a harness may import; any other import not declared below is a product of mymap.
let toolchainModules: Set<String> = ["Foundation", "Glibc", "Darwin", "Dispatch"]
/// This package's own modules a harness may import.
let supportModules: Set<String> = ["FuzzSupport", "LocationsFuzzing", "CSQLiteFuzz"]

func harnessTarget(_ file: String) -> Target {
  let name = String(file.dropLast(".swift".count))
  let source = (try? String(contentsOfFile: harnessFolder + "/" + file, encoding: .utf8)) ?? ""
  let imports = source.split(separator: "\n").compactMap { line -> String? in
    let words = line.split(separator: " ")
    guard words.count == 2, words[0] == "import" else { return nil }
    return String(words[1])
  }
  let dependencies = imports.filter { !toolchainModules.contains($0) }.map { module -> Target.Dependency in
    supportModules.contains(module) ? .target(name: module) : .product(name: module, package: mymap)
  }
  // Each harness is one file of the shared folder; the others are not its sources.
  return .executableTarget(
    name: "fuzz-" + name, dependencies: dependencies, path: "Harnesses",
    exclude: harnessFiles.filter { $0 != file }, sources: [file])
}

let harnessFiles = ((try? FileManager.default.contentsOfDirectory(atPath: harnessFolder)) ?? [])
  .filter { $0.hasSuffix(".swift") }.sorted()

let package = Package(
  name: "mymap-fuzz",
  products: harnessFiles.map { file in
    let name = "fuzz-" + file.dropLast(".swift".count)
    return .executable(name: name, targets: [name])
  },
  dependencies: [.package(path: "..")],
  targets: [
    .target(name: "CFuzz", path: "Support/CFuzz"),
    .target(name: "FuzzSupport", dependencies: ["CFuzz"], path: "Support/FuzzSupport"),
    .target(
      name: "LocationsFuzzing", dependencies: ["FuzzSupport", .product(name: "Places", package: mymap)],
      path: "Support/LocationsFuzzing"),
    // SQLite for harnesses that write well-formed databases (the main package's CSQLite is no product).
    .systemLibrary(name: "CSQLiteFuzz", path: "Support/CSQLiteFuzz", pkgConfig: "sqlite3"),
  ] + harnessFiles.map(harnessTarget)
)
