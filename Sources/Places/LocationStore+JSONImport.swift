import JSON

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
    var ended: StreamedImportError?
    do {
      return try writing(commit: !dryRun) { () throws in
        var importer = try StreamedPlaceImport(
          store: self, file: source.file, naming: .record(noun: source.placeNoun), dryRun: dryRun)
        var reader = JSONRecordReader(source)
        var failure: (any Error)?
        let finished = try source.forEachElement { member, value in
          do {
            guard let (record, number, warnings) = try reader.read(member: member, value) else { return true }
            each(try importer.add(record, number: number, warnings: warnings))
            if importer.places % 1_000 == 0 && isStopped() {
              ended = .stopped(places: importer.places)
              throw CancellationError()
            }
            return true
          } catch {
            failure = error
            return false
          }
        }
        if let failure {
          if let error = failure as? LocationsFileError { ended = .file(error) }
          throw failure
        }
        guard finished else { throw CancellationError() }  // Not reached: only a failure stops it.
        let tracks: [Track]
        do throws(LocationsFileError) {
          let read = try reader.finish()
          tracks = read.tracks
          for warning in read.warnings { importer.warnings.append(warning) }
        } catch {
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
