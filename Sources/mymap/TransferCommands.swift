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
    // CSV, mymap JSON, GeoJSON and GPX are imported as they are read; a Core Data store is read whole.
    let source: ImportSource
    do {
      source = try LocationsFile.openForImport(path: path, format: format)
    } catch {
      throw .badInput(error.description)
    }
    let places: LocationSet
    switch source {
    case .whole(let set): places = set
    case .csvRows(let rows):
      try importStreamed(path: path, arguments: arguments, dryRun: dryRun) {
        store, each, isStopped throws(StreamedImportError) in
        try store.importCSV(rows, dryRun: dryRun, each: each, isStopped: isStopped)
      }
      return
    case .jsonRecords(let records):
      try importStreamed(path: path, arguments: arguments, dryRun: dryRun) {
        store, each, isStopped throws(StreamedImportError) in
        try store.importJSON(records, dryRun: dryRun, each: each, isStopped: isStopped)
      }
      return
    case .gpxRecords(let records):
      try importStreamed(path: path, arguments: arguments, dryRun: dryRun) {
        store, each, isStopped throws(StreamedImportError) in
        try store.importGPX(records, dryRun: dryRun, each: each, isStopped: isStopped)
      }
      return
    }
    if !quiet { for warning in places.warnings { Console.warning(warning) } }
    let summary = try withImportStore(arguments, dryRun: dryRun) { store throws(CLIError) in
      do throws(LocationStoreError) {
        return try store.importSet(places, dryRun: dryRun)
      } catch {
        throw StoreAccess.map(error)
      }
    }
    if dryRun && !arguments.flag("json") {
      let output = BufferedOutput()
      for place in places.locations { output.write(PlaceText.row(place)) }
      output.write(
        wouldImport(summary, places: places.locations.count, tracks: places.tracks.count) + "\n")
      output.flush()
    } else {
      report(
        path: path, places: places.locations.count, tracks: places.tracks.count, summary: summary,
        warnings: places.warnings, printsWarnings: false, arguments: arguments, dryRun: dryRun)
    }
  }

  /// A file's places, imported (or for a dry run, listed) as they are read by `run`, which is given the
  /// store, what to do with each place and whether Ctrl-C was pressed.
  private static func importStreamed(
    path: String, arguments: ParsedArguments, dryRun: Bool,
    _ run: (LocationStore, (Location) -> Void, () -> Bool) throws(StreamedImportError) -> StreamedImport
  ) throws(CLIError) {
    let listing = dryRun && !arguments.flag("json") ? try DryRunListing() : nil
    // Ctrl-C (or SIGTERM) stops the import at the next thousand rows: it rolls back, and a new store
    // being filled is removed.
    let signals = try StopSignals()
    defer { signals.restore() }
    let done = try withImportStore(arguments, dryRun: dryRun) { store throws(CLIError) in
      do throws(StreamedImportError) {
        return try run(store, { listing?.write(PlaceText.row($0)) }, signals.isStopped)
      } catch {
        switch error {
        case .file(let failure): throw .badInput(failure.description)
        case .store(let failure): throw StoreAccess.map(failure)
        case .stopped: throw .interrupted(error.description)
        }
      }
    }
    guard let listing else {
      report(
        path: path, places: done.places, tracks: done.tracks, summary: done.summary, warnings: done.warnings,
        printsWarnings: true, arguments: arguments, dryRun: dryRun)
      return
    }
    try listing.commit()
    if !arguments.flag("quiet") { for warning in done.warnings { Console.warning(warning) } }
    Console.print(wouldImport(done.summary, places: done.places, tracks: done.tracks))
  }

  /// The last line of a dry run.
  private static func wouldImport(_ summary: ImportSummary, places: Int, tracks: Int) -> String {
    var line =
      "would import \(summary.added) of \(count(places, "place"))"
      + " (\(summary.duplicates) already in the store)"
    if tracks > 0 {
      line +=
        ", \(summary.tracksAdded) of \(count(tracks, "track"))"
        + " (\(summary.trackDuplicates) already in the store)"
    }
    return line + "; nothing was changed"
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
  /// Runs `body` with the store an import goes into. A store that does not exist yet appears only whole:
  /// the import fills a new store beside it, which takes the store's name at the end (a bad row halfway
  /// through a CSV file leaves no store behind); a dry run uses an empty scratch store, so that it
  /// creates nothing.
  fileprivate static func withImportStore<T>(
    _ arguments: ParsedArguments, dryRun: Bool, _ body: (LocationStore) throws(CLIError) -> T
  ) throws(CLIError) -> T {
    let path = StoreAccess.path(arguments)
    guard !FileManager.default.fileExists(atPath: path) else {
      return try body(try StoreAccess.open(arguments))
    }
    let url = URL(fileURLWithPath: path)
    let scratch: URL
    // What an import killed halfway (kill -9, a power cut) left beside the store goes first.
    StaleTemporaryFiles.remove(beside: url.lastPathComponent, in: url.deletingLastPathComponent().path)
    if dryRun {
      scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
        "mymap-dry-run-\(UUID().uuidString)/locations.sqlite")
    } else {
      scratch = url.deletingLastPathComponent().appendingPathComponent(
        ".\(url.lastPathComponent).tmp-\(getpid())-import")
    }
    var kept = false
    defer {
      if !kept {
        for suffix in SQLiteSidecars.suffixes { unlink(scratch.path + suffix) }
        if dryRun { rmdir(scratch.deletingLastPathComponent().path) }
      }
    }
    let result: T
    do {
      // The store closes (and folds its write-ahead log in) when it goes out of use, before the rename.
      let store: LocationStore
      do {
        store = try LocationStore(path: scratch.path)
      } catch .cannotOpen(_, let reason) where !dryRun {
        // Say it of the store the user named: the new store is made where it will be.
        throw StoreAccess.map(.cannotOpen(path: path, reason: reason))
      } catch {
        throw StoreAccess.map(error)
      }
      result = try body(store)
    }
    if dryRun { return result }
    guard !FileManager.default.fileExists(atPath: path) else {
      throw .failure("another program made a store at \(path) during the import; import again into it")
    }
    guard rename(scratch.path, path) == 0 else {
      throw .failure("cannot put the new store at \(path): \(String(cString: strerror(errno)))")
    }
    kept = true
    return result
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
    // Ctrl-C (or SIGTERM) stops the export at the next thousand places; the file is left as it was.
    let signals = try StopSignals()
    defer { signals.restore() }
    let output = try OutputPieces(target[0])
    do {
      try write(store, filter: filter, format: format, to: output, isStopped: signals.isStopped)
    } catch {
      output.discard()
      let failure: CLIError
      switch error {
      case let cliError as CLIError: failure = cliError
      case let storeError as LocationStoreError: failure = StoreAccess.map(storeError)
      default: failure = .failure("\(error)")  // Not reached: `write` throws only those two.
      }
      // Standard output or a FIFO has had what came before the failure.
      guard output.isStaged || output.written == 0 else {
        throw failure.appending("; the output is incomplete")
      }
      throw failure
    }
    try output.finish().commit()
    if format == .csv {
      let leftOut: Int
      do {
        leftOut = try store.trackSummaries(filter).count
      } catch {
        throw StoreAccess.map(error)
      }
      if leftOut > 0 { Console.warning("CSV holds places only: \(count(leftOut, "track")) not written") }
    }
  }

  /// Writes the places and tracks a piece at a time (64 KiB each), read from the store one at a time, so
  /// an export holds one place or track and one piece in memory, never the store.
  private static func write(
    _ store: LocationStore, filter: LocationFilter, format: LocationsFormat, to output: OutputPieces,
    isStopped: () -> Bool
  ) throws {
    var writer = LocationsDocumentWriter(format: format)
    var buffer: [UInt8] = []
    func flushFullBuffer() throws(CLIError) {
      guard buffer.count >= 1 << 16 else { return }
      try output.write(buffer)
      buffer.removeAll(keepingCapacity: true)
    }
    writer.start(user: nil, into: &buffer)
    var written = 0
    func wrote() throws(CLIError) {
      written += 1
      if written % 1_000 == 0 && isStopped() {
        throw .interrupted(
          output.isStaged ? "stopped; \(output.path) was left as it was" : "stopped"
        )
      }
      try flushFullBuffer()
    }
    try store.forEach(filter, order: .dateAscending) { place in
      writer.place(place, into: &buffer)
      try wrote()
    }
    for kind in writer.trackPasses {
      try store.forEachTrack(filter, kind: kind) { track in
        writer.track(track, into: &buffer)
        try wrote()
      }
    }
    writer.finish(into: &buffer)
    try output.write(buffer)
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
