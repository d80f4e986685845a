/// What a property's value depends on, so a renderer can evaluate it as rarely as possible.
public enum PropertyDependence: Hashable, Sendable {
  /// The same value everywhere.
  case constant
  /// Depends on the zoom only: evaluate once per zoom.
  case zoom
  /// Depends on each feature (and maybe the zoom): evaluate per feature.
  case feature
}

/// One compiled paint or layout property of a layer, typed.
///
/// Zooms are **style zooms**: MapLibre styles count zoom in 512-pixel tiles, mymap in 256-pixel tiles,
/// so pass `mymapZoom - 1`. A value that fails to evaluate for a feature (a wrong type, a missing
/// property, a colour that does not parse) gives the property's default, as in MapLibre.
public struct StyleProperty<Value: StylePropertyValue>: Sendable {
  /// The value the specification gives when the style does not set the property.
  public let defaultValue: Value
  /// What the value depends on: nothing, the zoom, or each feature.
  public let dependence: PropertyDependence
  /// Whether the style sets the property at all.
  public let isSet: Bool
  let expression: Expression
  /// Bounds the specification sets for numbers (opacity 0…1, widths ≥ 0): values are clamped.
  let range: ClosedRange<Double>?
  /// The value when `dependence` is `.constant`.
  public let constantValue: Value?
  /// Whether the value reads the feature's id (`["id"]`): if not, features with equal properties and
  /// geometry type have equal values.
  public let readsFeatureID: Bool

  /// An unset property: always its default.
  init(default value: Value) {
    defaultValue = value
    dependence = .constant
    isSet = false
    expression = .literal(.null)
    range = nil
    constantValue = value
    readsFeatureID = false
  }

  init(compiled: Compiled, default value: Value, range: ClosedRange<Double>?) {
    let dependence: PropertyDependence =
      compiled.dependence.contains(.feature)
      ? .feature : compiled.dependence.contains(.zoom) ? .zoom : .constant
    defaultValue = value
    isSet = true
    expression = compiled.expression
    readsFeatureID = compiled.dependence.contains(.featureID)
    self.range = range
    self.dependence = dependence
    constantValue =
      dependence == .constant
      ? Self.convert(try? compiled.expression.evaluate(Self.noFeature(zoom: 0)), range: range, default: value)
      : nil
  }

  /// The value at a style zoom for a property that does not depend on features; for a data-driven
  /// property, the value for a feature that has no properties.
  public func value(atZoom zoom: Double) -> Value {
    if let constantValue { return constantValue }
    return convert(try? expression.evaluate(Self.noFeature(zoom: zoom)))
  }

  /// The value at a style zoom for one feature.
  @inlinable
  public func value<F: StyleFeature>(atZoom zoom: Double, for feature: F) -> Value {
    // Inlined so the generic part specialises in the caller; evaluation itself is not generic.
    if let constantValue { return constantValue }
    return value(atZoom: zoom, anyFeature: feature)
  }

  @usableFromInline
  func value(atZoom zoom: Double, anyFeature feature: any StyleFeature) -> Value {
    convert(try? expression.evaluate(EvaluationContext(zoom: zoom, feature: feature)))
  }

  /// The property with its zoom fixed: constant and zoom-only values are computed once here, so a
  /// renderer drawing many features at one zoom pays only for data-driven ones.
  public func resolved(atZoom zoom: Double) -> ResolvedStyleProperty<Value> {
    ResolvedStyleProperty(
      property: self, zoom: zoom, constantValue: dependence == .feature ? nil : value(atZoom: zoom))
  }

  private static func noFeature(zoom: Double) -> EvaluationContext {
    EvaluationContext(zoom: zoom, feature: nil)
  }

  private func convert(_ result: StyleValue?) -> Value {
    Self.convert(result, range: range, default: defaultValue)
  }

  private static func convert(_ result: StyleValue?, range: ClosedRange<Double>?, default defaultValue: Value)
    -> Value
  {
    guard var result else { return defaultValue }
    if case .number(let number) = result {
      // NaN and infinities are not drawable: the default, as MapLibre does for NaN.
      guard number.isFinite else { return defaultValue }
      if let range { result = .number(min(max(number, range.lowerBound), range.upperBound)) }
    }
    return Value(styleValue: result) ?? defaultValue
  }
}

/// A property at one style zoom (see `StyleProperty.resolved(atZoom:)`).
public struct ResolvedStyleProperty<Value: StylePropertyValue>: Sendable {
  @usableFromInline let property: StyleProperty<Value>
  /// The style zoom it was resolved at.
  public let zoom: Double
  /// The value when it is the same for every feature at this zoom.
  public let constantValue: Value?
  /// Whether the value reads the feature's id (see `StyleProperty.readsFeatureID`).
  public var readsFeatureID: Bool { property.readsFeatureID }

  /// The value for one feature.
  @inlinable
  public func value<F: StyleFeature>(for feature: F) -> Value {
    if let constantValue { return constantValue }
    return property.value(atZoom: zoom, anyFeature: feature)
  }
}
