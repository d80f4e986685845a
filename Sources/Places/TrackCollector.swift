import FileSystem
import JSON

/// Gathers a file's tracks and routes in file order, as `RecordCollector` gathers its places: holds every
/// reader to the limits (`InputLimits`), leaves out empty tracks with one warning, and makes ids unique (a
/// repeated given id is an error; the same track twice gets `-2`, `-3`… after its derived id).
struct TrackCollector {
  private(set) var tracks: [Track] = []
  /// Points of the tracks added so far.
  private(set) var totalPoints = 0
  private var empty = 0
  private var owners: [String: String] = [:]
  private var derived: [Int] = []

  /// Throws when `count` more points (of a track that already has `inTrack`) would pass a limit; readers
  /// that stream (GPX) call it as points arrive, so memory stays bounded whatever the file holds.
  func checkRoom(forPoint inTrack: Int) throws(RecordProblem) {
    if inTrack >= InputLimits.maximumTrackPoints {
      throw RecordProblem(
        "the track has more than \(InputLimits.maximumTrackPoints) points, the most one track may have")
    }
    if totalPoints + inTrack >= InputLimits.maximumTotalTrackPoints {
      throw RecordProblem(
        "the file holds more than \(InputLimits.maximumTotalTrackPoints) track points, the most one file"
          + " may hold")
    }
  }

  /// Adds a track read from `record` (`line 12`, `feature 3`, `track 2`); a track without points is left
  /// out and counted in one warning.
  mutating func add(_ read: Track, hasOwnID: Bool, record: String) throws(RecordProblem) {
    var track = read
    track.segments.removeAll { $0.isEmpty }
    guard track.pointCount > 0 else {
      empty += 1
      return
    }
    guard tracks.count < InputLimits.maximumTracks else {
      throw RecordProblem(
        "the file holds more than \(InputLimits.maximumTracks) tracks and routes, the most one file may hold")
    }
    try checkRoom(forPoint: track.pointCount - 1)
    for (name, text) in [("id", track.id), ("name", track.name), ("category", track.category)]
    where text.utf8.count > InputLimits.maximumTextBytes {
      throw RecordProblem(
        "\(name) is \(text.utf8.count) bytes long; the limit is \(ByteCount.text(InputLimits.maximumTextBytes))"
      )
    }
    if track.trackDescription.utf8.count > InputLimits.maximumTextBytes {
      throw RecordProblem(
        "description is \(track.trackDescription.utf8.count) bytes long; the limit is"
          + " \(ByteCount.text(InputLimits.maximumTextBytes))")
    }
    if hasOwnID {
      if let owner = owners[track.id] {
        throw RecordProblem("duplicate track id \(JSONWriter.quotedExcerpt(track.id)) (\(owner) has it too)")
      }
      owners[track.id] = record
    } else {
      derived.append(tracks.count)
    }
    totalPoints += track.pointCount
    tracks.append(track)
  }

  /// The tracks with their final ids, and the warning about empty ones (nil when none was empty).
  mutating func finish() -> (tracks: [Track], warning: String?) {
    for index in derived {
      let base = tracks[index].id
      var candidate = base
      var counter = 1
      while owners[candidate] != nil {
        counter += 1
        candidate = "\(base)-\(counter)"
      }
      owners[candidate] = "derived"
      tracks[index].id = candidate
    }
    derived = []
    let warning =
      empty == 0
      ? nil : empty == 1 ? "skipped 1 track without points" : "skipped \(empty) tracks without points"
    return (tracks, warning)
  }
}
