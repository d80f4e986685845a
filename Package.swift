// swift-tools-version:6.0
import PackageDescription

// Modules follow ARCHITECTURE.md §1: each may import only those listed before it, as its row there says.
let package = Package(
  name: "mymap",
  products: [
    .executable(name: "mymap", targets: ["mymap"]),
    // Arguments, JSON, ImageCodecs and TileFetching are products so that Fuzz/ (a package of its own) can
    // import them.
    .library(name: "Arguments", targets: ["Arguments"]),
    .library(name: "JSON", targets: ["JSON"]),
    .library(name: "ImageCodecs", targets: ["ImageCodecs"]),
    .library(name: "TileFetching", targets: ["TileFetching"]),
    .library(name: "MapMath", targets: ["MapMath"]),
    .library(name: "Places", targets: ["Places"]),
    .library(name: "Tiles", targets: ["Tiles"]),
    .library(name: "Rendering", targets: ["Rendering"]),
    .library(name: "VectorTiles", targets: ["VectorTiles"]),
    .library(name: "MapStyle", targets: ["MapStyle"]),
    .library(name: "MapSnapshotTesting", targets: ["MapSnapshotTesting"]),
  ],
  targets: [
    .systemLibrary(
      name: "CCairo", pkgConfig: "pangocairo", providers: [.apt(["libcairo2-dev", "libpango1.0-dev"])]),
    .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
    .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
    // libdeflate's one-call inflate: a vector tile's gzip in about a third of zlib's time.
    .systemLibrary(name: "CDeflate", pkgConfig: "libdeflate", providers: [.apt(["libdeflate-dev"])]),
    // libpng reports errors with setjmp/longjmp, which Swift cannot catch: a small C target turns them into codes.
    // It calls zlib too, to stop a tile whose image data inflates without end before libpng reads it, and
    // libdeflate (Debian's libdeflate-dev), which deflates a map's image in a third of zlib's time.
    .target(
      name: "CPNG", linkerSettings: [.linkedLibrary("png16"), .linkedLibrary("z"), .linkedLibrary("deflate")]),
    // libjpeg also reports errors with setjmp/longjmp: the same kind of C target keeps them out of Swift.
    .target(name: "CJPEG", linkerSettings: [.linkedLibrary("jpeg")]),
    // libcurl, opened with dlopen at the first fetch: an offline render loads none of it (nor TLS, Kerberos,
    // LDAP). Needs only Debian's libcurl4 at run time, no headers to build.
    .target(name: "CCurl"),
    // Pixel loops Cairo has no call for: a line layer's coverage mask laid in one pass that skips what it
    // does not cover (pixman's arithmetic, SSE2 where there is SSE2).
    .target(name: "CRaster"),
    // libwebp's decoding API reports errors through return values, so Swift calls it directly.
    .systemLibrary(name: "CWebP", pkgConfig: "libwebp", providers: [.apt(["libwebp-dev"])]),
    .target(name: "Arguments"),
    .target(name: "JSON"),
    .target(name: "MapMath"),
    // A value behind a POSIX mutex (one ThreadSanitizer sees).
    .target(name: "Locking"),
    // Reading what a user names without blocking or reading without end; byte counts in words.
    .target(name: "FileSystem"),
    // RFC 4180 CSV records with line numbers: the one CSV reader (places files, the builder's cities).
    .target(name: "CSV"),
    // XML 1.0 as a stream of events with namespaces: GPX's reader, pure Swift (no libxml2 in any process).
    .target(name: "XML"),
    // The one wrapper of sqlite3: connections, statements, typed errors, step budgets, thread rules.
    .target(name: "SQLite", dependencies: ["Locking", "CSQLite", "FileSystem"]),
    .target(name: "Gzip", dependencies: ["CZlib", "CDeflate"]),
    // Decoded pixels and the PNG, JPEG and WebP codecs (their C libraries' Swift faces).
    .target(name: "ImageCodecs", dependencies: ["CPNG", "CJPEG", "CWebP"]),
    // Pure Swift: the Mapbox Vector Tile protobuf, decoded with bounds on everything a tile claims.
    .target(name: "VectorTiles"),
    // MapLibre style reading and evaluation: pure Swift, no I/O.
    .target(name: "MapStyle", dependencies: ["JSON"]),
    .target(name: "Places", dependencies: ["JSON", "CSV", "XML", "MapMath", "FileSystem", "SQLite"]),
    .target(
      name: "Tiles",
      dependencies: ["Locking", "JSON", "MapMath", "FileSystem", "SQLite", "Gzip", "ImageCodecs"]),
    // Fetching tiles from tile servers into the caches, politely (over CCurl; no FoundationNetworking).
    .target(
      name: "TileFetching",
      dependencies: [
        "Locking", "CCurl", "MapMath", "FileSystem", "Gzip", "ImageCodecs", "VectorTiles", "Tiles",
      ]),
    .target(
      name: "Rendering",
      dependencies: [
        "Locking", "JSON", "MapMath", "ImageCodecs", "Tiles", "VectorTiles", "MapStyle", "Gzip", "CCairo",
        "CRaster",
      ]),
    // assertMapSnapshot for a user's XCTest targets: golden images of their own maps.
    .target(name: "MapSnapshotTesting", dependencies: ["Rendering", "ImageCodecs"]),
    .executableTarget(
      name: "mymap",
      dependencies: [
        "Arguments", "Locking", "MapMath", "FileSystem", "Places", "ImageCodecs", "Tiles", "TileFetching",
        "MapStyle",
        "Rendering",
      ]),
    .executableTarget(
      name: "mymap-bench", dependencies: ["MapMath", "Places", "ImageCodecs", "Tiles", "Rendering"]),
    // The builder of Data/basemap.sqlite from Natural Earth and GeoNames: only basemap-builder uses it.
    .target(name: "BasemapBuilding", dependencies: ["Tiles", "MapMath", "CSV", "SQLite", "FileSystem"]),
    .executableTarget(name: "basemap-builder", dependencies: ["BasemapBuilding", "Tiles", "MapMath"]),
    .target(
      name: "TestSupport",
      dependencies: [
        "Rendering", "MapSnapshotTesting", "ImageCodecs", "Tiles", "TileFetching", "BasemapBuilding",
        "SQLite",
      ], path: "Tests/TestSupport"),
    .testTarget(name: "ArgumentsTests", dependencies: ["Arguments"]),
    .testTarget(name: "JSONTests", dependencies: ["JSON"]),
    .testTarget(name: "XMLTests", dependencies: ["XML"]),
    .testTarget(name: "MapStyleTests", dependencies: ["MapStyle", "JSON"]),
    .testTarget(name: "LockingTests", dependencies: ["Locking"]),
    .testTarget(name: "MapMathTests", dependencies: ["MapMath", "TestSupport"]),
    .testTarget(
      name: "PlacesTests", dependencies: ["Places", "FileSystem", "SQLite", "TestSupport"],
      exclude: ["Fixtures"]),
    .testTarget(
      name: "TilesTests",
      dependencies: [
        "Locking", "Tiles", "ImageCodecs", "Gzip", "SQLite", "VectorTiles", "BasemapBuilding", "TestSupport",
      ]),
    .testTarget(
      name: "TileFetchingTests", dependencies: ["TileFetching", "Tiles", "ImageCodecs", "TestSupport"]),
    .testTarget(name: "BasemapBuildingTests", dependencies: ["BasemapBuilding", "Tiles", "TestSupport"]),
    .testTarget(name: "GzipTests", dependencies: ["Gzip", "TestSupport"]),
    .testTarget(name: "VectorTilesTests", dependencies: ["VectorTiles", "Gzip", "TestSupport"]),
    .testTarget(
      name: "RenderingTests",
      dependencies: [
        "Rendering", "Places", "ImageCodecs", "TileFetching", "MapStyle", "VectorTiles", "TestSupport",
        "CZlib",
      ],
      exclude: ["Goldens"]),
    .testTarget(name: "CLITests", dependencies: ["ImageCodecs", "TestSupport"]),
    .testTarget(
      name: "MapSnapshotTestingTests",
      dependencies: ["MapSnapshotTesting", "Rendering", "ImageCodecs", "TestSupport"],
      exclude: ["MapSnapshots"]),
  ]
)
