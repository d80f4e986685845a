import Foundation
import MapMath

/// Tiles in a folder as `{z}/{x}/{y}.png` (or `.jpg`, `.jpeg`, `.webp`), the layout of a tile cache.
///
/// An optional `metadata.json` beside the zoom folders may give `attribution`, `minzoom`, `maxzoom`,
/// `tileSize` (numbers or numeric strings) and `"scheme": "tms"` for folders with TMS rows.
public struct DirectoryTileSource: TileSource {
  /// The folder as given.
  public let path: String
  public let attribution: String?
  public let zoomRange: ClosedRange<Int>
  public let tileSize: Int
  /// True when the rows are numbered from the south (`"scheme": "tms"` in the metadata).
  public let usesTMSRows: Bool

  /// File extensions tried for each tile, in order.
  public static let tileExtensions = ["png", "jpg", "jpeg", "webp"]

  public var description: String { path }
  public var cacheIdentity: String { "directory:" + URL(fileURLWithPath: path).standardizedFileURL.path }

  /// Opens a tile folder. Throws `TileSourceError` when it is missing, not a folder, or its
  /// `metadata.json` is malformed.
  public init(path: String) throws {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      throw TileSourceError.notFound(path)
    }
    guard isDirectory.boolValue else { throw TileSourceError.notATileSource(path) }
    let metadata = try Self.readMetadata(folder: path)
    let present = try Self.zoomFolders(path)
    let low = metadata.integer("minzoom") ?? present.min() ?? 0
    let high = metadata.integer("maxzoom") ?? present.max() ?? low
    self.path = path
    attribution = metadata.string("attribution").flatMap(plainAttribution)
    zoomRange = min(max(low, 0), 30)...min(max(high, low, 0), 30)
    usesTMSRows = metadata.string("scheme")?.lowercased() == "tms"
    let namedSize = (metadata.integer("tileSize") ?? metadata.integer("tilesize")).flatMap {
      $0 > 0 ? $0 : nil
    }
    tileSize = namedSize ?? Self.sampleTileSize(folder: path, zooms: present.sorted()) ?? 256
  }

  public func tileData(_ id: TileID) throws -> Data? {
    let row = usesTMSRows ? id.tmsRow : id.y
    let stem = "\(path)/\(id.z)/\(id.x)/\(row)."
    for fileExtension in Self.tileExtensions {
      let file = stem + fileExtension
      guard FileManager.default.fileExists(atPath: file) else { continue }
      do {
        return try Data(contentsOf: URL(fileURLWithPath: file))
      } catch {
        throw TileSourceError.unreadable(file, (error as NSError).localizedDescription)
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

  /// The size written in the header of the first PNG tile found at the lowest zoom that has one.
  private static func sampleTileSize(folder: String, zooms: [Int]) -> Int? {
    let files = FileManager.default
    for zoom in zooms {
      let zoomFolder = "\(folder)/\(zoom)"
      for column in ((try? files.contentsOfDirectory(atPath: zoomFolder)) ?? []).sorted() {
        let columnFolder = "\(zoomFolder)/\(column)"
        let names = ((try? files.contentsOfDirectory(atPath: columnFolder)) ?? []).sorted()
        guard let name = names.first(where: { $0.lowercased().hasSuffix(".png") }),
          let data = files.contents(atPath: "\(columnFolder)/\(name)"),
          let size = PNGCodec.size(of: data)
        else { continue }
        return size.width
      }
    }
    return nil
  }

  private static func readMetadata(folder: String) throws -> TileMetadata {
    let file = "\(folder)/metadata.json"
    guard let data = FileManager.default.contents(atPath: file) else { return TileMetadata(values: [:]) }
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

  func integer(_ key: String) -> Int? {
    if let number = values[key] as? Int { return number }
    if let number = values[key] as? Double, number == number.rounded(), abs(number) < 1e9 {
      return Int(number)
    }
    return (values[key] as? String).flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
  }
}
