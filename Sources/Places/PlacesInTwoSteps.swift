import Foundation
import MapMath

/// Places read in two steps, coordinates first and the rest only for the places asked for: a store's
/// (`StoredPlaces`) or a JSON file's (`FilePlaces`).
public protocol PlacesInTwoSteps: AnnotationCollection {
  /// How many places there are.
  var count: Int { get }
  /// The dated places' dates and coordinates in list order, without any text: what a route and a title's
  /// dates need.
  func datedInOrder() -> [(date: Date, coordinate: Coordinate)]
}

extension StoredPlaces: PlacesInTwoSteps {}
extension FilePlaces: PlacesInTwoSteps {}
