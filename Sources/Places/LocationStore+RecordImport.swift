import FileSystem
import JSON

/// A GPX file opened for `mymap import`: its bytes (a regular file mapped, whatever its size, and handed
/// back as it is read; standard input and FIFOs read whole, up to the file limit), its waypoints imported
/// as they are read (`LocationStore.importGPX`) rather than collected first.
public struct GPXImportRecords {
  /// The file as the user named it (`<stdin>` for standard input).
  public let file: String
  let input: MappedInput
}

extension LocationStore {
  /// Imports a mymap JSON file's or GeoJSON FeatureCollection's places as they are read, in one
  /// transaction, with its tracks at the end: everything new, or (on any error in the file or the store)
  /// nothing. Places are added and skipped as `importCSV` adds them, errors and warnings named by record
  /// (`location 4`, `feature 4`, `track 2`) as a whole read names them; tracks as `importSet` adds them.
  /// Memory holds one place at a time, the file's tracks and a few bytes per imported place.
  ///
  /// `each` is given every place in turn; a dry run does all the work, then rolls back; `isStopped` is
  /// asked every thousand places (Ctrl-C): when it says stop, the import rolls back and throws `stopped`.
  public func importJSON(
    _ source: JSONImportRecords, dryRun: Bool = false, each: (Location) -> Void = { _ in },
    isStopped: () -> Bool = { false }
  ) throws(StreamedImportError) -> StreamedImport {
    try importRecords(
      file: source.file, naming: .record(noun: source.placeNoun), dryRun: dryRun, each: each,
      isStopped: isStopped
    ) { add, _, tick in
      var reader = JSONRecordReader(source)
      var failure: (any Error)?
      _ = try source.forEachElement { member, value, _ in
        do {
          if let (record, number, warnings) = try reader.read(member: member, value) {
            try add(record, number, warnings)
          } else {
            try tick()  // A track, or a feature skipped: `add` counts the places.
          }
          return true
        } catch {
          failure = error
          return false
        }
      }
      if let failure { throw failure }
      return try reader.finish()
    }
  }

  /// Imports a GPX file's waypoints as they are read, and its tracks and routes at the end, as
  /// `importJSON` does (errors and warnings name lines, as a whole read does).
  public func importGPX(
    _ source: GPXImportRecords, dryRun: Bool = false, each: (Location) -> Void = { _ in },
    isStopped: () -> Bool = { false }
  ) throws(StreamedImportError) -> StreamedImport {
    try importRecords(file: source.file, naming: .line, dryRun: dryRun, each: each, isStopped: isStopped) {
      add, warn, _ in
      try withoutActuallyEscaping(add) { add in
        try withoutActuallyEscaping(warn) { warn in
          let set = try source.input.withBytes { bytes in
            // Where the XML starts is found in the bytes mapped, not in the ones read to tell the
            // format: the file may have been replaced in between.
            try GPX.decode(
              bytes, from: LocationsFile.contentStart(bytes) ?? bytes.count, file: source.file,
              places: GPX.PlaceHandlers(place: add, warn: warn), release: source.input.release(below:))
          }
          return (set.tracks, set.warnings)
        }
      }
    }
  }

  /// The transaction of a streamed import of places and tracks: `read` hands each place to `add` (its
  /// record, its line or record number, its warnings) and each warning to `warn` in file order, may call
  /// `tick` for each record of any kind (so that Ctrl-C is seen in a file of tracks alone), and returns
  /// the tracks and the warnings that come after every place.
  private func importRecords(
    file: String, naming: RowNaming, dryRun: Bool, each: (Location) -> Void, isStopped: () -> Bool,
    read:
      @escaping (
        _ add: (ReadRecord, Int, [String]) throws -> Void, _ warn: (String) -> Void,
        _ tick: () throws -> Void
      ) throws -> (tracks: [Track], warnings: [String])
  ) throws(StreamedImportError) -> StreamedImport {
    var ended: StreamedImportError?
    do {
      return try writing(commit: !dryRun) { () throws in
        var importer = try StreamedPlaceImport(store: self, file: file, naming: naming, dryRun: dryRun)
        var records = 0
        func stopIfAsked(at count: Int) throws {
          guard count % 1_000 == 0 && isStopped() else { return }
          ended = .stopped(places: importer.places)
          throw CancellationError()
        }
        let tracks: [Track]
        do {
          let read = try read(
            { record, number, warnings in
              each(try importer.add(record, number: number, warnings: warnings))
              try stopIfAsked(at: importer.places)
            },
            { importer.warnings.append($0) },
            {
              records += 1
              try stopIfAsked(at: records)
            })
          tracks = read.tracks
          for warning in read.warnings { importer.warnings.append(warning) }
        } catch let error as LocationsFileError {
          ended = .file(error)
          throw error
        }
        var result = try importer.finish()
        result.tracks = tracks.count
        for (index, track) in tracks.enumerated() {
          do throws(LocationStoreError) {
            try Self.check(track)
          } catch {
            throw LocationStoreError.invalidPlace("track \(index + 1): \(error.description)")
          }
          if try insert(track) {
            result.summary.tracksAdded += 1
          } else {
            result.summary.trackDuplicates += 1
          }
        }
        return result
      }
    } catch {
      throw ended ?? .store(error)
    }
  }
}
