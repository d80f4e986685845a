import JSON
import MapMath

/// mymap's own exchange format (ARCHITECTURE.md §5): an object with an optional `user`, a `locations` array
/// and a `tracks` array (`LocationsJSON.addTrack`), read an element at a time (`JSONImportRecords`).
enum LocationsJSON {
  /// The file's `user`, when it gives one.
  static func user(of document: JSONValue, file: String) throws(LocationsFileError) -> UserPosition? {
    guard let value = document["user"] else { return nil }
    do throws(RecordProblem) {
      return try readUser(value)
    } catch {
      throw .invalidRecord(file: file, record: "user", message: error.message)
    }
  }

  /// The `locations` array's elements; none when the member is missing.
  static func locations(of document: JSONValue, file: String) throws(LocationsFileError) -> [JSONValue] {
    // `"locations": null` is a mistake, not "no places": only a missing member means that.
    guard let value = document["locations"] else { return [] }
    guard case .array(let elements) = value else {
      throw .invalidDocument(file: file, message: "\"locations\" must be an array, not \(value.summary)")
    }
    return elements
  }

  static func readLocation(
    _ value: JSONValue, warnings: inout [String]
  ) throws(RecordProblem) -> ReadRecord? {
    guard let fields = RecordFields(value) else {
      throw RecordProblem("expected an object, found \(value.summary)")
    }
    let (latitude, longitude) = try coordinateMembers(fields)
    let id = try fields.identifier("id")
    let location = Location(
      id: id, latitude: latitude, longitude: longitude,
      locationDescription: try fields.string("description") ?? "",
      category: try fields.category("category", warnings: &warnings),
      date: try fields.date("date", warnings: &warnings), placemark: try fields.placemark("placemark"),
      photoPath: try fields.string("photo"))
    return ReadRecord(location: location, hasOwnID: id != nil)
  }

  private static func readUser(_ value: JSONValue) throws(RecordProblem) -> UserPosition {
    guard let fields = RecordFields(value) else {
      throw RecordProblem("expected an object with latitude and longitude, found \(value.summary)")
    }
    let (latitude, longitude) = try coordinateMembers(fields)
    var accuracy: Double?
    if let value = fields["accuracy"] {
      guard case .number(let metres) = value, metres >= 0 else {
        throw RecordProblem("accuracy must be a number of metres, zero or more, not \(value.summary)")
      }
      accuracy = metres
    }
    return UserPosition(coordinate: .init(latitude: latitude, longitude: longitude), accuracy: accuracy)
  }

  /// The `user` member's value (the file's members are in ARCHITECTURE.md's order: `user`, `locations`,
  /// `tracks`; absent optionals are left out).
  static func encode(_ user: UserPosition) -> JSONValue {
    var fields = [
      JSONValue.Member("latitude", .number(user.coordinate.latitude)),
      JSONValue.Member("longitude", .number(user.coordinate.longitude)),
    ]
    if let accuracy = user.accuracy { fields.append(.init("accuracy", .number(accuracy))) }
    return .object(fields)
  }

  static func encode(_ location: Location) -> JSONValue {
    var members: [JSONValue.Member] = [
      .init("id", .string(location.id)),
      .init("latitude", .number(location.latitude)),
      .init("longitude", .number(location.longitude)),
      .init("description", .string(location.locationDescription)),
      .init("category", .string(location.category)),
    ]
    if let date = location.date { members.append(.init("date", .string(ISO8601Date.format(date)))) }
    if let placemark = location.placemark { members.append(.init("placemark", encode(placemark))) }
    if let photo = location.photoPath { members.append(.init("photo", .string(photo))) }
    return .object(members)
  }

  static func encode(_ placemark: Placemark) -> JSONValue {
    let fields: [(String, String?)] = [
      ("subThoroughfare", placemark.subThoroughfare), ("thoroughfare", placemark.thoroughfare),
      ("locality", placemark.locality), ("administrativeArea", placemark.administrativeArea),
      ("postalCode", placemark.postalCode), ("country", placemark.country),
    ]
    return .object(fields.compactMap { name, value in value.map { JSONValue.Member(name, .string($0)) } })
  }
}
