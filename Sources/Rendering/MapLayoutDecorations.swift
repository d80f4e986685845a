import JSON
import MapMath

extension MapLayout {
  /// The legend as drawn: its box, its rows in order and the categories its swatches colour.
  public struct LegendLayout: Hashable, Sendable {
    public var rect: PixelRect
    /// The numbered places it names, in number order.
    public var rows: [Row]
    /// Numbered places it has no room for (its last line says "… and N more").
    public var more: Int
    /// The categories with their pin colours, when the style colours them.
    public var categories: [CategorySwatch]

    /// One numbered place.
    public struct Row: Hashable, Sendable {
      public var number: Int
      public var id: String
      public var title: String
      public var category: String?
    }

    /// One category and its colour.
    public struct CategorySwatch: Hashable, Sendable {
      public var name: String
      public var color: Color
    }
  }

  /// A plate over the map.
  public struct PlateLayout: Hashable, Sendable {
    /// `title`, `scaleBar`, `legend` or `attribution`.
    public var kind: String
    public var rect: PixelRect
    /// What it says: the title and subtitle (one line each), the scale bar's length, the credit; nil for
    /// the legend.
    public var text: String? = nil
  }

  /// The `legend` and `plates` members of the layout JSON.
  var decorationMembers: [JSONValue.Member] {
    let legendValue: JSONValue =
      legend.map { legend in
        .object([
          .init("rect", MapLayout.rect(legend.rect)),
          .init(
            "rows",
            .array(
              legend.rows.map { row in
                .object([
                  .init("number", .number(Double(row.number))), .init("id", .string(row.id)),
                  .init("title", .string(row.title)),
                  .init("category", row.category.map { .string($0) } ?? .null),
                ])
              })),
          .init("more", .number(Double(legend.more))),
          .init(
            "categories",
            .array(
              legend.categories.map {
                .object([.init("name", .string($0.name)), .init("color", .string($0.color.description))])
              })),
        ])
      } ?? .null
    return [
      .init("legend", legendValue),
      .init(
        "plates",
        .array(
          plates.map {
            .object([
              .init("kind", .string($0.kind)), .init("rect", MapLayout.rect($0.rect)),
              .init("text", $0.text.map { .string($0) } ?? .null),
            ])
          })),
    ]
  }
}
