import Foundation
import JSON

/// Why a style file could not be used.
public enum StyleError: Error, Equatable, CustomStringConvertible {
  case unreadable(path: String, reason: String)
  case malformed(path: String, reason: String)
  /// Not valid JSON; `line` and `column` count from 1.
  case syntax(path: String, line: Int, column: Int, message: String)
  case unknownField(path: String, field: String)
  case badValue(path: String, field: String, expected: String)
  case notFound(name: String, searched: [String])

  public var description: String {
    switch self {
    case .unreadable(let path, let reason): return "cannot read style \(path): \(reason)"
    case .malformed(let path, let reason): return "style \(path) is not valid JSON: \(reason)"
    case .syntax(let path, let line, let column, let message):
      return "style \(path):\(line):\(column): \(message)"
    // A field's name is any JSON member name: quoted short and escaped, so the message stays one line.
    case .unknownField(let path, let field):
      return "style \(path): unknown field \(JSONWriter.quotedExcerpt(field))"
    case .badValue(let path, let field, let expected):
      return "style \(path): field \"\(field)\" must be \(expected)"
    case .notFound(let name, let searched):
      return "no style named \"\(name)\" (looked in \(searched.joined(separator: ", ")))"
    }
  }
}

extension Style {
  /// The fields a style file may set, by dotted name (computed: key paths are not Sendable).
  static var colorFields: [String: WritableKeyPath<Style, Color>] {
    [
      "pin.color": \.pin.color, "pin.needleColor": \.pin.needleColor,
      "callout.background": \.callout.background, "callout.titleColor": \.callout.titleColor,
      "callout.subtitleColor": \.callout.subtitleColor, "callout.disclosureColor": \.callout.disclosureColor,
      "cluster.borderColor": \.cluster.borderColor, "cluster.textColor": \.cluster.textColor,
      "userDot.color": \.userDot.color, "userDot.ringColor": \.userDot.ringColor,
      "attribution.textColor": \.attribution.textColor, "attribution.background": \.attribution.background,
      "basemap.background": \.basemap.background, "basemap.placeholder": \.basemap.placeholder,
      "basemap.placeholderLines": \.basemap.placeholderLines,
      "basemap.water": \.basemap.water, "basemap.land": \.basemap.land, "basemap.lake": \.basemap.lake,
      "basemap.coastline": \.basemap.coastline, "basemap.countryBorder": \.basemap.countryBorder,
      "basemap.stateBorder": \.basemap.stateBorder, "basemap.countryLabel": \.basemap.countryLabel,
      "basemap.cityLabel": \.basemap.cityLabel, "basemap.labelHalo": \.basemap.labelHalo,
      "basemap.cityDot": \.basemap.cityDot,
      "track.color": \.track.color, "track.casingColor": \.track.casingColor,
      "track.routeColor": \.track.routeColor, "track.chevronColor": \.track.chevronColor,
    ]
  }

  /// Colours that default to another field's (null restores that).
  static var optionalColorFields: [String: WritableKeyPath<Style, Color?>] {
    ["cluster.color": \.cluster.color]
  }

  static var numberFields: [String: WritableKeyPath<Style, Double>] {
    [
      "pin.headRadius": \.pin.headRadius, "pin.needleLength": \.pin.needleLength,
      "pin.needleWidth": \.pin.needleWidth, "pin.shadowOpacity": \.pin.shadowOpacity,
      "callout.titleSize": \.callout.titleSize, "callout.subtitleSize": \.callout.subtitleSize,
      "callout.cornerRadius": \.callout.cornerRadius,
      "callout.horizontalPadding": \.callout.horizontalPadding,
      "callout.verticalPadding": \.callout.verticalPadding, "callout.maxTextWidth": \.callout.maxTextWidth,
      "callout.pointerWidth": \.callout.pointerWidth, "callout.pointerHeight": \.callout.pointerHeight,
      "callout.disclosureSize": \.callout.disclosureSize, "callout.shadowOpacity": \.callout.shadowOpacity,
      "cluster.borderWidth": \.cluster.borderWidth, "cluster.textSize": \.cluster.textSize,
      "cluster.radius": \.cluster.radius, "cluster.radiusGrowth": \.cluster.radiusGrowth,
      "cluster.shadowOpacity": \.cluster.shadowOpacity,
      "userDot.radius": \.userDot.radius, "userDot.ringWidth": \.userDot.ringWidth,
      "userDot.accuracyFillOpacity": \.userDot.accuracyFillOpacity,
      "userDot.accuracyStrokeOpacity": \.userDot.accuracyStrokeOpacity,
      "userDot.shadowOpacity": \.userDot.shadowOpacity,
      "attribution.size": \.attribution.size, "attribution.margin": \.attribution.margin,
      "basemap.coastlineWidth": \.basemap.coastlineWidth,
      "basemap.countryBorderWidth": \.basemap.countryBorderWidth,
      "basemap.stateBorderWidth": \.basemap.stateBorderWidth,
      "basemap.countryLabelSize": \.basemap.countryLabelSize,
      "basemap.cityLabelSize": \.basemap.cityLabelSize, "basemap.cityDotRadius": \.basemap.cityDotRadius,
      "basemap.labelHaloWidth": \.basemap.labelHaloWidth,
      "track.width": \.track.width, "track.casingWidth": \.track.casingWidth,
      "track.routeWidth": \.track.routeWidth, "track.chevronSpacing": \.track.chevronSpacing,
    ]
  }

  static var textFields: [String: WritableKeyPath<Style, String>] {
    [
      "name": \.name, "fontFamily": \.fontFamily,
    ]
  }

  static var optionalTextFields: [String: WritableKeyPath<Style, String?>] {
    [
      "basemap.tiles": \.basemap.tiles, "basemap.attribution": \.basemap.attribution,
      "basemap.vectorStyle": \.basemap.vectorStyle,
    ]
  }

  /// Reads a style file; fields it leaves out keep their defaults. Colours are `"#RRGGBB"`,
  /// `"#RRGGBBAA"` or `[r, g, b]` / `[r, g, b, a]` with components in 0…1.
  public static func load(contentsOf url: URL) throws -> Style {
    let data: Data
    do {
      data = try Data(contentsOf: url)
    } catch {
      throw StyleError.unreadable(path: url.path, reason: (error as NSError).localizedDescription)
    }
    var style = try Style(json: data, path: url.path)
    if !style.nameWasGiven(in: data) {
      style.name = url.deletingPathExtension().lastPathComponent
    }
    return style
  }

  /// A style from JSON text; `path` only names it in errors.
  public init(json data: Data, path: String = "<style>") throws {
    self.init()
    let root: JSONValue
    do {
      root = try JSONParser.parse(data)
    } catch {
      throw StyleError.syntax(path: path, line: error.line, column: error.column, message: error.message)
    }
    guard case .object = root else {
      throw StyleError.malformed(path: path, reason: "the top level must be an object")
    }
    for (field, value) in Style.flatten(root, prefix: "").sorted(by: { $0.name < $1.name }) {
      try apply(field: field, value: value, path: path)
    }
  }

  func nameWasGiven(in data: Data) -> Bool {
    (try? JSONParser.parse(data))?["name"] != nil
  }

  private mutating func apply(field: String, value: JSONValue, path: String) throws {
    if field == Style.categoryColorsField {
      pin.categoryColors = try Style.categoryColors(from: value, path: path)
    } else if let keyPath = Style.colorFields[field] {
      guard let color = Style.color(from: value) else {
        throw StyleError.badValue(
          path: path, field: field, expected: "a colour like \"#52D166\" or [0.32, 0.82, 0.4]")
      }
      self[keyPath: keyPath] = color
    } else if let keyPath = Style.optionalColorFields[field] {
      guard case .null = value else {
        guard let color = Style.color(from: value) else {
          throw StyleError.badValue(
            path: path, field: field, expected: "a colour like \"#52D166\" or [0.32, 0.82, 0.4], or null")
        }
        self[keyPath: keyPath] = color
        return
      }
      self[keyPath: keyPath] = nil
    } else if let keyPath = Style.numberFields[field] {
      // Opacities are fractions; sizes are points, and past 1000 they only make a drawing that cannot be made.
      let isOpacity = field.hasSuffix("Opacity")
      let limit = isOpacity ? 1.0 : 1000.0
      guard case .number(let number) = value, number.isFinite, number >= 0, number <= limit else {
        throw StyleError.badValue(
          path: path, field: field, expected: isOpacity ? "a number from 0 to 1" : "a number from 0 to 1000")
      }
      self[keyPath: keyPath] = number
    } else if let keyPath = Style.textFields[field] {
      guard case .string(let text) = value, !text.isEmpty else {
        throw StyleError.badValue(path: path, field: field, expected: "a non-empty string")
      }
      self[keyPath: keyPath] = text
    } else if let keyPath = Style.optionalTextFields[field] {
      switch value {
      case .null: self[keyPath: keyPath] = nil
      case .string(let text): self[keyPath: keyPath] = text
      default: throw StyleError.badValue(path: path, field: field, expected: "a string or null")
      }
    } else {
      throw StyleError.unknownField(path: path, field: field)
    }
  }

  /// Nested objects become dotted names; arrays (colours) stay values.
  private static func flatten(_ value: JSONValue, prefix: String) -> [(name: String, value: JSONValue)] {
    guard case .object(let members) = value else { return [(prefix, value)] }
    return members.flatMap { member -> [(name: String, value: JSONValue)] in
      let name = prefix.isEmpty ? member.name : prefix + "." + member.name
      // A map's keys are category names, which may hold dots: kept whole.
      if case .object = member.value, name != categoryColorsField {
        return flatten(member.value, prefix: name)
      }
      return [(name, member.value)]
    }
  }

  /// The field that maps categories to pin colours.
  static let categoryColorsField = "pin.categoryColors"
  /// The most categories a style may colour (the app has eleven).
  static let maximumCategoryColors = 256

  /// `{"Bar": "#E4572E", …}`: each category once (case does not matter), each a colour.
  private static func categoryColors(from value: JSONValue, path: String) throws -> [String: Color] {
    guard case .object(let members) = value else {
      throw StyleError.badValue(
        path: path, field: categoryColorsField, expected: "an object mapping category names to colours")
    }
    guard members.count <= maximumCategoryColors else {
      throw StyleError.badValue(
        path: path, field: categoryColorsField,
        expected: "at most \(maximumCategoryColors) categories (it has \(members.count))")
    }
    var colors: [String: Color] = [:]
    for member in members {
      let name = JSONWriter.quotedExcerpt(member.name)
      let key = member.name.lowercased()
      guard !key.isEmpty else {
        throw StyleError.badValue(
          path: path, field: categoryColorsField, expected: "keyed by category names (one is empty)")
      }
      guard colors[key] == nil else {
        throw StyleError.badValue(
          path: path, field: categoryColorsField,
          expected: "keyed by each category once, in any case (\(name) is there twice)")
      }
      guard let color = Style.color(from: member.value) else {
        throw StyleError.badValue(
          path: path, field: categoryColorsField,
          expected: "an object of colours like \"#52D166\" or [0.32, 0.82, 0.4] (that of \(name) is not one)")
      }
      colors[key] = color
    }
    return colors
  }

  private static func color(from value: JSONValue) -> Color? {
    switch value {
    case .string(let text):
      return Color(hex: text)
    case .array(let elements) where elements.count == 3 || elements.count == 4:
      let components = elements.compactMap { element -> Double? in
        guard case .number(let number) = element, (0...1).contains(number) else { return nil }
        return number
      }
      guard components.count == elements.count else { return nil }
      return Color(
        red: components[0], green: components[1], blue: components[2],
        alpha: components.count == 4 ? components[3] : 1)
    default:
      return nil
    }
  }
}
