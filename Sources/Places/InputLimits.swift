import FileSystem

/// The limits every reader of places enforces, so that memory and time stay bounded whatever a file holds
/// or claims. Each one, when exceeded, is an error naming the file and the record (ARCHITECTURE.md lists
/// them all).
public enum InputLimits {
  /// The largest locations file read, and the most read from standard input or a FIFO.
  public static let maximumFileBytes = 256 << 20
  /// The most places one file may hold.
  public static let maximumPlaces = 2_000_000
  /// The longest text of one field (description, category, an address part, an id, a photo path), in
  /// UTF-8 bytes. A callout shows a line of text; this is a page of it.
  public static let maximumTextBytes = 16 << 10
  /// The most points one track or route may have (a day recorded every second is under 100,000).
  public static let maximumTrackPoints = 1_000_000
  /// The most track and route points one file may hold, all tracks together.
  public static let maximumTotalTrackPoints = 2_000_000
  /// The most tracks and routes one file may hold.
  public static let maximumTracks = 100_000
  /// The most warnings kept about one file (reading it, or importing it); the rest are counted in one
  /// line after them.
  public static let maximumWarnings = 1_000
}

extension Location {
  /// The first text field longer than `InputLimits.maximumTextBytes`, as a message; nil when none is.
  func oversizedText() -> String? {
    let fields: [(String, String?)] = [
      ("id", id), ("description", locationDescription), ("category", category),
      ("placemark.subThoroughfare", placemark?.subThoroughfare),
      ("placemark.thoroughfare", placemark?.thoroughfare), ("placemark.locality", placemark?.locality),
      ("placemark.administrativeArea", placemark?.administrativeArea),
      ("placemark.postalCode", placemark?.postalCode), ("placemark.country", placemark?.country),
      ("photo", photoPath),
    ]
    for (name, text) in fields {
      guard let count = text?.utf8.count, count > InputLimits.maximumTextBytes else { continue }
      return "\(name) is \(count) bytes long; the limit is \(ByteCount.text(InputLimits.maximumTextBytes))"
    }
    return nil
  }
}
