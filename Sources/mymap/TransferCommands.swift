import Arguments
import Foundation
import JSON
import Places

/// `mymap import FILE`: all or nothing, never twice the same place.
enum ImportCommand {
  static let spec = CommandSpec(
    "import", abstract: "Add the places and tracks of a file to the store: all, or none if one is bad.",
    discussion: """
      Reads mymap JSON, GeoJSON, GPX, CSV with a header, or the My Locations app's DataModel.sqlite. \
      Waypoints and points are places; GPX tracks and routes, GeoJSON LineStrings and mymap JSON's \
      "tracks" are tracks (see 'mymap tracks'). A place already in the store (the same id, or for files \
      without ids the same position, description and date) is skipped, and so is a track with the same \
      id (without one, the same name and points), so importing a file twice adds nothing.
      """,
    arguments: [.required("FILE", help: "The file to import (- for standard input).")],
    options: [
      .flag("dry-run", help: "Show what would be imported, and change nothing."),
      .value("format", valueName: "FORMAT", help: "json, geojson, gpx or csv (default: from the file)."),
      .flag("quiet", short: "q", help: "Print nothing but errors."),
      .flag("json", help: "Print what was (or would be) imported as one JSON object."),
      StoreAccess.option,
    ])

  static func run(_ arguments: ParsedArguments) throws(CLIError) {
    let format = try FormatOption.value(arguments)
    let path = arguments.positional("FILE")!
    let quiet = arguments.flag("quiet")
    let dryRun = arguments.flag("dry-run")
    // A CSV file is imported as it is read (a dry run lists every place, so it reads the file whole).
    let source: ImportSource
    do {
      source =
        dryRun
        ? .whole(try LocationsFile.read(path: path, format: format))
        : try LocationsFile.openForImport(path: path, format: format)
    } catch {
      throw .badInput(error.description)
    }
    let places: LocationSet
    switch source {
    case .whole(let set): places = set
    case .csvRows(let rows):
      let done = try importing(rows, arguments: arguments)
      report(
        path: path, places: done.places, tracks: 0, summary: done.summary, warnings: done.warnings,
        printsWarnings: true, arguments: arguments)
      return
    }
    if !quiet { for warning in places.warnings { Console.warning(warning) } }
    let summary = try importing(places, arguments: arguments, dryRun: dryRun)
    if dryRun && !arguments.flag("json") {
      let output = BufferedOutput()
      for place in places.locations { output.write(PlaceText.row(place)) }
      var line =
        "would import \(summary.added) of \(count(places.locations.count, "place"))"
        + " (\(summary.duplicates) already in the store)"
      if !places.tracks.isEmpty {
        line +=
          ", \(summary.tracksAdded) of \(count(places.tracks.count, "track"))"
          + " (\(summary.trackDuplicates) already in the store)"
      }
      output.write(line + "; nothing was changed\n")
      output.flush()
    } else {
      report(
        path: path, places: places.locations.count, tracks: places.tracks.count, summary: summary,
        warnings: places.warnings, printsWarnings: false, arguments: arguments, dryRun: dryRun)
    }
  }

  /// What an import did: one line, or (`--json`) one object. With `printsWarnings`, the warnings go to
  /// standard error first unless quiet (a file read whole has them printed before its import).
  private static func report(
    path: String, places: Int, tracks: Int, summary: ImportSummary, warnings: [String],
    printsWarnings: Bool, arguments: ParsedArguments, dryRun: Bool = false
  ) {
    let quiet = arguments.flag("quiet")
    if printsWarnings && !quiet { for warning in warnings { Console.warning(warning) } }
    if arguments.flag("json") {
      Console.print(
        JSONWriter.text(
          .object([
            .init("file", .string(path)),
            .init("places", .number(Double(places))),
            .init("imported", .number(Double(summary.added))),
            .init("alreadyInStore", .number(Double(summary.duplicates))),
            .init("dryRun", .bool(dryRun)),
            .init("warnings", .array(warnings.map { .string($0) })),
          ])))
      return
    }
    guard !quiet else { return }
    var line = "imported \(count(summary.added, "place")) (\(summary.duplicates) already in the store)"
    if tracks > 0 {
      line += ", \(count(summary.tracksAdded, "track")) (\(summary.trackDuplicates) already in the store)"
    }
    Console.print(line)
  }
}

extension ImportCommand {
  /// Imports a CSV file's rows into the store as they are read. A store that does not exist yet appears
  /// only whole: the rows go into a new store beside it, which
  /// takes the store's name once they are all in (a bad row halfway leaves no store behind, as a file
  /// read whole would).
  fileprivate static func importing(_ rows: CSVImportRows, arguments: ParsedArguments) throws(CLIError)
    -> StreamedImport
  {
    let path = StoreAccess.path(arguments)
    guard !FileManager.default.fileExists(atPath: path) else {
      return try importing(rows, into: try StoreAccess.open(arguments))
    }
    let url = URL(fileURLWithPath: path)
    let staging = url.deletingLastPathComponent().appendingPathComponent(
      ".\(url.lastPathComponent).tmp-\(getpid())-import"
    ).path
    var done = false
    defer {
      if !done { for suffix in ["", "-wal", "-shm", "-journal"] { unlink(staging + suffix) } }
    }
    let result: StreamedImport
    do {
      // The store closes (and folds its write-ahead log in) when it goes out of use, before the rename.
      let store: LocationStore
      do {
        store = try LocationStore(path: staging)
      } catch {
        throw StoreAccess.map(error)
      }
      result = try importing(rows, into: store)
    }
    guard !FileManager.default.fileExists(atPath: path) else {
      throw .failure("another program made a store at \(path) during the import; import again into it")
    }
    guard rename(staging, path) == 0 else {
      throw .failure("cannot put the new store at \(path): \(String(cString: strerror(errno)))")
    }
    done = true
    return result
  }

  private static func importing(_ rows: CSVImportRows, into store: LocationStore) throws(CLIError)
    -> StreamedImport
  {
    do {
      return try store.importCSV(rows)
    } catch {
      switch error {
      case .file(let failure): throw .badInput(failure.description)
      case .store(let failure): throw StoreAccess.map(failure)
      }
    }
  }

  /// Imports into the store, or for a dry run counts what would be imported. A dry run against a store
  /// that does not exist yet uses an empty scratch store, so that it creates nothing.
  fileprivate static func importing(_ places: LocationSet, arguments: ParsedArguments, dryRun: Bool)
    throws(CLIError) -> ImportSummary
  {
    var scratch: URL?
    defer { scratch.map { try? FileManager.default.removeItem(at: $0) } }
    let store: LocationStore
    if dryRun && !FileManager.default.fileExists(atPath: StoreAccess.path(arguments)) {
      let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
        "mymap-dry-run-\(UUID().uuidString)")
      scratch = folder
      do {
        store = try LocationStore(path: folder.appendingPathComponent("locations.sqlite").path)
      } catch {
        throw StoreAccess.map(error)
      }
    } else {
      store = try StoreAccess.open(arguments)
    }
    do {
      return try store.importSet(places, dryRun: dryRun)
    } catch {
      throw StoreAccess.map(error)
    }
  }
}

/// `mymap export`: the store (or a filtered part of it) in a format other tools read.
enum ExportCommand {
  static let spec = CommandSpec(
    "export", abstract: "Write the saved places and tracks as GeoJSON, GPX, CSV or mymap JSON.",
    discussion: "CSV holds places only: tracks are written in the other three formats.",
    options: [
      .value(
        "format", valueName: "FORMAT", help: "json, geojson, gpx or csv (default: from --out's extension)."),
      .value(
        "out", short: "o", valueName: "PATH", help: "Where to write; - for standard output.", default: "-"),
    ] + FilterOptions.options + [StoreAccess.option])

  static func run(_ arguments: ParsedArguments) throws(CLIError) {
    let out = arguments.string("out")!
    var format = try FormatOption.value(arguments)
    if format == nil && out != "-" {
      format = LocationsFormat(fileName: out)
    }
    guard let format else {
      throw .usage("which format? give --format json|geojson|gpx|csv (or an --out file ending in one)")
    }
    let filter = try FilterOptions.filter(arguments)
    let target = try OutputFile.targets(
      [(out, "--out")], inputs: [ProtectedInput(path: StoreAccess.path(arguments), role: "the places store")])
    let store = try StoreAccess.open(arguments, create: false, access: .readOnly)
    let places: [Location]
    var tracks: [Track]
    do {
      places = try store.locations(filter, order: .dateAscending)
      tracks = try store.tracks(filter)
    } catch {
      throw StoreAccess.map(error)
    }
    let leftOut = format == .csv ? tracks.count : 0
    if leftOut > 0 { tracks = [] }
    let bytes = [UInt8](LocationsFile.encode(LocationSet(locations: places, tracks: tracks), format: format))
    try OutputFile.stage(bytes, to: target[0]).commit()
    if leftOut > 0 { Console.warning("CSV holds places only: \(count(leftOut, "track")) not written") }
  }
}

/// The `--format` of import and export.
enum FormatOption {
  static func value(_ arguments: ParsedArguments) throws(CLIError) -> LocationsFormat? {
    guard let text = arguments.string("format") else { return nil }
    guard let format = LocationsFormat(rawValue: text.lowercased()) else {
      throw .usage("invalid value '\(text)' for --format: expected json, geojson, gpx or csv")
    }
    return format
  }
}
