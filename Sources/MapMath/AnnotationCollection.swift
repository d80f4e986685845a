/// Many annotations, read in two steps: every coordinate at once, the titles and ids only for the few that
/// are drawn one by one. A million stored places then cost a million coordinates, not a million texts.
public protocol AnnotationCollection {
  /// Every annotation's coordinate, in the collection's order (indices below count into it).
  var coordinates: [Coordinate] { get }
  /// The annotations at `indices`, in that order.
  func annotations(at indices: [Int]) throws -> [any Annotation]
  /// The identifiers of the annotations at `indices`, in that order.
  func identifiers(at indices: [Int]) throws -> [String]
  /// `indices` in the order their annotations are listed and their callouts tried (a store: oldest first);
  /// by default as given.
  func inListOrder(_ indices: [Int]) -> [Int]
}

extension AnnotationCollection {
  public func identifiers(at indices: [Int]) throws -> [String] {
    try annotations(at: indices).map(\.identifier)
  }

  public func inListOrder(_ indices: [Int]) -> [Int] { indices }
}

/// Annotations already in memory, as a collection.
public struct AnnotationArray: AnnotationCollection {
  public let annotations: [any Annotation]
  public let coordinates: [Coordinate]

  public init(_ annotations: [any Annotation]) {
    self.annotations = annotations
    coordinates = annotations.map(\.coordinate)
  }

  public func annotations(at indices: [Int]) -> [any Annotation] { indices.map { annotations[$0] } }
}
