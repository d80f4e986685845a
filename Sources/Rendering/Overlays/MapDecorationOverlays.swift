extension Snapshotter {
  /// The plates a request asks for beyond the attribution, in the order they settle: the title, the scale
  /// bar, then the legend, which sees where the others went.
  static func decorations(_ request: RenderRequest, numbering: PlaceNumbering, measuring: MeasuringContext)
    -> [any MapOverlay]
  {
    var overlays: [any MapOverlay] = []
    var titleBand = 0.0
    if let title = TitlePlate.overlay(for: request, measuring: measuring) {
      overlays.append(title)
      titleBand = title.content.size.height + PlateSpacing.margin
    }
    if let units = request.scaleBar {
      overlays.append(ScaleBarOverlay(units: units, style: request.style, measuring: measuring))
    }
    let showsCategories = !request.style.pin.categoryColors.isEmpty
    if request.showsLegend && (request.labels != .callouts || showsCategories) {
      var legend = LegendOverlay(
        style: request.style, numbering: numbering,
        showsCategories: showsCategories, imageSize: request.size, titleBand: titleBand,
        measuring: measuring)
      legend.moreText = request.legendMoreText
      overlays.append(legend)
    }
    return overlays
  }
}
