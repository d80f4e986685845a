import Dispatch
import Foundation
import Locking
import MapMath
import MapStyle
import Tiles

/// Why a snapshot could not be made. `description` is a sentence for a person; no case names a
/// command-line option.
public enum MapSnapshotError: Error, Equatable, CustomStringConvertible {
  /// The options cannot make a map (a size, a number, nothing to show…), or the drawing failed.
  case render(RenderError)
  /// The built-in basemap or a named style that comes with mymap is missing or unusable.
  case bundledData(BundledDataError)
  /// The tile source at `path` cannot be opened.
  case tileSource(path: String, reason: String)
  /// The task was cancelled before the map was finished.
  case cancelled

  public var description: String {
    switch self {
    case .render(let error): return error.description
    case .bundledData(let error): return error.description
    case .tileSource(_, let reason): return reason
    case .cancelled: return RenderError.cancelled.description
    }
  }
}

/// Makes map images from `MapSnapshotOptions`, as MapKit's snapshotter does for an app: the places as
/// pins with callouts, the user's position, tracks, over the built-in offline basemap or tiles.
///
/// ```swift
/// var options = MapSnapshotOptions(places: [
///   PointAnnotation(identifier: "1", coordinate: Coordinate(latitude: 60.17, longitude: 24.94),
///                   title: "Helsinki")
/// ])
/// options.style = try Style.named("dark")
/// let snapshot = try await MapSnapshotter(options: options).snapshot()
/// try snapshot.data.write(to: URL(fileURLWithPath: "map.png"))
/// ```
///
/// The same options give the same bytes on the same machine (cairo, pango and the installed fonts
/// decide the pixels).
public struct MapSnapshotter: Sendable {
  /// What the next snapshot draws.
  public var options: MapSnapshotOptions

  /// A snapshotter for `options`.
  public init(options: MapSnapshotOptions) {
    self.options = options
  }

  /// Draws the map on a background thread. Cancelling the calling task stops the render at its next
  /// stage (measure and fit, basemap, drawing, encoding) with `MapSnapshotError.cancelled`. A tile
  /// server's download, once begun, runs to its end (bounded by its tile limit and timeouts), so that the
  /// source stays usable for the next map; stop it with its own `FetchCancellation` if need be.
  public func snapshot() async throws(MapSnapshotError) -> MapSnapshot {
    if Task.isCancelled { throw .cancelled }
    let cancellation = RenderCancellation()
    let options = options
    let result: Result<MapSnapshot, MapSnapshotError> = await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        DispatchQueue.global(qos: .userInitiated).async {
          do throws(MapSnapshotError) {
            continuation.resume(
              returning: .success(try MapSnapshotter(options: options).snapshot(cancellation: cancellation)))
          } catch {
            continuation.resume(returning: .failure(error))
          }
        }
      }
    } onCancel: {
      cancellation.cancel()
    }
    return try result.get()
  }

  /// Draws the map on the calling thread (for code that is not async: XCTest assertions, command-line
  /// tools); `cancellation`, when given, may stop it from another thread.
  public func snapshot(cancellation: RenderCancellation?) throws(MapSnapshotError) -> MapSnapshot {
    let request = try makeRequest()
    do {
      return MapSnapshot(try Snapshotter.render(request, cancellation: cancellation), format: options.format)
    } catch .cancelled {
      throw .cancelled
    } catch {
      throw .render(error)
    }
  }

  /// The render request the options describe, with the basemap opened.
  func makeRequest() throws(MapSnapshotError) -> RenderRequest {
    var request = RenderRequest(annotations: options.places, user: options.user)
    request.tracks = options.tracks
    request.size = options.size
    request.scale = options.scale
    request.format = options.format
    request.center = options.center
    request.zoom = options.zoom
    request.spanMeters = options.spanMeters
    request.padding = options.padding
    request.zoomSnapping = options.zoomSnapping
    request.style = options.style
    request.showCallouts = options.showsCallouts
    request.labels = options.labels
    request.showsLegend = options.showsLegend
    request.legendMoreText = options.legendMoreText
    request.title = options.title
    request.scaleBar = options.scaleBar
    request.clustering = options.clustering
    request.requireAllTiles = options.requireAllTiles
    if let attribution = options.attribution { request.style.basemap.attribution = attribution }
    switch options.tiles {
    case .builtin: request.basemap = try Self.bundledBasemap()
    case .basemap(let basemap): request.basemap = basemap
    case .path(let path):
      do {
        request.tiles = try openTileSource(at: path)
      } catch {
        throw .tileSource(path: path, reason: "\(error)")
      }
    case .source(let source): request.tiles = source
    case .none: break
    }
    if request.tiles?.content == .vector {
      if let mapStyle = options.mapStyle {
        request.mapStyle = mapStyle
      } else {
        do throws(BundledDataError) {
          request.mapStyle = try MapStyle.named(options.style.basemap.vectorStyle ?? "light")
        } catch {
          throw .bundledData(error)
        }
      }
    }
    return request
  }

  /// The built-in basemap, opened once for every snapshot of the process (its reader is thread-safe).
  private static let openedBasemap = Locked<BasemapData?>(nil)

  private static func bundledBasemap() throws(MapSnapshotError) -> BasemapData {
    if let opened = openedBasemap.withLock({ $0 }) { return opened }
    do throws(BundledDataError) {
      let basemap = try BasemapData.bundled()
      openedBasemap.withLock { $0 = basemap }
      return basemap
    } catch {
      throw .bundledData(error)
    }
  }
}
