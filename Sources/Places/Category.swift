/// The seed app's categories, in the order its category picker lists them.
///
/// A place keeps its category as a plain string (`Location.category`) so that a file naming a category this
/// list does not know still loads; this type says which names are the known ones.
public enum Category: String, CaseIterable, Sendable {
  case noCategory = "No Category"
  case appleStore = "Apple Store"
  case bar = "Bar"
  case bookstore = "Bookstore"
  case club = "Club"
  case groceryStore = "Grocery Store"
  case historicBuilding = "Historic Building"
  case house = "House"
  case icecreamVendor = "Icecream Vendor"
  case landmark = "Landmark"
  case park = "Park"

  /// The category of a place saved without choosing one.
  public static let `default` = Category.noCategory

  /// The name shown to the user and stored in files.
  public var name: String { rawValue }

  /// Every known name, in the app's order.
  public static var names: [String] { allCases.map(\.rawValue) }

  /// Whether `name` is a known category. Exact match: the app stores and compares names as they are.
  public static func isKnown(_ name: String) -> Bool { Category(rawValue: name) != nil }

  /// The known category a name means regardless of case (`park` is `Park`), or nil.
  public static func matching(_ name: String) -> Category? {
    if let exact = Category(rawValue: name) { return exact }
    return byLoweredName[name.lowercased()]
  }

  private static let byLoweredName = Dictionary(
    uniqueKeysWithValues: allCases.map { ($0.rawValue.lowercased(), $0) })

  /// The known names, as a warning lists them.
  static let namesText = names.joined(separator: ", ")
}
