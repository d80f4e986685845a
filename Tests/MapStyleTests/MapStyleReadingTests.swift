import JSON
import XCTest

@testable import MapStyle

final class MapStyleReadingTests: XCTestCase {
  func testAStyleRecordsNameSourcesGlyphsSpriteAndLayersInOrder() throws {
    let style = try readStyle(
      #"""
      {"version": 8, "name": "Street", "glyphs": "https://example.com/{fontstack}/{range}.pbf",
       "sprite": "https://example.com/sprite",
       "sources": {
         "osm": {"type": "vector", "url": "mbtiles://tiles/helsinki.mbtiles", "attribution": "© OpenStreetMap"},
         "hills": {"type": "raster", "tiles": ["https://t.example.com/{z}/{x}/{y}.png"], "minzoom": 2, "maxzoom": 12},
         "remote": {"type": "vector", "url": "pmtiles://https://example.com/city.pmtiles"}},
       "layers": [
         {"id": "land", "type": "background", "paint": {"background-color": "#f8f4f0"}},
         {"id": "water", "type": "fill", "source": "osm", "source-layer": "water", "minzoom": 4, "maxzoom": 16},
         {"id": "roads", "type": "line", "source": "osm", "source-layer": "transportation",
          "filter": ["==", "class", "primary"], "layout": {"visibility": "none"}}]}
      """#)
    XCTAssertEqual(style.name, "Street")
    XCTAssertEqual(style.glyphs, "https://example.com/{fontstack}/{range}.pbf")
    XCTAssertEqual(style.sprite, "https://example.com/sprite")
    XCTAssertEqual(style.sources.map(\.id), ["osm", "hills", "remote"])
    let osm = try XCTUnwrap(style.source(named: "osm"))
    XCTAssertEqual(osm.type, "vector")
    XCTAssertEqual(osm.attribution, "© OpenStreetMap")
    XCTAssertEqual(osm.archive, StyleSource.Archive(kind: .mbtiles, location: "tiles/helsinki.mbtiles"))
    XCTAssertEqual(style.source(named: "remote")?.archive?.location, "https://example.com/city.pmtiles")
    XCTAssertEqual(style.source(named: "remote")?.archive?.kind, .pmtiles)
    let hills = try XCTUnwrap(style.source(named: "hills"))
    XCTAssertEqual(hills.tiles, ["https://t.example.com/{z}/{x}/{y}.png"])
    XCTAssertEqual(hills.minZoom, 2)
    XCTAssertEqual(hills.maxZoom, 12)
    XCTAssertNil(hills.archive)
    XCTAssertEqual(style.layers.map(\.id), ["land", "water", "roads"])
    let water = style.layers[1]
    XCTAssertEqual(water.source, "osm")
    XCTAssertEqual(water.sourceLayer, "water")
    XCTAssertNil(water.filter)
    XCTAssertTrue(water.matches(TestFeature(), atZoom: 10))
    XCTAssertFalse(style.layers[2].isVisible)
    XCTAssertTrue(style.layers[2].matches(TestFeature(["class": .string("primary")]), atZoom: 10))
    XCTAssertEqual(style.warnings, [])
  }

  func testLayersShowFromMinzoomUpToButNotIncludingMaxzoom() throws {
    let style = try readStyle(
      styleText(
        #"{"id": "water", "type": "fill", "source": "osm", "minzoom": 4, "maxzoom": 16}"#,
        #"{"id": "hidden", "type": "fill", "source": "osm", "layout": {"visibility": "none"}}"#))
    let water = style.layers[0]
    XCTAssertFalse(water.isShown(atZoom: 3.99))
    XCTAssertTrue(water.isShown(atZoom: 4))
    XCTAssertTrue(water.isShown(atZoom: 15.99))
    XCTAssertFalse(water.isShown(atZoom: 16))
    XCTAssertFalse(style.layers[1].isShown(atZoom: 10))
  }

  /// Without the sprite, a layer painted with a pattern draws nothing (as MapLibre does), rather than a
  /// black area in the default colour.
  func testLayersPaintedWithASpritePatternAreNotDrawn() throws {
    let style = try readStyle(
      #"""
      {"version": 8, "sources": {"s": {"type": "vector", "url": "pmtiles://city.pmtiles"}}, "layers": [
         {"id": "water", "type": "fill", "source": "s", "source-layer": "water", "paint": {"fill-color": "#a0c8f0"}},
         {"id": "waves", "type": "fill", "source": "s", "source-layer": "water", "paint": {"fill-pattern": "wave"}},
         {"id": "rails", "type": "line", "source": "s", "source-layer": "transportation",
          "paint": {"line-pattern": "rail"}},
         {"id": "paper", "type": "background", "paint": {"background-pattern": "paper"}}]}
      """#)
    XCTAssertEqual(style.layers.map { $0.isShown(atZoom: 14) }, [true, false, false, false])
    XCTAssertEqual(style.warnings.map(\.description), ["style: icons and sprites are ignored"])
  }

  func testOnlyVersion8IsRead() {
    XCTAssertEqual(
      styleError(#"{"version": 7, "sources": {}, "layers": []}"#),
      "style version must be 8 (MapLibre style specification v8), found the number 7")
    XCTAssertEqual(
      styleError(#"{"sources": {}, "layers": []}"#),
      #"style version must be 8 (MapLibre style specification v8), found no "version""#)
    XCTAssertEqual(
      styleError(#"{"version": "8", "layers": []}"#),
      #"style version must be 8 (MapLibre style specification v8), found the string "8""#)
    XCTAssertEqual(styleError(#"{"version": 8, "layers": []}"#), "read 0 layers")
  }

  func testMalformedStylesSayWhere() {
    XCTAssertEqual(
      styleError(#"{"version": 8, "layers": [}"#),
      "style is not valid JSON: 1:27: expected a value, found '}'")
    XCTAssertEqual(styleError("[8]"), "style: (top level): a style must be a JSON object")
    XCTAssertEqual(styleError(#"{"version": 8}"#), #"style: layers: a style needs a "layers" array"#)
    XCTAssertEqual(
      styleError(#"{"version": 8, "layers": [3]}"#), "style: layers[0]: a layer must be an object")
    XCTAssertEqual(
      styleError(#"{"version": 8, "layers": [{"type": "fill"}]}"#),
      #"style: layers[0]: a layer needs a string "id""#)
    XCTAssertEqual(
      styleError(#"{"version": 8, "sources": {"osm": {"url": "x"}}, "layers": []}"#),
      #"style: sources.osm: a source needs a string "type""#)
    XCTAssertEqual(
      styleError(styleText(#"{"id": "a", "type": "fill"}"#, #"{"id": "a", "type": "line"}"#)),
      #"style layer "a": id: another layer has the same id"#)
    XCTAssertEqual(
      styleError(styleText(#"{"id": "a", "type": "fill", "minzoom": "4"}"#)),
      #"style layer "a": minzoom: must be a number, found the string "4""#)
    XCTAssertEqual(
      styleError(styleText(#"{"id": "a", "type": "fill", "layout": {"visibility": "hidden"}}"#)),
      #"style layer "a": visibility: must be "visible" or "none""#)
    XCTAssertEqual(
      styleError(styleText(#"{"id": "a", "type": "fill", "paint": []}"#)),
      #"style layer "a": paint: must be an object, found an array"#)
  }

  func testUnknownOperatorsInFiltersAndPropertiesAreErrorsNamingTheLayer() {
    XCTAssertEqual(
      styleError(styleText(#"{"id": "roads", "type": "line", "filter": ["within", {"type": "Polygon"}]}"#)),
      #"style layer "roads": unknown expression operator "within""#)
    XCTAssertEqual(
      styleError(styleText(#"{"id": "roads", "type": "line", "paint": {"line-width": ["distance", {}]}}"#)),
      #"style layer "roads": unknown expression operator "distance""#)
  }

  func testLayersThatAreNotDrawnWarnOnceEachAndAreNotCompiled() throws {
    let style = try readStyle(
      styleText(
        #"{"id": "hillshade", "type": "hillshade", "source": "osm"}"#,
        #"{"id": "pois", "type": "circle", "source": "osm", "filter": ["within", {}]}"#,
        #"{"id": "roads", "type": "line", "source": "osm"}"#))
    XCTAssertEqual(
      style.warnings.map(\.description),
      [
        #"style layer "hillshade": layer type "hillshade" is not drawn"#,
        #"style layer "pois": layer type "circle" is not drawn"#,
      ])
    guard case .unsupported(let type) = style.layers[1].kind else { return XCTFail("circle is not drawn") }
    XCTAssertEqual(type, "circle")
  }

  func testUnsupportedPropertiesAreReportedOncePerStyle() throws {
    let style = try readStyle(
      styleText(
        #"{"id": "a", "type": "symbol", "source": "osm", "layout": {"text-variable-anchor": ["top"], "text-field": "{name}"}}"#,
        #"{"id": "b", "type": "symbol", "source": "osm", "layout": {"text-variable-anchor": ["left"]}}"#,
        #"{"id": "c", "type": "symbol", "source": "osm", "layout": {"text-variable-anchor": ["left"], "text-rotate": 5}}"#,
        #"{"id": "d", "type": "line", "source": "osm", "paint": {"line-blur": 1, "line-color": "red"}}"#))
    XCTAssertEqual(
      style.warnings.map(\.description),
      [
        #"style layer "a": text-variable-anchor ignored (and in 2 more layers)"#,
        #"style layer "c": text-rotate ignored"#,
        #"style layer "d": line-blur ignored"#,
      ])
    XCTAssertEqual(
      style.warnings.first, .ignoredProperty(layer: "a", property: "text-variable-anchor", otherLayers: 2))
  }

  func testIconsGiveOneWarningForTheWholeStyle() throws {
    let style = try readStyle(
      styleText(
        #"{"id": "poi", "type": "symbol", "source": "osm", "layout": {"icon-image": "{class}", "icon-size": 2, "text-field": "{name}"}}"#,
        #"{"id": "shops", "type": "symbol", "source": "osm", "layout": {"icon-image": "shop"}, "paint": {"icon-opacity": 0.5}}"#,
        #"{"id": "marsh", "type": "fill", "source": "osm", "paint": {"fill-pattern": "wetland"}}"#,
        #"{"id": "flat", "type": "line", "source": "osm", "layout": {"line-cap": "round"}, "paint": {"line-translate-anchor": "map"}}"#
      ))
    XCTAssertEqual(style.warnings.map(\.description), ["style: icons and sprites are ignored"])
  }

  func testLayersNamingUndeclaredSourcesWarn() throws {
    let style = try readStyle(styleText(#"{"id": "x", "type": "fill", "source": "elsewhere"}"#))
    XCTAssertEqual(
      style.warnings.map(\.description), [#"style layer "x": source "elsewhere" is not declared"#])
  }

  func testLegacyRefLayersTakeTheirReferencesTypeSourceFilterAndLayout() throws {
    let style = try readStyle(
      styleText(
        #"{"id": "road", "type": "line", "source": "osm", "source-layer": "transportation", "minzoom": 5, "filter": ["==", "class", "primary"], "layout": {"line-cap": "round"}, "paint": {"line-width": 4}}"#,
        #"{"id": "road-inner", "ref": "road", "paint": {"line-width": 2, "line-color": "white"}}"#))
    let inner = style.layers[1]
    XCTAssertEqual(inner.sourceLayer, "transportation")
    XCTAssertEqual(inner.minZoom, 5)
    XCTAssertTrue(inner.matches(TestFeature(["class": .string("primary")]), atZoom: 10))
    XCTAssertFalse(inner.matches(TestFeature(["class": .string("minor")]), atZoom: 10))
    guard case .line(let line) = inner.kind else { return XCTFail("not a line") }
    XCTAssertEqual(line.width.constantValue, 2)
    XCTAssertEqual(line.cap.constantValue, .round)
    XCTAssertEqual(line.color.constantValue?.bytes, [255, 255, 255, 1])
    XCTAssertEqual(
      styleError(styleText(#"{"id": "orphan", "ref": "nothing"}"#)),
      #"style layer "orphan": ref: names no earlier layer"#)
  }
}
