/// The address found for a place (the fields of the seed's `CLPlacemark` that it shows).
///
/// An empty string counts as absent, so an address part never leaves a stray separator behind it.
public struct Placemark: Hashable, Sendable {
  /// The house number.
  public var subThoroughfare: String?
  /// The street.
  public var thoroughfare: String?
  /// The city.
  public var locality: String?
  /// The state or region.
  public var administrativeArea: String?
  public var postalCode: String?
  public var country: String?

  public init(
    subThoroughfare: String? = nil, thoroughfare: String? = nil, locality: String? = nil,
    administrativeArea: String? = nil, postalCode: String? = nil, country: String? = nil
  ) {
    self.subThoroughfare = subThoroughfare
    self.thoroughfare = thoroughfare
    self.locality = locality
    self.administrativeArea = administrativeArea
    self.postalCode = postalCode
    self.country = country
  }

  /// True when no field has any text.
  public var isEmpty: Bool {
    [subThoroughfare, thoroughfare, locality, administrativeArea, postalCode, country]
      .allSatisfy { ($0 ?? "").isEmpty }
  }

  /// The detail view's address, exactly as the seed builds it: `1 Apple Park Way, Cupertino, CA 95014,
  /// United States`. Each part is written only when present, followed by its own separator, so a partial
  /// address keeps the separator of its last part (`Cupertino, `), as in the seed.
  public var fullAddress: String {
    Self.join([
      (subThoroughfare, " "), (thoroughfare, ", "), (locality, ", "), (administrativeArea, " "),
      (postalCode, ", "), (country, ""),
    ])
  }

  /// The list view's address, as the seed builds it: `1 Apple Park Way, Cupertino`.
  public var shortAddress: String {
    Self.join([(subThoroughfare, " "), (thoroughfare, ", "), (locality, "")])
  }

  private static func join(_ parts: [(text: String?, separator: String)]) -> String {
    var line = ""
    for part in parts {
      guard let text = part.text, !text.isEmpty else { continue }
      line += text + part.separator
    }
    return line
  }
}

extension Placemark {
  /// The address in an NSKeyedArchiver archive of a `CLPlacemark`, as the My Locations app's Core Data
  /// store keeps it (see `CoreDataStore`); nil when the bytes are no keyed archive or hold no address.
  /// Any bytes are safe to pass.
  public init?(keyedArchive bytes: [UInt8]) {
    guard let placemark = CoreDataStore.archivedPlacemark(bytes) else { return nil }
    self = placemark
  }
}
