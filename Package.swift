// swift-tools-version:6.0
import PackageDescription

// Modules follow DESIGN.md §1: each may import only those listed before it.
let package = Package(
  name: "mymap",
  products: [
    .executable(name: "mymap", targets: ["mymap"]),
    .library(name: "MapMath", targets: ["MapMath"]),
    .library(name: "Places", targets: ["Places"]),
    .library(name: "Tiles", targets: ["Tiles"]),
    .library(name: "Rendering", targets: ["Rendering"]),
    .library(name: "VectorTiles", targets: ["VectorTiles"]),
    .library(name: "MapStyle", targets: ["MapStyle"]),
  ],
  targets: [
    .systemLibrary(name: "CCairo", pkgConfig: "pangocairo", providers: [.apt(["libcairo2-dev", "libpango1.0-dev"])]),
    .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
    .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
    // libpng reports errors with setjmp/longjmp, which Swift cannot catch: a small C target turns them into codes.
    // It calls zlib too, to stop a tile whose image data inflates without end before libpng reads it.
    .target(name: "CPNG", linkerSettings: [.linkedLibrary("png16"), .linkedLibrary("z")]),
    // libjpeg also reports errors with setjmp/longjmp: the same kind of C target keeps them out of Swift.
    .target(name: "CJPEG", linkerSettings: [.linkedLibrary("jpeg")]),
    // libwebp's decoding API reports errors through return values, so Swift calls it directly.
    .systemLibrary(name: "CWebP", pkgConfig: "libwebp", providers: [.apt(["libwebp-dev"])]),
    .target(name: "Arguments"),
    .target(name: "JSON"),
    .target(name: "MapMath"),
    .target(name: "Gzip", dependencies: ["CZlib"]),
    // Pure Swift: the Mapbox Vector Tile protobuf, decoded with bounds on everything a tile claims.
    .target(name: "VectorTiles"),
    // MapLibre style reading and evaluation: pure Swift, no I/O.
    .target(name: "MapStyle", dependencies: ["JSON"]),
    .target(name: "Places", dependencies: ["JSON", "MapMath", "CSQLite"]),
    .target(name: "Tiles", dependencies: ["JSON", "MapMath", "Gzip", "CSQLite", "CPNG", "CJPEG", "CWebP"]),
    .target(
      name: "Rendering",
      dependencies: ["JSON", "MapMath", "Tiles", "CCairo", "CPNG", "VectorTiles", "MapStyle", "Gzip"]),
    .executableTarget(name: "mymap", dependencies: ["Arguments", "MapMath", "Places", "Tiles", "Rendering"]),
    .executableTarget(name: "mymap-bench", dependencies: ["MapMath", "Places", "Tiles", "Rendering"]),
    .executableTarget(name: "basemap-builder", dependencies: ["Tiles", "MapMath", "CSQLite"]),
    .target(name: "TestSupport", dependencies: ["Rendering", "Tiles", "CSQLite"], path: "Tests/TestSupport"),
    .testTarget(name: "ArgumentsTests", dependencies: ["Arguments"]),
    .testTarget(name: "JSONTests", dependencies: ["JSON"]),
    .testTarget(name: "MapStyleTests", dependencies: ["MapStyle", "JSON"]),
    .testTarget(name: "MapMathTests", dependencies: ["MapMath", "TestSupport"]),
    .testTarget(name: "PlacesTests", dependencies: ["Places", "TestSupport"], exclude: ["Fixtures"]),
    .testTarget(name: "TilesTests", dependencies: ["Tiles", "Gzip", "TestSupport"]),
    .testTarget(name: "GzipTests", dependencies: ["Gzip", "TestSupport"]),
    .testTarget(name: "VectorTilesTests", dependencies: ["VectorTiles", "Gzip", "TestSupport"]),
    .testTarget(
      name: "RenderingTests", dependencies: ["Rendering", "Places", "TestSupport", "MapStyle", "VectorTiles"],
      exclude: ["Goldens"]),
    .testTarget(name: "CLITests", dependencies: ["TestSupport"]),
  ]
)
