/// A layer's compiled filter, in either the legacy or the expression syntax.
public struct StyleFilter: Sendable {
  let expression: Expression
  /// Whether the filter reads features (nearly always) or only the zoom.
  public let dependence: PropertyDependence
  /// Whether the filter reads the feature's id (`["id"]`, `$id`): if not, features with equal
  /// properties and geometry type pass or fail together.
  public let readsFeatureID: Bool

  init(_ compiled: Compiled) {
    expression = compiled.expression
    readsFeatureID = compiled.dependence.contains(.featureID)
    dependence =
      compiled.dependence.contains(.feature)
      ? .feature : compiled.dependence.contains(.zoom) ? .zoom : .constant
  }

  /// Whether the feature passes at a style zoom (mymap zoom − 1). A filter that fails to evaluate on a
  /// feature (an ordering of a string against a number, say) does not pass, as in MapLibre.
  @inlinable
  public func matches<F: StyleFeature>(_ feature: F, atZoom zoom: Double) -> Bool {
    // Inlined so the generic part specialises in the caller; evaluation itself is not generic.
    matches(anyFeature: feature, atZoom: zoom)
  }

  @usableFromInline
  func matches(anyFeature feature: any StyleFeature, atZoom zoom: Double) -> Bool {
    (try? expression.evaluateBool(EvaluationContext(zoom: zoom, feature: feature))) ?? false
  }
}
