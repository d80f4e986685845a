// The ten-line map of "Render a map in ten lines" (Rendering.docc): two places in Paris over the
// built-in basemap, in the dark style, written to the path given (map.png by default).
import Foundation
import MapMath
import Rendering

let output = CommandLine.arguments.dropFirst().first ?? "map.png"
var options = MapSnapshotOptions(places: [
  PointAnnotation(
    identifier: "eiffel", coordinate: Coordinate(latitude: 48.8584, longitude: 2.2945),
    title: "Eiffel Tower", subtitle: "Landmark"),
  PointAnnotation(
    identifier: "louvre", coordinate: Coordinate(latitude: 48.8606, longitude: 2.3376),
    title: "Louvre Museum", subtitle: "Museum"),
])
options.style = try Style.named("dark")
options.title = MapTitle(title: "Paris", subtitle: "Two museums")
let snapshot = try await MapSnapshotter(options: options).snapshot()
try snapshot.data.write(to: URL(fileURLWithPath: output), options: .atomic)
print(
  "\(output): \(Int(snapshot.pixelSize.width))×\(Int(snapshot.pixelSize.height)), \(snapshot.layout.tiles.source)"
)
