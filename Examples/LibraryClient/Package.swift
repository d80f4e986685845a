// swift-tools-version:6.0
import PackageDescription

// A package that uses mymap as a library, as another project would: the ten-line map and a golden-image
// test of it (Scripts/check-library-client builds and tests it). mymap is found by path here; another
// project names its checkout or its Git URL.
let package = Package(
  name: "LibraryClient",
  dependencies: [.package(name: "mymap", path: "../..")],
  targets: [
    .executableTarget(
      name: "trip-map",
      dependencies: [
        .product(name: "Rendering", package: "mymap"), .product(name: "MapMath", package: "mymap"),
      ]),
    .testTarget(
      name: "TripMapTests",
      dependencies: [
        .product(name: "MapSnapshotTesting", package: "mymap"), .product(name: "Rendering", package: "mymap"),
        .product(name: "MapMath", package: "mymap"),
      ],
      exclude: ["MapSnapshots"]),
  ]
)
