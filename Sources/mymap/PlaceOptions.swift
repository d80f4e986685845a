import Arguments
import Foundation
import MapMath
import Places

/// The fields of a place as `add` and `edit` take them, each optional (edit changes only what is given).
struct PlaceOptions {
  var coordinate: Coordinate?
  var description: String?
  var category: String?
  var placemark: Placemark??
  var date: Date?
  var photoPath: String??

  static let options: [OptionSpec] = [
    .value("lat", valueName: "DEG", help: "Latitude in degrees (-90…90)."),
    .value("lon", valueName: "DEG", help: "Longitude in degrees (-180…180)."),
    .value("here", valueName: "LAT,LON", help: "Latitude and longitude in one value."),
    .value("description", short: "d", valueName: "TEXT", help: "What the place is (may be empty)."),
    .value("category", short: "c", valueName: "NAME", help: "One of 'mymap categories'."),
    .value(
      "address", valueName: "ADDRESS",
      help: "House number|street|city|state|postal code|country (empty parts allowed)."),
    .value("date", valueName: "DATE", help: "When the place was tagged, ISO 8601 (default: now)."),
    .value("photo", valueName: "PATH", help: "A photo file to attach."),
  ]

  /// Reads the options; `--lat`/`--lon` go together and exclude `--here`.
  init(_ arguments: ParsedArguments) throws(CLIError) {
    do {
      let latitude = try arguments.value("lat", as: ValueParsers.latitude)
      let longitude = try arguments.value("lon", as: ValueParsers.longitude)
      let here = try arguments.value("here", as: ValueParsers.coordinate)
      switch (latitude, longitude, here) {
      case (nil, nil, let here): coordinate = here
      case (let latitude?, let longitude?, nil):
        coordinate = Coordinate(latitude: latitude, longitude: longitude)
      case (_, _, .some): throw CLIError.usage("give either --here or --lat and --lon, not both")
      default: throw CLIError.usage("--lat and --lon go together")
      }
      description = arguments.string("description")
      category = try arguments.value("category", as: PlaceOptions.category)
      if let address = arguments.string("address") { placemark = .some(PlaceOptions.placemark(address)) }
      date = try arguments.value("date", as: ValueParsers.date)
      if let photo = arguments.string("photo") { photoPath = .some(photo.isEmpty ? nil : photo) }
    } catch let error as CLIError {
      throw error
    } catch {
      throw .usage("\(error)")
    }
  }

  /// A known category, matched without regard to case and given its proper spelling.
  static func category(_ text: String) throws -> String {
    if let known = Category.matching(text) { return known.name }
    throw InvalidValue(
      "not a category; 'mymap categories' lists them: \(Category.names.joined(separator: ", "))")
  }

  /// `1|Infinite Loop|Cupertino|CA|95014|United States`; fewer parts fill from the left; all empty is no address.
  static func placemark(_ text: String) -> Placemark? {
    let parts = text.split(separator: "|", omittingEmptySubsequences: false)
      .map { $0.trimmingCharacters(in: .whitespaces) }
    func part(_ index: Int) -> String? { index < parts.count && !parts[index].isEmpty ? parts[index] : nil }
    let placemark = Placemark(
      subThoroughfare: part(0), thoroughfare: part(1), locality: part(2), administrativeArea: part(3),
      postalCode: part(4), country: part(5))
    return placemark.isEmpty ? nil : placemark
  }
}
