import CCairo
import MapMath

/// The legend's content, measured: a row per numbered place (its number on a disc of its pin's colour, its
/// title, its category), a last "… and N more" line when the rows were cut, then, when the style colours
/// pins by category, a swatch per category. Drawn on a white rounded plate like the callouts.
struct LegendPlate: PlateContent {
  struct NumberRow {
    let mark: PinNumberMark
    let color: Color
    let title: TextLayout
    let category: TextLayout?
  }

  struct SwatchRow {
    let color: Color
    let name: TextLayout
  }

  let style: Style
  let numberRows: [NumberRow]
  let more: TextLayout?
  let swatchRows: [SwatchRow]
  let size: PixelSize
  /// The width of the title column, so that the categories line up.
  private let titleColumn: Double

  /// The disc behind a number, and the swatch of a category.
  static let discRadius = 7.0
  static let swatchRadius = 5.0
  static let rowHeight = 19.0
  static let columnGap = 7.0
  static let dividerSpace = 9.0
  static let titleSize = 12.0
  static let categorySize = 10.5
  static let titleWidth = 190.0
  static let categoryWidth = 120.0

  /// One legend row's entry: a numbered place.
  struct Entry {
    let number: Int
    let title: String
    let category: String?
    let color: Color
  }

  init(
    entries: [Entry], hidden: Int, swatches: [(name: String, color: Color)], style: Style,
    moreText: (Int) -> String, measuring: MeasuringContext
  ) {
    self.style = style
    let context = measuring.context
    let family = style.fontFamily
    let titleFont = FontSpec(family: family, size: LegendPlate.titleSize, bold: false)
    let categoryFont = FontSpec(family: family, size: LegendPlate.categorySize, bold: false)
    numberRows = entries.map { entry in
      NumberRow(
        mark: PinNumberMark(
          number: entry.number, headRadius: LegendPlate.discRadius, fontFamily: family, context: context),
        color: entry.color,
        title: TextLayout(
          text: entry.title, font: titleFont, maxWidth: LegendPlate.titleWidth, context: context),
        category: entry.category.flatMap {
          $0.isEmpty
            ? nil
            : TextLayout(text: $0, font: categoryFont, maxWidth: LegendPlate.categoryWidth, context: context)
        })
    }
    more =
      hidden > 0
      ? TextLayout(text: moreText(hidden), font: categoryFont, maxWidth: nil, context: context) : nil
    swatchRows = swatches.map {
      SwatchRow(
        color: $0.color,
        name: TextLayout(text: $0.name, font: titleFont, maxWidth: LegendPlate.titleWidth, context: context))
    }
    titleColumn = numberRows.map(\.title.size.width).max() ?? 0
    let lead = 2 * LegendPlate.discRadius + LegendPlate.columnGap
    let categoryColumn = numberRows.compactMap { $0.category?.size.width }.max()
    var width = lead + titleColumn + (categoryColumn.map { LegendPlate.columnGap + $0 } ?? 0)
    width = max(width, more.map { lead + $0.size.width } ?? 0)
    width = max(width, (swatchRows.map(\.name.size.width).max() ?? -lead) + lead)
    let numberLines = Double(numberRows.count + (more == nil ? 0 : 1))
    var height = numberLines * LegendPlate.rowHeight + Double(swatchRows.count) * LegendPlate.rowHeight
    if numberLines > 0 && !swatchRows.isEmpty { height += LegendPlate.dividerSpace }
    size = PixelSize(
      width: (width + 2 * style.callout.horizontalPadding).rounded(.up),
      height: (height + 2 * LegendPlate.padding(style)).rounded(.up))
  }

  /// Space above the first row and below the last (rows carry their own air).
  static func padding(_ style: Style) -> Double { max(style.callout.verticalPadding - 2, 2) }

  func draw(in plate: PixelRect, on canvas: Canvas) {
    PlateBackground.draw(plate, style: style.callout, on: canvas)
    let cr = canvas.context
    let left = plate.minX + style.callout.horizontalPadding
    let textLeft = left + 2 * LegendPlate.discRadius + LegendPlate.columnGap
    var top = plate.minY + LegendPlate.padding(style)
    for row in numberRows {
      let middle = top + LegendPlate.rowHeight / 2
      let center = PixelPoint(x: left + LegendPlate.discRadius, y: middle)
      cairo_new_sub_path(cr)
      cairo_arc(cr, center.x, center.y, LegendPlate.discRadius, 0, 2 * .pi)
      canvas.drawing.setColor(row.color)
      cairo_fill(cr)
      row.mark.draw(centeredOn: center, pinColor: row.color, in: canvas.drawing)
      let titleTop = middle - row.title.size.height / 2
      canvas.drawing.setColor(style.callout.titleColor)
      row.title.draw(at: PixelPoint(x: textLeft, y: titleTop), in: cr)
      if let category = row.category {
        // On the title's baseline.
        canvas.drawing.setColor(style.callout.subtitleColor)
        category.draw(
          at: PixelPoint(
            x: textLeft + titleColumn + LegendPlate.columnGap,
            y: titleTop + row.title.baseline - category.baseline), in: cr)
      }
      top += LegendPlate.rowHeight
    }
    if let more {
      canvas.drawing.setColor(style.callout.subtitleColor)
      more.draw(
        at: PixelPoint(x: textLeft, y: top + (LegendPlate.rowHeight - more.size.height) / 2), in: cr)
      top += LegendPlate.rowHeight
    }
    if !swatchRows.isEmpty && top > plate.minY + LegendPlate.padding(style) {
      let y = top + LegendPlate.dividerSpace / 2
      cairo_move_to(cr, left, y)
      cairo_line_to(cr, plate.maxX - style.callout.horizontalPadding, y)
      canvas.drawing.setColor(style.callout.subtitleColor, alpha: 0.35)
      cairo_set_line_width(cr, 0.6)
      cairo_stroke(cr)
      top += LegendPlate.dividerSpace
    }
    for row in swatchRows {
      let middle = top + LegendPlate.rowHeight / 2
      cairo_new_sub_path(cr)
      cairo_arc(cr, left + LegendPlate.discRadius, middle, LegendPlate.swatchRadius, 0, 2 * .pi)
      canvas.drawing.setColor(row.color)
      cairo_fill_preserve(cr)
      canvas.drawing.setColor(row.color.lightened(-0.45), alpha: 0.8)
      cairo_set_line_width(cr, 0.8)
      cairo_stroke(cr)
      canvas.drawing.setColor(style.callout.titleColor)
      row.name.draw(at: PixelPoint(x: textLeft, y: middle - row.name.size.height / 2), in: cr)
      top += LegendPlate.rowHeight
    }
  }
}

/// The white rounded plate of the legend and the title, shaded like a callout.
enum PlateBackground {
  static let cornerRadius = 8.0

  static func draw(_ plate: PixelRect, style: CalloutStyle, on canvas: Canvas) {
    let cr = canvas.context
    let radius = min(cornerRadius, style.cornerRadius)
    canvas.drawing.softShadow(steps: 4, spread: 3, opacity: style.shadowOpacity * 0.8) { spread in
      canvas.drawing.addRoundedRect(
        plate.offsetBy(dx: 0, dy: 1.5).insetBy(dx: -spread, dy: -spread), radius: radius + spread)
    }
    canvas.drawing.addRoundedRect(plate, radius: radius)
    canvas.drawing.setColor(style.background)
    cairo_fill_preserve(cr)
    cairo_set_source_rgba(cr, 0, 0, 0, 0.12)
    cairo_set_line_width(cr, 0.6)
    cairo_stroke(cr)
  }
}
