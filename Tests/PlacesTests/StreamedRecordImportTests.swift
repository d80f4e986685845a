import FileSystem
import Foundation
import TestSupport
import XCTest
import XML

@testable import Places

/// mymap JSON, GeoJSON FeatureCollections and GPX imported as they are read (`LocationStore.importJSON`,
/// `importGPX`): the same places, tracks, warnings and errors as the file read whole and imported with
/// `importSet`.
final class StreamedRecordImportTests: XCTestCase {
  /// A file the test meant to import as it is read came back read whole: the test fails.
  private struct NotReadAsImported: Error {
    let name: String
  }

  private func records(_ text: String, name: String = "p.json") throws -> JSONImportRecords {
    guard
      let records = try JSONImportRecords.open(MappedInput(bytes: Array(text.utf8)), name: name, format: nil)
    else { throw NotReadAsImported(name: name) }
    return records
  }

  private func seeded() throws -> ScratchStore {
    let scratch = try ScratchStore()
    try scratch.store.add(storePlace("s1", "Tower", day: nil))
    try scratch.store.add(storePlace("s9", "Already"))
    return scratch
  }

  private func contents(_ store: LocationStore) throws -> [String] {
    try store.locations().map { "\($0.id) \($0.locationDescription) \($0.category)" }.sorted()
      + store.tracks().map { "\($0.id) \($0.name) \($0.pointCount)" }.sorted()
  }

  /// Given ids, derived ids, the same place twice, an id given for a place an earlier record's derived id
  /// took, a place the store has, an unknown category, tracks (one twice, one empty) before the places.
  private var trickyJSON: String {
    let derivedB = Location.derivedID(latitude: 10, longitude: 20, locationDescription: "B", date: nil)
    return """
      {"tracks": [
         {"name": "walk", "segments": [[{"latitude": 1, "longitude": 2}, {"latitude": 1.1, "longitude": 2.1}]]},
         {"name": "walk", "segments": [[{"latitude": 1, "longitude": 2}, {"latitude": 1.1, "longitude": 2.1}]]},
         {"id": "t-empty", "segments": [[]]}],
       "user": {"latitude": 5, "longitude": 6},
       "locations": [
         {"id": "p1", "latitude": 1, "longitude": 1, "description": "A"},
         {"latitude": 10, "longitude": 20, "description": "B"},
         {"latitude": 10, "longitude": 20, "description": "B"},
         {"id": "\(derivedB)", "latitude": 11, "longitude": 21, "description": "D", "category": "Kiosk"},
         {"latitude": 48.8584, "longitude": 2.2945, "description": "Tower"},
         {"id": "s9", "latitude": 5, "longitude": 5, "description": "H"}]}
      """
  }

  private var trickyGeoJSON: String {
    func point(_ id: String?, _ lat: Double, _ lon: Double, _ text: String, _ extra: String = "") -> String {
      let idMember = id.map { "\"id\": \"\($0)\", " } ?? ""
      return """
        {"type": "Feature", \(idMember)"geometry": {"type": "Point", "coordinates": [\(lon), \(lat)]},
         "properties": {"description": "\(text)"\(extra)}}
        """
    }
    let line = """
      {"type": "Feature", "geometry": {"type": "LineString", "coordinates": [[2, 1], [2.1, 1.1]]},
       "properties": {"name": "walk"}}
      """
    return """
      {"features": [\(point("p1", 1, 1, "A")), \(line), \(point(nil, 10, 20, "B")), \(point(nil, 10, 20, "B")),
        {"type": "Feature", "geometry": {"type": "Polygon", "coordinates": []}}, \(line),
        \(point(nil, 48.8584, 2.2945, "Tower", ", \"category\": \"Kiosk\"")), \(point("s9", 5, 5, "H"))],
       "type": "FeatureCollection"}
      """
  }

  /// The same for GPX, with a track between the waypoints whose warning comes in file order.
  private var trickyGPX: String {
    let derivedB = Location.derivedID(latitude: 10, longitude: 20, locationDescription: "B", date: nil)
    let id = { (text: String) in "<extensions><mymap:id>\(text)</mymap:id></extensions>" }
    return """
      <?xml version="1.0" encoding="UTF-8"?>
      <gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1" xmlns:mymap="urn:mymap:gpx:1">
        <wpt lat="1" lon="1"><name>A</name>\(id("p1"))</wpt>
        <wpt lat="10" lon="20"><name>B</name></wpt>
        <trk><name>walk</name><trkseg><trkpt lat="1" lon="2"><time>2026-01-01T10:00:00</time></trkpt>
          <trkpt lat="1.1" lon="2.1"/></trkseg></trk>
        <wpt lat="10" lon="20"><name>B</name><type>Kiosk</type></wpt>
        <trk><name>nothing</name><trkseg></trkseg></trk>
        <wpt lat="11" lon="21"><name>D</name>\(id(derivedB))</wpt>
        <wpt lat="48.8584" lon="2.2945"><time>2026-02-01T10:00:00</time><name>Tower</name></wpt>
        <wpt lat="5" lon="5"><name>H</name>\(id("s9"))</wpt>
        <rte><name>ferry</name><rtept lat="2" lon="3"/><rtept lat="2.5" lon="3.5"/></rte>
      </gpx>
      """
  }

  private func gpxRecords(_ text: String) throws -> GPXImportRecords {
    let folder = try TemporaryDirectory(prefix: "mymap-gpx-import")
    let file = try folder.write(text, to: "p.gpx")
    guard case .gpxRecords(let records) = try LocationsFile.openForImport(path: file.path) else {
      throw NotReadAsImported(name: "p.gpx")
    }
    return records
  }

  func testAGPXImportAddsWhatTheWholeFileImportAdds() throws {
    for threshold in [50_000, 2] {
      let whole = try seeded()
      whole.store.bulkImportThreshold = threshold
      let set = try LocationsFile.read(data: Data(trickyGPX.utf8), name: "p.gpx")
      let expected = try whole.store.importSet(set, dryRun: false)

      let streamed = try seeded()
      streamed.store.bulkImportThreshold = threshold
      let result = try streamed.store.importGPX(try gpxRecords(trickyGPX))
      XCTAssertEqual(result.summary, expected, "threshold \(threshold)")
      XCTAssertEqual(result.places, set.locations.count)
      XCTAssertEqual(result.tracks, 2)
      XCTAssertEqual(result.warnings, set.warnings)
      XCTAssertEqual(result.warnings.count, 4, "\(result.warnings)")
      XCTAssertEqual(try contents(streamed.store), try contents(whole.store), "threshold \(threshold)")
    }
  }

  func testAGPXImportGivesTheWholeReadsErrors() throws {
    let files = [
      trickyGPX.replacingOccurrences(of: #"<wpt lat="11""#, with: #"<wpt lat="91""#),
      trickyGPX.replacingOccurrences(of: "<mymap:id>s9</mymap:id>", with: "<mymap:id>p1</mymap:id>"),
      trickyGPX.replacingOccurrences(of: #"<trkpt lat="1.1" lon="2.1"/>"#, with: #"<trkpt lat="1.1"/>"#),
      trickyGPX.replacingOccurrences(of: "</rte>", with: "</rtx>"),
      trickyGPX.replacingOccurrences(of: "<time>2026-02-01T10:00:00</time>", with: "<time>yesterday</time>"),
      #"<kml xmlns="http://www.opengis.net/kml/2.2"></kml>"#,
    ]
    for text in files {
      var wholeError: LocationsFileError?
      do {
        _ = try LocationsFile.read(data: Data(text.utf8), name: "p.gpx")
      } catch {
        wholeError = error
      }
      let wanted = try XCTUnwrap(wholeError, text).description
      let scratch = try seeded()
      let before = try contents(scratch.store)
      XCTAssertThrowsError(try scratch.store.importGPX(try gpxRecords(text))) { error in
        XCTAssertEqual(
          (error as? StreamedImportError)?.description.replacingOccurrences(
            of: #"^.*p\.gpx"#, with: "p.gpx", options: .regularExpression),
          wanted, text)
      }
      XCTAssertEqual(try contents(scratch.store), before, text)
    }
  }

  func testTheStreamedImportAddsWhatTheWholeFileImportAdds() throws {
    for (text, name) in [(trickyJSON, "p.json"), (trickyGeoJSON, "p.geojson")] {
      for threshold in [50_000, 2] {
        let whole = try seeded()
        whole.store.bulkImportThreshold = threshold
        let set = try LocationsFile.read(data: Data(text.utf8), name: name)
        let expected = try whole.store.importSet(set, dryRun: false)

        let streamed = try seeded()
        streamed.store.bulkImportThreshold = threshold
        var listed: [String] = []
        let result = try streamed.store.importJSON(try records(text, name: name)) { listed.append($0.id) }
        XCTAssertEqual(result.summary, expected, "\(name) threshold \(threshold)")
        XCTAssertEqual(result.places, set.locations.count, name)
        XCTAssertEqual(result.tracks, set.tracks.count, name)
        XCTAssertEqual(result.warnings, set.warnings, name)
        XCTAssertEqual(listed.count, set.locations.count, name)
        XCTAssertEqual(
          try contents(streamed.store), try contents(whole.store), "\(name) threshold \(threshold)")
        XCTAssertFalse(result.warnings.isEmpty, name)
      }
    }
  }

  /// Each bad file gives the error a whole read gives, and leaves the store as it was.
  func testErrorsAreTheWholeReadsErrors() throws {
    let place = #"{"id": "a", "latitude": 1, "longitude": 2}"#
    let badPlace = #"{"id": "b", "latitude": 91, "longitude": 2}"#
    let badTrack = #"{"segments": [[{"latitude": 1}]]}"#
    let files: [(String, String)] = [
      (#"{"locations": [\#(place), \#(badPlace)]}"#, "p.json"),
      (#"{"locations": [\#(place), {"id": "c", "latitude": 3, "longitude": 4}, \#(place)]}"#, "p.json"),
      (#"{"tracks": [\#(badTrack)], "locations": [\#(place), \#(badPlace)]}"#, "p.json"),
      (#"{"tracks": [\#(badTrack)], "locations": [\#(place)]}"#, "p.json"),
      (#"{"tracks": 5, "locations": [\#(badPlace)]}"#, "p.json"),
      (#"{"tracks": {}, "locations": [\#(place)]}"#, "p.json"),
      (#"{"locations": [\#(place)], "user": {"latitude": 1}}"#, "p.json"),
      (#"{"locations": null}"#, "p.json"),
      (#"{"locations": [\#(place), 5]}"#, "p.json"),
      (#"{"locations": [\#(place),]}"#, "p.json"),
      (#"{"type": "FeatureCollection", "features": [{"type": "Feature", "geometry": 5}]}"#, "p.geojson"),
      (#"{"type": "FeatureCollection", "features": {}}"#, "p.geojson"),
      (#"{"type": "FeatureCollection"}"#, "p.geojson"),
      (
        #"{"type": "FeatureCollection", "features": [{"type": "Feature", "id": "x", "geometry": {"type": "Point", "coordinates": [1, 2]}}, {"type": "Feature", "id": "x", "geometry": {"type": "Point", "coordinates": [1, 3]}}]}"#,
        "p.geojson"
      ),
      (
        #"{"type": "FeatureCollection", "features": [{"type": "Feature", "geometry": {"type": "LineString", "coordinates": [[1]]}}]}"#,
        "p.geojson"
      ),
      (#"{"type": "Topology", "objects": [1, 2]}"#, "p.json"),
    ]
    for (text, name) in files {
      var wholeError: LocationsFileError?
      do {
        _ = try LocationsFile.read(data: Data(text.utf8), name: name)
      } catch {
        wholeError = error
      }
      let wanted = try XCTUnwrap(wholeError, text).description
      let scratch = try seeded()
      let before = try contents(scratch.store)
      do {
        let opened = try JSONImportRecords.open(
          MappedInput(bytes: Array(text.utf8)), name: name, format: nil)
        let source = try XCTUnwrap(opened, text)
        _ = try scratch.store.importJSON(source)
        XCTFail("no error: \(text)")
      } catch let error as LocationsFileError {
        XCTAssertEqual(error.description, wanted, text)
      } catch let error as StreamedImportError {
        XCTAssertEqual(error.description, wanted, text)
      }
      XCTAssertEqual(try contents(scratch.store), before, text)
    }
  }

  func testCtrlCStopsTheImportAndImportsNothing() throws {
    let places = (0..<2_500).map { #"{"latitude": \#(Double($0) / 100), "longitude": 1}"# }
    let source = try records(#"{"locations": [\#(places.joined(separator: ","))]}"#)
    let scratch = try seeded()
    var asked = 0
    XCTAssertThrowsError(
      try scratch.store.importJSON(
        source,
        isStopped: {
          asked += 1
          return asked == 2
        })
    ) { error in
      XCTAssertEqual(
        (error as? StreamedImportError)?.description, "stopped after 2000 places; nothing was imported")
    }
    XCTAssertEqual(try scratch.store.count(), 2)

    // A file of lines alone (no place to count) stops too.
    let line = #"{"type": "Feature", "geometry": {"type": "LineString", "coordinates": [[1, 2], [3, 4]]}}"#
    let lines = try records(
      #"{"type": "FeatureCollection", "features": [\#(Array(repeating: line, count: 2_500).joined(separator: ","))]}"#,
      name: "l.geojson")
    XCTAssertThrowsError(try scratch.store.importJSON(lines, isStopped: { true })) { error in
      XCTAssertEqual(
        (error as? StreamedImportError)?.description, "stopped after 0 places; nothing was imported")
    }
    XCTAssertEqual(try scratch.store.tracks().count, 0)
  }

  /// A file on disk is mapped, not read; its places come one at a time from the mapping.
  func testAMappedFileImportsEveryPlace() throws {
    let folder = try TemporaryDirectory(prefix: "mymap-json-import")
    let places = (0..<20_000).map {
      #"{"id": "p\#($0)", "latitude": \#(Double($0 % 1_000) / 100), "longitude": \#(Double($0) / 1_000)}"#
    }
    let file = try folder.write(
      "\u{FEFF}\n" + #"{"locations": [\#(places.joined(separator: ",\n"))]}"#, to: "many.json")
    guard case .jsonRecords(let source) = try LocationsFile.openForImport(path: file.path) else {
      return XCTFail("read as it is imported")
    }
    let scratch = try ScratchStore()
    let result = try scratch.store.importJSON(source)
    XCTAssertEqual(result.summary, ImportSummary(added: 20_000, duplicates: 0))
    XCTAssertEqual(try scratch.store.count(), 20_000)
    XCTAssertEqual(try scratch.store.location(id: "p19999")?.longitude, 19.999)
  }

  /// A GPX file on disk is mapped, not read (so it may be larger than the file limit), and its pages
  /// are handed back as the waypoints are read; a Latin-1 file is converted and read the same way.
  func testAMappedGPXFileHandsBackItsPagesAsItIsRead() throws {
    let folder = try TemporaryDirectory(prefix: "mymap-gpx-mapped")
    let filler = String(repeating: "x", count: 2_200)
    let waypoints = (0..<3_000).map {
      #"<wpt lat="\#(Double($0 % 1_000) / 100)" lon="\#(Double($0) / 1_000)"><name>p\#($0)</name>"#
        + "<desc>\(filler)</desc></wpt>"
    }
    let text =
      "\u{FEFF}\n<?xml version=\"1.0\"?>\n<gpx version=\"1.1\" xmlns=\"http://www.topografix.com/GPX/1/1\">\n"
      + waypoints.joined(separator: "\n") + "\n</gpx>\n"
    XCTAssertGreaterThan(text.utf8.count, 6 << 20)
    let file = try folder.write(text, to: "many.gpx")
    guard case .gpxRecords(let source) = try LocationsFile.openForImport(path: file.path) else {
      return XCTFail("read as it is imported")
    }
    XCTAssertTrue(source.input.isMapped)
    let scratch = try ScratchStore()
    let result = try scratch.store.importGPX(source)
    XCTAssertEqual(result.summary, ImportSummary(added: 3_000, duplicates: 0))
    let last = try XCTUnwrap(try scratch.store.locations().first { $0.locationDescription == "p2999" })
    XCTAssertEqual(last.longitude, 2.999)
    // The NUL check hands back the whole file, the reading all but its last few mebibytes.
    XCTAssertGreaterThan(source.input.bytesHandedBack, text.utf8.count + 1 << 20)

    // Offsets come in order and stay in the file.
    let bytes = Array(text.utf8)
    var offsets: [Int] = []
    let set = try bytes.withUnsafeBufferPointer { buffer in
      try GPX.decode(buffer, from: 4, file: "many.gpx", places: nil, release: { offsets.append($0) })
    }
    XCTAssertEqual(set.locations.count, 3_000)
    let reading = Array(offsets.drop { $0 != 0 }.dropFirst())
    XCTAssertGreaterThan(reading.count, 5)
    XCTAssertEqual(reading, reading.sorted())
    XCTAssertLessThanOrEqual(reading.last ?? .max, bytes.count)

    let latin1 = try folder.write(
      Data(#"<?xml version="1.0" encoding="ISO-8859-1"?><gpx><wpt lat="1" lon="2"><name>Caf"#.utf8)
        + Data([0xE9]) + Data("</name></wpt></gpx>".utf8),
      to: "latin1.gpx")
    guard case .gpxRecords(let latin1Source) = try LocationsFile.openForImport(path: latin1.path) else {
      return XCTFail("read as it is imported")
    }
    let other = try ScratchStore()
    _ = try other.store.importGPX(latin1Source)
    XCTAssertEqual(try other.store.locations().map(\.locationDescription), ["Café"])
  }

  /// A file replaced between the look at its start and the mapping is read as it is then: where its XML
  /// starts is found again.
  func testAGPXFileReplacedAfterItsFormatWasToldIsReadAsItIsThen() throws {
    let folder = try TemporaryDirectory(prefix: "mymap-gpx-replaced")
    let padded = String(repeating: "\n", count: 100_000) + "<gpx><wpt lat=\"1\" lon=\"2\"/></gpx>"
    let file = try folder.write(padded, to: "race.gpx")
    guard case .gpxRecords(let source) = try LocationsFile.openForImport(path: file.path) else {
      return XCTFail("read as it is imported")
    }
    // The same path, new content mapped: a short file whose XML starts at once.
    let replaced = try folder.write("<gpx><wpt lat=\"3\" lon=\"4\"/></gpx>", to: "race.gpx")
    let mapped = GPXImportRecords(
      file: replaced.path, input: try MappedInput(path: replaced.path, streamLimit: 16))
    XCTAssertEqual(source.file, mapped.file)
    let scratch = try ScratchStore()
    XCTAssertEqual(try scratch.store.importGPX(mapped).summary, ImportSummary(added: 1, duplicates: 0))
    XCTAssertEqual(try scratch.store.locations().map(\.latitude), [3])
  }

  /// One text longer than the reader holds is an error with its line, whether in one piece or in many
  /// pieces of a field; it is not kept whole.
  func testAnEndlessTextIsRefused() throws {
    let long = String(repeating: "a", count: XMLReader.maximumValueBytes + 1)
    let pieces = Array(repeating: String(repeating: "b", count: 1 << 20) + "<!-- -->", count: 17).joined()
    for (name, body) in [("one piece", long), ("pieces", pieces)] {
      let text = "<gpx>\n<wpt lat=\"1\" lon=\"2\"><name>\(body)</name></wpt></gpx>"
      XCTAssertThrowsError(try LocationsFile.read(data: Data(text.utf8), name: "long.gpx"), name) { error in
        XCTAssertEqual(
          (error as? LocationsFileError)?.description,
          "long.gpx:2: malformed XML: a name, text or attribute value longer than 16 MiB, the most mymap"
            + " reads", name)
      }
    }
  }

  /// Pages handed back are read again from the file, pass after pass; a FIFO is read whole, up to its limit.
  func testAMappedInputReadsAgainAfterItsPagesWereHandedBack() throws {
    let folder = try TemporaryDirectory(prefix: "mymap-mapped-input")
    let bytes = (0..<(12 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 7919 >> 3) }
    let file = folder.url("big.bin")
    try Data(bytes).write(to: file)
    let input = try MappedInput(path: file.path, streamLimit: 16)
    XCTAssertEqual(input.count, bytes.count)
    for _ in 0..<2 {
      for offset in stride(from: 0, to: bytes.count, by: 1 << 20) {
        input.release(below: offset)
        let piece = input.withBytes { Array($0[offset..<offset + 1_000]) }
        XCTAssertEqual(piece, Array(bytes[offset..<offset + 1_000]), "\(offset)")
      }
    }
    XCTAssertEqual(input.withBytes { Array($0) }, bytes)

    let fifo = folder.url("fifo").path
    XCTAssertEqual(mkfifo(fifo, 0o600), 0)
    let writer = Thread {
      let handle = FileHandle(forWritingAtPath: fifo)
      handle?.write(Data("{\"locations\": []}".utf8))
      try? handle?.close()
    }
    writer.start()
    // A file that says it is empty but is not (/proc) is read through, not mapped as empty.
    let status = try MappedInput(path: "/proc/self/status", streamLimit: 1 << 20)
    XCTAssertTrue(status.withBytes { String(decoding: $0, as: UTF8.self) }.hasPrefix("Name:"))
    let piped = try MappedInput(path: fifo, streamLimit: 100)
    XCTAssertEqual(piped.withBytes { String(decoding: $0, as: UTF8.self) }, "{\"locations\": []}")
  }
}
