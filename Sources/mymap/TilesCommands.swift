import Arguments
import Foundation
import JSON
import Tiles

/// `mymap tiles info PATH`: what a tile cache holds.
enum TilesInfoCommand {
  static let spec = CommandSpec(
    "tiles info", abstract: "Show what a tile cache holds: tiles and bytes per zoom, oldest and newest.",
    discussion: """
      PATH is a tile folder ({z}/{x}/{y}.png, .jpg, .jpeg or .webp) or an .mbtiles file. In a folder the \
      dates are the tile files' modification dates (a refresh confirmed by the server touches the file). In \
      an MBTiles file written by 'mymap tiles fetch' they are the tiles' fetch dates. A tile without one, \
      and every tile of another MBTiles file, is dated by the file's own modification date, and a date \
      taken from it is marked as such.
      """,
    arguments: [.required("PATH", help: "The tile folder or .mbtiles file.")],
    options: [.flag("json", help: "Print the same figures as one JSON object.")])

  static func run(_ arguments: ParsedArguments) throws(CLIError) {
    let inventory = try TilesCommands.open(arguments.positional("PATH")!)
    if arguments.flag("json") {
      Console.print(JSONWriter.text(json(inventory)))
      return
    }
    var rows = [["zoom", "tiles", "bytes"]]
    for level in inventory.zooms {
      rows.append([String(level.zoom), String(level.tiles), String(level.bytes)])
    }
    rows.append(["total", String(inventory.tileCount), String(inventory.totalBytes)])
    let widths = (0..<3).map { column in rows.map { $0[column].count }.max()! }
    var text = "\(inventory.path) (\(inventory.kind == .mbtiles ? "MBTiles file" : "tile folder"))\n"
    for row in rows {
      text += row[0].padding(toLength: widths[0], withPad: " ", startingAt: 0)
      text += "  " + String(repeating: " ", count: widths[1] - row[1].count) + row[1]
      text += "  " + String(repeating: " ", count: widths[2] - row[2].count) + row[2] + "\n"
    }
    // A date that is the MBTiles file's own stands in for tiles without a fetch date: all of them in a
    // file not written by 'mymap tiles fetch', which the note need not count.
    var note = " (the MBTiles file's modification date)"
    if inventory.hasFetchDates {
      note =
        " (the MBTiles file's modification date, for \(count(inventory.tilesWithoutFetchDate, "tile")) "
        + "without a fetch date)"
    }
    text +=
      "oldest  " + (inventory.oldest.map(TilesCommands.iso8601) ?? "-")
      + (inventory.oldestIsFileDate ? note : "") + "\n"
    text +=
      "newest  " + (inventory.newest.map(TilesCommands.iso8601) ?? "-")
      + (inventory.newestIsFileDate ? note : "") + "\n"
    Console.print(text)
  }
}

extension TilesInfoCommand {
  /// What `--json` prints: the path, its kind, tiles and bytes per zoom, and the dates.
  static func json(_ inventory: TileCacheInventory) -> JSONValue {
    func date(_ value: Date?, isFileDate: Bool) -> JSONValue {
      guard let value else { return .null }
      return .object([
        .init("date", .string(TilesCommands.iso8601(value))), .init("isFileDate", .bool(isFileDate)),
      ])
    }
    return .object([
      .init("path", .string(inventory.path)),
      .init("kind", .string(inventory.kind == .mbtiles ? "mbtiles" : "folder")),
      .init(
        "zooms",
        .array(
          inventory.zooms.map {
            .object([
              .init("zoom", .number(Double($0.zoom))), .init("tiles", .number(Double($0.tiles))),
              .init("bytes", .number(Double($0.bytes))),
            ])
          })),
      .init("tiles", .number(Double(inventory.tileCount))),
      .init("bytes", .number(Double(inventory.totalBytes))),
      .init("oldest", date(inventory.oldest, isFileDate: inventory.oldestIsFileDate)),
      .init("newest", date(inventory.newest, isFileDate: inventory.newestIsFileDate)),
      .init("tilesWithoutFetchDate", .number(Double(inventory.tilesWithoutFetchDate))),
    ])
  }
}

/// `mymap tiles prune PATH --older-than DURATION [--dry-run]`: removes old tiles from a tile folder or an
/// MBTiles file written by `mymap tiles fetch`.
enum TilesPruneCommand {
  static let spec = CommandSpec(
    "tiles prune", abstract: "Remove tiles older than a given age from a tile cache.",
    discussion: """
      In a folder, removes the tile files ({z}/{x}/{y}.png, .jpg, .jpeg, .webp) last modified before the \
      given age and their freshness records, then the folders this leaves empty; nothing else is touched. \
      In an MBTiles file written by 'mymap tiles fetch', removes the tiles fetched before that age (a tile \
      without a fetch date counts as the file's modification date) and their freshness records, in one \
      transaction; the file keeps its size, and SQLite reuses the space for later tiles. Other MBTiles \
      files have no fetch dates and cannot be pruned. --dry-run lists the tiles as z/x/y.ext in a folder, \
      z/x/y (XYZ rows) in an MBTiles file.
      """,
    arguments: [.required("PATH", help: "The tile folder or .mbtiles file.")],
    options: [
      .value(
        "older-than", valueName: "DURATION",
        help: "Age of the tiles to remove: minutes, hours, days or weeks, like 90m, 12h, 30d, 2w (required)."),
      .flag("dry-run", help: "List the tiles that would be removed, and remove nothing."),
    ])

  static func run(_ arguments: ParsedArguments) throws(CLIError) {
    let age: TimeInterval
    do {
      guard let value = try arguments.value("older-than", as: TilesCommands.duration) else {
        throw CLIError.usage("missing --older-than DURATION (like 30d, 12h, 90m or 2w)")
      }
      age = value
    } catch let error as CLIError {
      throw error
    } catch {
      throw .usage("\(error)")
    }
    let inventory = try TilesCommands.open(arguments.positional("PATH")!)
    let cutoff = Date().addingTimeInterval(-age)
    let since = "older than \(arguments.string("older-than")!) (before \(TilesCommands.iso8601(cutoff)))"
    do {
      if arguments.flag("dry-run") {
        let old = try inventory.tiles(olderThan: cutoff)
        let output = BufferedOutput()
        for tile in old { output.write(tile.relativePath + "\n") }
        let bytes = old.reduce(0) { $0 + $1.bytes }
        output.write("would remove \(count(old.count, "tile")) (\(count(bytes, "byte"))) \(since)\n")
        output.flush()
      } else {
        let result = try inventory.prune(olderThan: cutoff)
        Console.print("removed \(count(result.removed, "tile")) (\(count(result.bytes, "byte"))) \(since)")
      }
    } catch TileCacheError.pruneNotSupported(let path) {
      throw .usage(TileCacheError.pruneNotSupported(path).description)
    } catch {
      throw .failure("\(error)")
    }
  }
}

enum TilesCommands {
  /// The inventory of the cache at `path`; a missing or foreign path is bad input (exit 3).
  static func open(_ path: String) throws(CLIError) -> TileCacheInventory {
    do {
      return try TileCacheInventory(path: path)
    } catch {
      throw .badInput("\(error)")
    }
  }

  /// `30d`, `12h`, `90m`, `2w` as seconds: a whole number from 1 and one unit letter.
  static func duration(_ text: String) throws -> TimeInterval {
    let units: [Character: TimeInterval] = ["m": 60, "h": 3_600, "d": 86_400, "w": 604_800]
    guard let unit = text.last.flatMap({ units[Character($0.lowercased())] }),
      let number = Int(text.dropLast()), text.dropLast().allSatisfy(\.isASCII),
      text.first?.isNumber == true
    else {
      throw InvalidValue("expected a whole number and a unit (m, h, d or w), like 30d, 12h, 90m or 2w")
    }
    guard number >= 1 else { throw InvalidValue("the age must be at least 1") }
    let seconds = Double(number) * unit
    guard seconds <= 100 * 365.25 * 86_400 else { throw InvalidValue("the age must be at most 100 years") }
    return seconds
  }

  static func iso8601(_ date: Date) -> String {
    let formatter = ISO8601DateFormatter()
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.formatOptions = [.withInternetDateTime]
    return formatter.string(from: date)
  }
}
