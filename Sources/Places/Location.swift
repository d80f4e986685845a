import Foundation
import MapMath

/// One saved place: the seed's stored location, plus a stable id so a place can be found again by name
/// rather than by its position in a list.
public struct Location: Hashable, Sendable, Identifiable {
  /// Stable across runs: taken from the file, or derived from the place itself (`derivedID`).
  public var id: String
  public var latitude: Double
  public var longitude: Double
  /// May be empty; the title then reads `(No Description)`.
  public var locationDescription: String
  /// Usually one of `Category.names`; an unknown name is kept as it is.
  public var category: String
  /// When the place was tagged.
  public var date: Date?
  /// Nil when no address was found.
  public var placemark: Placemark?
  /// A photo file attached to the place.
  public var photoPath: String?

  /// A place; without an `id` one is derived from the coordinate, description and date.
  public init(
    id: String? = nil, latitude: Double, longitude: Double, locationDescription: String = "",
    category: String = Category.default.name, date: Date? = nil, placemark: Placemark? = nil,
    photoPath: String? = nil
  ) {
    self.id =
      id
      ?? Self.derivedID(
        latitude: latitude, longitude: longitude, locationDescription: locationDescription, date: date)
    self.latitude = latitude
    self.longitude = longitude
    self.locationDescription = locationDescription
    self.category = category
    self.date = date
    self.placemark = placemark
    self.photoPath = photoPath
  }

  /// Whether `category` is one of the seed's categories.
  public var hasKnownCategory: Bool { Category.isKnown(category) }

  /// The detail view's address, or `No Address Found` when there is none.
  public var fullAddress: String {
    guard let placemark, !placemark.isEmpty else { return "No Address Found" }
    return placemark.fullAddress
  }

  /// The list view's address, or the coordinate (`Lat: 37.33490000, Long: -122.00900000`) when there is none.
  public var shortAddress: String {
    guard let placemark, !placemark.isEmpty else { return coordinateText }
    return placemark.shortAddress
  }

  /// The coordinate as the seed shows it, 8 decimals each.
  public var coordinateText: String {
    "Lat: \(FixedPointText.string(latitude, digits: 8)), Long: \(FixedPointText.string(longitude, digits: 8))"
  }
}

extension Location: Annotation {
  public var identifier: String { id }

  public var coordinate: Coordinate { Coordinate(latitude: latitude, longitude: longitude) }

  /// The description, or `(No Description)` when it is empty (the seed's pin title).
  public var title: String { locationDescription.isEmpty ? "(No Description)" : locationDescription }

  /// The category (the seed's pin subtitle).
  public var subtitle: String? { category }
}
