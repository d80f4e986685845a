/// The user's own position, with the radius of its accuracy in metres when known.
public struct UserPosition: Hashable, Sendable {
  public var coordinate: Coordinate
  /// Radius of the accuracy circle in metres.
  public var accuracy: Double?

  public init(coordinate: Coordinate, accuracy: Double? = nil) {
    self.coordinate = coordinate
    self.accuracy = accuracy
  }
}
