import FileSystem
import Foundation
import ImageCodecs
import MapMath

/// Tiles in a folder as `{z}/{x}/{y}.png` (or `.jpg`, `.jpeg`, `.webp`), the layout of a tile cache, or
/// vector tiles as `{z}/{x}/{y}.pbf` (or `.mvt`).
///
/// An optional `metadata.json` beside the zoom folders may give `attribution`, `minzoom`, `maxzoom`,
/// `tileSize` (numbers or numeric strings), `format` (`png`, `pbf`, …) and `"scheme": "tms"` for folders
/// with TMS rows. Without a `format`, the first tile files found say whether the folder holds vector tiles.
public struct DirectoryTileSource: TileSource {
  /// The folder as given.
  public let path: String
  public let attribution: String?
  public let zoomRange: ClosedRange<Int>
  public let tileSize: Int
  /// True when the rows are numbered from the south (`"scheme": "tms"` in the metadata).
  public let usesTMSRows: Bool
  public let content: TileContent

  /// File extensions of image tiles, tried for each tile in order.
  public static let tileExtensions = ["png", "jpg", "jpeg", "webp"]
  /// File extensions of vector tiles, tried for each tile in order.
  public static let vectorTileExtensions = ["pbf", "mvt"]

  public var description: String { path }
  public var cacheIdentity: String { "directory:" + URL(fileURLWithPath: path).standardizedFileURL.path }

  /// Opens a tile folder. Throws `TileSourceError` when it is missing, not a folder, or its
  /// `metadata.json` is malformed, too large (`TileLimits.maximumMetadataFileBytes`) or declares a tile
  /// size that cannot be drawn.
  public init(path: String) throws {
    guard let kind = FileKind(path: path) else { throw TileSourceError.notFound(path) }
    switch kind {
    case .folder: break
    case .regular: throw TileSourceError.notATileSource(path)
    default: throw TileSourceError.notAFile(path, kind: kind.description)
    }
    let metadata = try Self.readMetadata(folder: path)
    let present = try Self.zoomFolders(path)
    let low = metadata.integer("minzoom") ?? present.min() ?? 0
    let high = metadata.integer("maxzoom") ?? present.max() ?? low
    self.path = path
    attribution = metadata.string("attribution").flatMap(plainAttribution)
    zoomRange = min(max(low, 0), 30)...min(max(high, low, 0), 30)
    usesTMSRows = metadata.string("scheme")?.lowercased() == "tms"
    content =
      try TileContent.named(metadata.string("format"), source: path)
      ?? (Self.holdsVectorTiles(folder: path, zooms: present.sorted()) ? .vector : .raster)
    tileSize =
      try metadata.tileSize(source: path)
      ?? (content == .vector ? 512 : Self.sampleTileSize(folder: path, zooms: present.sorted()) ?? 256)
  }

  /// The tile's bytes. A tile whose file is not a regular file, or is larger than
  /// `TileLimits.maximumTileBytes`, throws `TileSourceError.badTile`, which a `TileLoader` counts as a
  /// failed tile.
  public func tileData(_ id: TileID) throws -> Data? {
    let row = usesTMSRows ? id.tmsRow : id.y
    let stem = "\(path)/\(id.z)/\(id.x)/\(row)."
    for fileExtension in content == .vector ? Self.vectorTileExtensions : Self.tileExtensions {
      let file = stem + fileExtension
      do throws(RegularFileError) {
        guard let data = try RegularFile.read(file, limit: TileLimits.maximumTileBytes) else { continue }
        return data
      } catch .unreadable(let reason) {
        throw TileSourceError.unreadable(file, reason)
      } catch {
        throw TileSourceError.badTile(path, id, reason: "its file \(row).\(fileExtension): \(error.reason)")
      }
    }
    return nil
  }

  /// The numeric sub-folders (zoom levels) present.
  private static func zoomFolders(_ path: String) throws -> [Int] {
    let names: [String]
    do {
      names = try FileManager.default.contentsOfDirectory(atPath: path)
    } catch {
      throw TileSourceError.unreadable(path, (error as NSError).localizedDescription)
    }
    return names.compactMap { name in
      guard !name.isEmpty, name.allSatisfy(\.isASCII), let zoom = Int(name), (0...30).contains(zoom) else {
        return nil
      }
      return zoom
    }
  }

  /// Whether the first tile file found (lowest zoom, first column) is a vector tile (`.pbf`, `.mvt`).
  private static func holdsVectorTiles(folder: String, zooms: [Int]) -> Bool {
    let files = FileManager.default
    for zoom in zooms {
      let zoomFolder = "\(folder)/\(zoom)"
      for column in ((try? files.contentsOfDirectory(atPath: zoomFolder)) ?? []).sorted() {
        let names = ((try? files.contentsOfDirectory(atPath: "\(zoomFolder)/\(column)")) ?? []).sorted()
        guard let name = names.first(where: { $0.contains(".") }) else { continue }
        let fileExtension = String(name[name.index(after: name.lastIndex(of: ".")!)...]).lowercased()
        return vectorTileExtensions.contains(fileExtension)
      }
    }
    return false
  }

  /// The size in the header of the first of a few PNG tiles, at the lowest zooms, whose header gives a
  /// square size in `TileLimits.tileSizes`; only headers are read, and only of regular files.
  private static func sampleTileSize(folder: String, zooms: [Int]) -> Int? {
    let files = FileManager.default
    var looked = 0
    for zoom in zooms {
      let zoomFolder = "\(folder)/\(zoom)"
      for column in ((try? files.contentsOfDirectory(atPath: zoomFolder)) ?? []).sorted() {
        let columnFolder = "\(zoomFolder)/\(column)"
        let names = ((try? files.contentsOfDirectory(atPath: columnFolder)) ?? []).sorted()
        for name in names where name.lowercased().hasSuffix(".png") {
          guard looked < 8 else { return nil }
          looked += 1
          guard let header = RegularFile.prefix("\(columnFolder)/\(name)", count: 24),
            let size = PNGCodec.size(of: header), size.width == size.height,
            TileLimits.isUsableTileSize(size.width)
          else { continue }
          return size.width
        }
      }
    }
    return nil
  }

  private static func readMetadata(folder: String) throws -> TileMetadata {
    let file = "\(folder)/metadata.json"
    let read: Data?
    do throws(RegularFileError) {
      read = try RegularFile.read(file, limit: TileLimits.maximumMetadataFileBytes)
    } catch {
      throw TileSourceError.badMetadata(file, error.reason)
    }
    guard let data = read else { return TileMetadata(values: [:]) }
    let object: Any
    do {
      object = try JSONSerialization.jsonObject(with: data)
    } catch {
      throw TileSourceError.badMetadata(file, "not valid JSON")
    }
    guard let values = object as? [String: Any] else {
      throw TileSourceError.badMetadata(file, "expected a JSON object")
    }
    return TileMetadata(values: values)
  }
}

/// The loosely typed values of a `metadata.json` (tools write numbers both as numbers and as strings).
private struct TileMetadata {
  let values: [String: Any]

  func string(_ key: String) -> String? {
    values[key] as? String
  }

  /// The `tileSize` (or `tilesize`) entry: nil when there is none; throws `badTileSize` for one that is
  /// not a whole number in `TileLimits.tileSizes`.
  func tileSize(source: String) throws -> Int? {
    guard let key = ["tileSize", "tilesize"].first(where: { values[$0] != nil }), let value = values[key],
      !(value is NSNull)
    else { return nil }
    if let size = integer(key), TileLimits.isUsableTileSize(size) { return size }
    let written = (value as? String).map { "\"\($0)\"" } ?? "\(value)"
    throw TileSourceError.badTileSize(source, declaredIn: "\(key) in metadata.json", value: written)
  }

  func integer(_ key: String) -> Int? {
    if let number = values[key] as? Int { return number }
    if let number = values[key] as? Double, number == number.rounded(), abs(number) < 1e9 {
      return Int(number)
    }
    return (values[key] as? String).flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
  }
}
