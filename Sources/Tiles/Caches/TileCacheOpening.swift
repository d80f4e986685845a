import Foundation
import ImageCodecs
import SQLite

/// Opens (creating it when missing) the tile cache at `path` that tiles of `description` are written into:
/// a path ending in `.mbtiles` (or an existing SQLite file) is an `MBTilesTileCache`, anything else a
/// `DirectoryTileCache` folder, created with its parent folders.
///
/// Throws `TileCacheError` with a one-line message saying what to do when the path holds something else:
/// a folder with files that is not a mymap cache, a cache of another source or tile size, a file that is
/// not an MBTiles file, or a place mymap cannot write to.
public func openTileCache(at path: String, for description: TileCacheDescription) throws
  -> any TileCacheStore
{
  switch try TileStorage.kind(ofCache: path) {
  case .mbtiles: return try MBTilesTileCache(path: path, description: description)
  case .folder, .pmtiles: return try DirectoryTileCache(path: path, description: description)
  }
}

/// File helpers the two caches share.
enum TileCacheFiles {
  /// How old a leftover temporary file must be before a cache opening removes it: a younger one may
  /// belong to another process writing the same cache right now.
  static let staleTemporaryAge: TimeInterval = 3_600

  /// Writes `data` to `path` atomically: into a temporary file in the same folder (a dot-name ending in
  /// `.tmp`, which neither `DirectoryTileSource` nor `TileCacheInventory` reads as a tile), then renamed
  /// over `path`, so that a reader sees the old file or the new one, never a part of it.
  ///
  /// There is no fsync: rename(2) is atomic against a killed process, which is what a tile cache meets;
  /// only a power cut could leave an empty or partial file, and that needs an fsync per file (and one of
  /// the folder) – seconds for the 2,000 tiles of one fetch, on some disks tens of seconds. A tile lost
  /// that way is fetched again.
  static func writeAtomically(_ data: Data, to path: String) throws {
    let temporary = try writeTemporary(data, beside: path)
    guard rename(temporary, path) == 0 else {
      let reason = errnoDescription()
      unlink(temporary)
      throw TileCacheError.writeFailed(path, reason)
    }
  }

  /// Writes `data` to `path` only when nothing is there yet; false when something is (written by a
  /// process that got there first). As atomic as `writeAtomically`: link(2) fails rather than replace.
  static func createAtomically(_ data: Data, at path: String) throws -> Bool {
    let temporary = try writeTemporary(data, beside: path)
    defer { unlink(temporary) }
    if link(temporary, path) == 0 { return true }
    if errno == EEXIST { return false }
    throw TileCacheError.writeFailed(path, errnoDescription())
  }

  /// A new temporary file holding `data`, in the folder of `path`; its path.
  private static func writeTemporary(_ data: Data, beside path: String) throws -> String {
    let url = URL(fileURLWithPath: path)
    let random = UInt32.random(in: 0...UInt32.max)
    let temporary =
      url.deletingLastPathComponent().path + "/." + url.lastPathComponent + "."
      + String(random, radix: 16) + ".tmp"
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { throw TileCacheError.writeFailed(path, errnoDescription()) }
    var failure: String?
    data.withUnsafeBytes { buffer in
      var offset = 0
      while offset < buffer.count {
        let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
        if written < 0 {
          if errno == EINTR { continue }
          failure = errnoDescription()
          return
        }
        offset += written
      }
    }
    if close(descriptor) != 0 && failure == nil { failure = errnoDescription() }
    if let failure {
      unlink(temporary)
      throw TileCacheError.writeFailed(path, failure)
    }
    return temporary
  }

  /// True for the names of `writeAtomically`'s temporary files.
  static func isTemporaryName(_ name: String) -> Bool {
    name.hasPrefix(".") && name.hasSuffix(".tmp")
  }

  /// Removes the temporary files in `folder` last modified more than `staleTemporaryAge` before `now`:
  /// left by a process that was killed between writing and renaming. Returns how many were removed.
  @discardableResult
  static func removeStaleTemporaries(in folder: String, now: Date = Date()) -> Int {
    let files = FileManager.default
    var removed = 0
    for name in (try? files.contentsOfDirectory(atPath: folder)) ?? [] where isTemporaryName(name) {
      let file = folder + "/" + name
      guard let attributes = try? files.attributesOfItem(atPath: file),
        attributes[.type] as? FileAttributeType == .typeRegular,
        let modified = attributes[.modificationDate] as? Date,
        now.timeIntervalSince(modified) > staleTemporaryAge
      else { continue }
      if unlink(file) == 0 { removed += 1 }
    }
    return removed
  }

  /// Creates `folder` and its parents when missing; throws `notWritable` when it cannot, or when it is
  /// there but cannot be written to.
  static func makeWritableFolder(_ folder: String, for cache: String) throws {
    do {
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    } catch {
      throw TileCacheError.notWritable(cache, "cannot create folder \(folder): " + reason(error))
    }
    guard access(folder, W_OK | X_OK) == 0 else {
      throw TileCacheError.notWritable(cache, "folder \(folder): " + errnoDescription())
    }
  }

  /// The last system error, as text ("No space left on device").
  static func errnoDescription() -> String {
    String(cString: strerror(errno))
  }

  /// A Foundation error's text, preferring the underlying POSIX error's ("Not a directory").
  static func reason(_ error: Error) -> String {
    let error = error as NSError
    if let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError,
      underlying.domain == NSPOSIXErrorDomain
    {
      return String(cString: strerror(Int32(underlying.code)))
    }
    return error.localizedDescription
  }
}

/// The file extension and MBTiles `format` of a tile's bytes: `png`, `jpg`, `webp`, or `pbf` for a vector
/// tile (gzip- or zlib-compressed, or a bare protobuf whose first field is a layer); nil for anything else.
func tileFileExtension(of data: Data) -> String? {
  switch ImageFormat(sniffing: data) {
  case .png: return "png"
  case .jpeg: return "jpg"
  case .webp: return "webp"
  case nil:
    // Only bytes that TileFetcher has decoded as a vector tile reach a cache; these are its wrappings.
    if data.starts(with: [0x1F, 0x8B]) || data.starts(with: [0x78]) || data.starts(with: [0x1A]) {
      return "pbf"
    }
    return nil
  }
}

extension TileFreshness {
  /// The value that reading the record back gives: dates as REAL unix seconds, as stored.
  var asStored: TileFreshness {
    TileFreshness(
      etag: etag, lastModified: lastModified,
      expires: Date(timeIntervalSince1970: expires.timeIntervalSince1970),
      fetched: Date(timeIntervalSince1970: fetched.timeIntervalSince1970))
  }

  /// A record read back from the columns etag, last_modified, expires, fetched.
  init?(columns: ArraySlice<SQLiteValue>) {
    let values = Array(columns)
    guard values.count == 4, let expires = values[2].real, let fetched = values[3].real else { return nil }
    self.init(
      etag: values[0].text, lastModified: values[1].text, expires: Date(timeIntervalSince1970: expires),
      fetched: Date(timeIntervalSince1970: fetched))
  }

  /// The columns etag, last_modified, expires, fetched.
  var columns: [SQLiteValue] {
    [
      etag.map { .text($0) } ?? .null, lastModified.map { .text($0) } ?? .null,
      .real(expires.timeIntervalSince1970), .real(fetched.timeIntervalSince1970),
    ]
  }
}

/// What a cache written by mymap records about itself: `metadata.json` in a folder, the `metadata`
/// table of an MBTiles file.
struct TileCacheMetadata: Equatable {
  /// The redacted URL template the tiles come from.
  var source: String
  var attribution: String?
  var tileSize: Int
  /// The zooms stored so far; nil while the cache is empty.
  var zooms: ClosedRange<Int>?
  /// `png`, `jpg` or `webp`: the format of the tiles stored last; nil while the cache is empty.
  var format: String?

  init(
    source: String, attribution: String?, tileSize: Int, zooms: ClosedRange<Int>? = nil, format: String? = nil
  ) {
    self.source = source
    self.attribution = attribution
    self.tileSize = tileSize
    self.zooms = zooms
    self.format = format
  }

  init(_ description: TileCacheDescription) {
    self.init(
      source: description.source, attribution: description.attribution, tileSize: description.tileSize)
  }

  /// Throws `otherSource` or `otherTileSize` unless the cache at `path` holds tiles of `description`.
  func check(_ description: TileCacheDescription, path: String) throws {
    guard source == description.source else {
      throw TileCacheError.otherSource(path, cached: source, requested: description.source)
    }
    guard tileSize == description.tileSize else {
      throw TileCacheError.otherTileSize(path, cached: tileSize, requested: description.tileSize)
    }
  }

  /// This metadata once `description` is written into it: the attribution follows the source's when it
  /// names one (an attribution text may change; a source that names none keeps the one recorded).
  func updated(for description: TileCacheDescription) -> TileCacheMetadata {
    var result = self
    if let attribution = description.attribution { result.attribution = attribution }
    return result
  }

  /// Whether a tile at `zoom` in `format` is covered as it stands.
  func covers(zoom: Int, format: String) -> Bool {
    (zooms?.contains(zoom) ?? false) && self.format == format
  }

  /// This metadata with `zoom` included in the zooms and `format` as the format.
  func including(zoom: Int, format: String) -> TileCacheMetadata {
    var result = self
    result.zooms = zooms.map { min($0.lowerBound, zoom)...max($0.upperBound, zoom) } ?? zoom...zoom
    result.format = format
    return result
  }

  /// This metadata with the zooms of `other` (written by another process meanwhile) added to its own.
  func merging(zoomsOf other: TileCacheMetadata?) -> TileCacheMetadata {
    guard let theirs = other?.zooms else { return self }
    var result = self
    result.zooms =
      zooms.map { min($0.lowerBound, theirs.lowerBound)...max($0.upperBound, theirs.upperBound) } ?? theirs
    return result
  }
}
