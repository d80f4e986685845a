import JSON

extension GeoJSON {
  /// A place as a Point feature, for a FeatureCollection that holds the places in order, then one line per
  /// track (`trackFeature`): the id both as the feature's `id` (RFC 7946) and as `properties.id` (many
  /// tools show only properties), then `description`, `category`, `date`, `placemark` and `photo` as in
  /// mymap JSON (absent optionals left out). Reading it back gives the same places. The user's position is
  /// not written (GeoJSON has no place for it).
  static func feature(_ location: Location) -> JSONValue {
    var properties: [JSONValue.Member] = [
      .init("id", .string(location.id)),
      .init("description", .string(location.locationDescription)),
      .init("category", .string(location.category)),
    ]
    if let date = location.date { properties.append(.init("date", .string(ISO8601Date.format(date)))) }
    if let placemark = location.placemark {
      properties.append(.init("placemark", LocationsJSON.encode(placemark)))
    }
    if let photo = location.photoPath { properties.append(.init("photo", .string(photo))) }
    return .object([
      .init("type", .string("Feature")),
      .init("id", .string(location.id)),
      .init(
        "geometry",
        .object([
          .init("type", .string("Point")),
          .init("coordinates", .array([.number(location.longitude), .number(location.latitude)])),
        ])),
      .init("properties", .object(properties)),
    ])
  }
}
