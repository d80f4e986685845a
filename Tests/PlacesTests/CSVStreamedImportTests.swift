import FileSystem
import Foundation
import TestSupport
import XCTest

@testable import Places

/// Bytes handed over `size` at a time, as a file read in small pieces would give them.
private struct SplitInput: BytePieces {
  let bytes: [UInt8]
  let size: Int
  var offset = 0

  mutating func next() -> [UInt8]? {
    guard offset < bytes.count else { return nil }
    let end = min(offset + size, bytes.count)
    defer { offset = end }
    return Array(bytes[offset..<end])
  }
}

/// CSV read a piece at a time (`CSVPlaceRows`) and imported as it is read (`LocationStore.importCSV`).
final class CSVStreamedImportTests: XCTestCase {
  private func rows(_ text: String, pieceSize: Int) throws(LocationsFileError) -> [String] {
    var reader = CSVPlaceRows(file: "p.csv", pieces: SplitInput(bytes: Array(text.utf8), size: pieceSize))
    var result: [String] = []
    while let row = try reader.next() {
      let place = row.record.location
      result.append(
        "\(row.line) \(place.id) \(place.latitude) \(place.longitude) [\(place.locationDescription)]"
          + " \(place.category) \(row.warnings)")
    }
    result.append(reader.ignoredColumnsWarning() ?? "-")
    return result
  }

  private func error(_ text: String, pieceSize: Int) -> LocationsFileError? {
    do {
      _ = try rows(text, pieceSize: pieceSize)
      return nil
    } catch {
      return error
    }
  }

  func testEveryPieceSizeGivesTheRowsOfTheWholeFile() throws {
    let text =
      "\u{FEFF}latitude,longitude,description,category,,notes\r\n"
      + "1.5,2.5,\"Café, \"\"Zum\"\" Löwen\",Bar,,\r\n"
      + ",,,\n"
      + "3,4,\"two\nlines\",Park,x,\r"
      + "5,6,東京タワー,Landmark,,note\r"
      + "7,8,last,Unknown Kind"
    let whole = try rows(text, pieceSize: text.utf8.count)
    XCTAssertEqual(whole.count, 5)
    XCTAssertEqual(whole[1].prefix(4), "4 lo")
    XCTAssertTrue(whole[1].hasSuffix("[two\nlines] Park []"), whole[1])
    XCTAssertTrue(whole[3].contains("Unknown Kind"))
    XCTAssertEqual(
      whole[4], "line 1: ignored columns that mymap does not read: \"notes\", column 5 (no name)")
    for size in 1...12 {
      XCTAssertEqual(try rows(text, pieceSize: size), whole, "pieces of \(size) bytes")
    }
  }

  func testErrorsNameTheSameLineWhateverThePieces() {
    let unclosed = "lat,lon,description\n1,2,ok\n3,4,\"never closed\n5,6,x\n"
    let notUTF8 = "lat,lon,description\n1,2,ok\n3,4,caf\u{E9}\n"
    var latin1 = Array(notUTF8.utf8)
    latin1.replaceSubrange(latin1.count - 3..<latin1.count - 1, with: [0xE9])
    let latin1Text = String(decoding: latin1, as: Unicode.ASCII.self)
    for size in [1, 2, 5, 1000] {
      XCTAssertEqual(
        error(unclosed, pieceSize: size),
        .invalidLine(
          file: "p.csv", line: 3,
          message: "a quoted field starts on this line but its closing quote is missing"),
        "pieces of \(size)")
      var reader = CSVPlaceRows(file: "p.csv", pieces: SplitInput(bytes: latin1, size: size))
      XCTAssertThrowsError(try { () throws(LocationsFileError) in while try reader.next() != nil {} }()) {
        XCTAssertEqual(
          $0 as? LocationsFileError,
          .invalidLine(
            file: "p.csv", line: 3, message: "the text is not UTF-8 (save the file as \"CSV UTF-8\")"),
          "pieces of \(size) of \(latin1Text.count) characters")
      }
    }
  }

  /// Rows, or the error, of `bytes` read in pieces of `size` (with `size` nil: one piece).
  private func outcome(_ bytes: [UInt8], pieceSize size: Int?) -> String {
    var reader = CSVPlaceRows(file: "p.csv", pieces: SplitInput(bytes: bytes, size: size ?? bytes.count + 1))
    var lines: [String] = []
    do {
      while let row = try reader.next() {
        let place = row.record.location
        lines.append(
          "\(row.line) \(place.id) \(place.latitude) \(place.longitude) [\(place.locationDescription)]"
            + " \(place.category) \(place.placemark?.locality ?? "-") \(row.warnings)")
      }
      lines.append(reader.ignoredColumnsWarning() ?? "-")
    } catch {
      lines.append("error: \(error)")
    }
    return lines.joined(separator: "\n")
  }

  func testRandomFilesReadTheSameInAnyPieces() {
    var random = SeededGenerator(seed: 7)
    let fields = [
      "1", "-2.5", "48.8584", "91", "x", "", " ", "\"a,b\"", "\"say \"\"hi\"\"\"", "\"two\nlines\"",
      "\"cr\rlf\r\n\"",
      "Café", "東京", "🗺️", "\"unclosed", "Bar", "Park", "2026-01-01", "\"q\" x", "é\u{301}",
    ]
    let ends = ["\n", "\r\n", "\r", "\n\n", ",\n"]
    var compared = 0
    for document in 0..<400 {
      var text = random.next() % 4 == 0 ? "\u{FEFF}" : ""
      text +=
        ["lat,lon,description,category,locality", "latitude,longitude,,note", "lon;lat"][
          Int(random.next() % 3)]
      for _ in 0..<Int(random.next() % 6) {
        text += ends[Int(random.next() % UInt64(ends.count))]
        let count = Int(random.next() % 6)
        text += (0..<count).map { _ in fields[Int(random.next() % UInt64(fields.count))] }.joined(
          separator: ",")
      }
      var bytes = Array(text.utf8)
      // Now and then a byte that is not UTF-8, or a file cut inside a character.
      if document % 9 == 0, !bytes.isEmpty { bytes[Int(random.next() % UInt64(bytes.count))] = 0xFF }
      if document % 13 == 0, bytes.count > 2 { bytes.removeLast() }
      let whole = outcome(bytes, pieceSize: nil)
      for size in [1, 2, 3, 5, 8, 64] {
        XCTAssertEqual(
          outcome(bytes, pieceSize: size), whole, "document \(document), pieces of \(size):\n\(text)")
        compared += 1
      }
    }
    XCTAssertEqual(compared, 2_400)
  }

  // MARK: Importing as it reads

  private func importRows(_ text: String, pieceSize: Int = 7) -> CSVImportRows {
    CSVImportRows(
      file: "p.csv",
      rows: CSVPlaceRows(file: "p.csv", pieces: SplitInput(bytes: Array(text.utf8), size: pieceSize)))
  }

  private func contents(_ store: LocationStore) throws -> [String] {
    try store.locations().map { "\($0.id) \($0.locationDescription)" }.sorted()
  }

  /// A file that takes every path: given ids, derived ids, the same place twice, an id given for a place
  /// that an earlier row's derived id took, a derived id a given one took first, places the store has.
  private func trickyFile() -> String {
    let derivedB = Location.derivedID(
      latitude: 10, longitude: 20, locationDescription: "B", date: nil)
    let derivedE = Location.derivedID(
      latitude: 30, longitude: 40, locationDescription: "E", date: nil)
    return """
      id,latitude,longitude,description
      p1,1,1,A
      ,10,20,B
      ,10,20,B
      \(derivedB),11,21,D
      \(derivedE),12,22,F
      ,30,40,E
      ,48.8584,2.2945,Tower
      s9,5,5,H
      p2,6,6,I

      """
  }

  private func seeded() throws -> ScratchStore {
    let scratch = try ScratchStore()
    try scratch.store.add(storePlace("s1", "Tower", day: nil))
    try scratch.store.add(storePlace("s9", "Already"))
    return scratch
  }

  func testTheStreamedImportAddsWhatTheWholeFileImportAdds() throws {
    for threshold in [50_000, 2] {
      let whole = try seeded()
      whole.store.bulkImportThreshold = threshold
      let set = try LocationsFile.read(data: Data(trickyFile().utf8), name: "p.csv")
      let expected = try whole.store.importSet(set, dryRun: false)
      XCTAssertEqual(expected, ImportSummary(added: 6, duplicates: 3))

      let streamed = try seeded()
      streamed.store.bulkImportThreshold = threshold
      let result = try streamed.store.importCSV(importRows(trickyFile()))
      XCTAssertEqual(result.summary, expected, "threshold \(threshold)")
      XCTAssertEqual(result.places, 9)
      XCTAssertEqual(result.warnings, [])
      XCTAssertEqual(try contents(streamed.store), try contents(whole.store), "threshold \(threshold)")
      let derivedB = Location.derivedID(latitude: 10, longitude: 20, locationDescription: "B", date: nil)
      XCTAssertTrue(try contents(streamed.store).contains("\(derivedB)-2 B"))
      XCTAssertTrue(try contents(streamed.store).contains("\(derivedB) D"))
    }
  }

  func testABulkImportFindsTheSamePlaceWithoutItsContentIndex() throws {
    // From the second row on the import is bulk (the store is empty): the content index is away.
    let text = """
      id,lat,lon,description
      ,1,1,A
      ,2,2,B
      ,1,1,A
      p1,3,3,C
      ,3,3,C
      ,4,4,D
      ,2,2,B

      """
    let whole = try ScratchStore()
    whole.store.bulkImportThreshold = 2
    let expected = try whole.store.importSet(
      LocationsFile.read(data: Data(text.utf8), name: "p.csv"), dryRun: false)
    XCTAssertEqual(expected, ImportSummary(added: 4, duplicates: 3))
    for pieceSize in [3, 1_000] {
      let streamed = try ScratchStore()
      streamed.store.bulkImportThreshold = 2
      XCTAssertEqual(try streamed.store.importCSV(importRows(text, pieceSize: pieceSize)).summary, expected)
      XCTAssertEqual(try contents(streamed.store), try contents(whole.store))
    }
  }

  func testABulkImportMakesTheContentIndexAgainForALaterRowWithoutAnId() throws {
    let scratch = try seeded()
    scratch.store.bulkImportThreshold = 2
    let text =
      "id,lat,lon,description\nq1,1,1,a\nq2,2,2,b\nq3,3,3,c\nq4,4,4,d\nq5,5,5,e\n,48.8584,2.2945,Tower\n"
    let result = try scratch.store.importCSV(importRows(text))
    XCTAssertEqual(result.summary, ImportSummary(added: 5, duplicates: 1))
    let indexes = try scratch.store.withDatabase { database in
      try database.rows(
        "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'location' ORDER BY name"
      )
      .compactMap { $0.first?.text }
    }
    XCTAssertEqual(
      indexes, ["location_category_date", "location_content", "location_date", "sqlite_autoindex_location_1"])
  }

  func testAnIdGivenTwiceIsAnErrorAndNothingIsImported() throws {
    let scratch = try seeded()
    let before = try contents(scratch.store)
    let text = "id,latitude,longitude\np1,1,1\np2,2,2\n,3,3\np1,4,4\n"
    XCTAssertThrowsError(try scratch.store.importCSV(importRows(text))) {
      XCTAssertEqual(
        ($0 as? StreamedImportError)?.description, #"p.csv:5: duplicate id "p1" (line 2 has it too)"#)
    }
    XCTAssertEqual(try contents(scratch.store), before)
    // The whole-file reader says the same.
    XCTAssertThrowsError(try LocationsFile.read(data: Data(text.utf8), name: "p.csv")) {
      XCTAssertEqual(
        ($0 as? LocationsFileError)?.description, #"p.csv:5: duplicate id "p1" (line 2 has it too)"#)
    }
  }

  func testAStoreErrorHalfwayLeavesTheStoreAsItWas() throws {
    let scratch = try seeded()
    let before = try contents(scratch.store)
    let text = "id,latitude,longitude\nn1,1,1\nn2,95,1\n"
    XCTAssertThrowsError(try scratch.store.importCSV(importRows(text))) {
      XCTAssertEqual(
        ($0 as? StreamedImportError)?.description,
        "p.csv:3: latitude 95 is outside -90…90")
    }
    XCTAssertEqual(try contents(scratch.store), before)
  }

  func testWarningsStopAtTheLimitAndCountTheRest() throws {
    let scratch = try ScratchStore()
    let rows = (0..<1_005).map { "\($0 % 80),1,place \($0),Unknown Kind \($0)" }
    let text = "lat,lon,description,category\n" + rows.joined(separator: "\n")
    let result = try scratch.store.importCSV(importRows(text, pieceSize: 4_096))
    XCTAssertEqual(result.summary.added, 1_005)
    XCTAssertEqual(result.warnings.count, InputLimits.maximumWarnings + 1)
    XCTAssertTrue(result.warnings[0].hasPrefix("line 2: "), result.warnings[0])
    XCTAssertEqual(result.warnings.last, "… and 5 more warnings")
  }

  /// Rows are read a few batches ahead on another thread (`ReadAheadRows`): far more rows than wait at
  /// once still come in order, with their warnings, the ignored columns' warning at the end, and an error
  /// deep in the file stops the import with nothing imported.
  func testRowsReadAheadComeInOrderAndTheFirstErrorStops() throws {
    let count = ReadAheadRows.batchRows * (ReadAheadRows.batchesAhead + 3) + 17
    let rows = (0..<count).map { "\($0 % 80),\($0 % 170),place \($0),x\($0)" }
    let text = "lat,lon,description,note\n" + rows.joined(separator: "\n")
    let scratch = try ScratchStore()
    var seen: [String] = []
    let result = try scratch.store.importCSV(importRows(text, pieceSize: 4_096)) {
      seen.append($0.locationDescription)
    }
    XCTAssertEqual(result.summary.added, count)
    XCTAssertEqual(seen, (0..<count).map { "place \($0)" })
    XCTAssertEqual(result.warnings.count, 1)
    XCTAssertTrue(result.warnings[0].contains("note"), result.warnings[0])

    var broken = rows
    broken[count - 40] = "95,1,too far north,x"
    let before = try contents(scratch.store)
    XCTAssertThrowsError(
      try scratch.store.importCSV(
        importRows("lat,lon,description,note\n" + broken.joined(separator: "\n"), pieceSize: 4_096))
    ) {
      XCTAssertEqual(
        ($0 as? StreamedImportError)?.description, "p.csv:\(count - 38): latitude 95 is outside -90…90")
    }
    XCTAssertEqual(try contents(scratch.store), before)
  }

  func testAnImportStoppedEarlyLeavesTheReaderBehind() throws {
    let rows = (0..<20_000).map { "\($0 % 80),\($0 % 170),place \($0)" }
    let scratch = try ScratchStore()
    var asked = 0
    XCTAssertThrowsError(
      try scratch.store.importCSV(
        importRows("lat,lon,description\n" + rows.joined(separator: "\n"), pieceSize: 4_096),
        isStopped: {
          asked += 1
          return asked == 2
        })
    ) {
      XCTAssertEqual(
        ($0 as? StreamedImportError)?.description, "stopped after 2000 places; nothing was imported")
    }
    XCTAssertEqual(try contents(scratch.store), [])
  }

  // MARK: Opening a file for an import

  func testOpenForImportStreamsCSVJSONAndGPXAndReadsASingleFeatureWhole() throws {
    let folder = try TemporaryDirectory(prefix: "mymap-open-import")
    let csv = try folder.write("\u{FEFF}  \nlat,lon,description\n1,2,a\n3,4,b\n", to: "p.txt")
    guard case .csvRows(let rows) = try LocationsFile.openForImport(path: csv.path) else {
      return XCTFail("CSV, told from its header, is read as it is imported")
    }
    XCTAssertEqual(rows.file, csv.path)
    let scratch = try ScratchStore()
    let done = try scratch.store.importCSV(rows)
    XCTAssertEqual(done.summary, ImportSummary(added: 2, duplicates: 0))
    XCTAssertEqual(try scratch.store.locations().map(\.locationDescription).sorted(), ["a", "b"])

    let json = try folder.write(#"{"locations": [{"id": "x", "latitude": 1, "longitude": 2}]}"#, to: "p.json")
    guard case .jsonRecords(let records) = try LocationsFile.openForImport(path: json.path) else {
      return XCTFail("mymap JSON is read as it is imported")
    }
    XCTAssertEqual(records.file, json.path)
    let feature = try folder.write(
      #"{"type": "Feature", "geometry": {"type": "Point", "coordinates": [2, 1]}}"#, to: "f.geojson")
    guard case .whole(let set) = try LocationsFile.openForImport(path: feature.path) else {
      return XCTFail("a single GeoJSON Feature is read whole")
    }
    XCTAssertEqual(set.locations.map(\.latitude), [1])
    let gpx = try folder.write(#"<gpx><wpt lat="1" lon="2"/></gpx>"#, to: "p.gpx")
    guard case .gpxRecords(let waypoints) = try LocationsFile.openForImport(path: gpx.path) else {
      return XCTFail("GPX is read as it is imported")
    }
    XCTAssertEqual(waypoints.file, gpx.path)
    // --format csv on a file that is not: the CSV reader's own error, from the stream.
    guard case .csvRows(let forced) = try LocationsFile.openForImport(path: json.path, format: .csv) else {
      return XCTFail("--format csv streams")
    }
    XCTAssertThrowsError(try ScratchStore().store.importCSV(forced)) {
      XCTAssertTrue(
        ($0 as? StreamedImportError)?.description.hasPrefix("\(json.path):1: the first line must be a header")
          == true,
        "\($0)")
    }

    let empty = try folder.write("  \n", to: "empty.csv")
    XCTAssertThrowsError(try LocationsFile.openForImport(path: empty.path)) {
      XCTAssertEqual($0 as? LocationsFileError, .emptyFile(file: empty.path))
    }
    XCTAssertThrowsError(try LocationsFile.openForImport(path: folder.url("missing.csv").path)) {
      XCTAssertEqual($0 as? LocationsFileError, .fileNotFound(file: folder.url("missing.csv").path))
    }
    XCTAssertThrowsError(try LocationsFile.openForImport(path: folder.url("").path)) {
      XCTAssertEqual(
        $0 as? LocationsFileError, .unreadable(file: folder.url("").path, reason: "it is a directory"))
    }
  }

  func testInputPiecesReadAFileInPiecesUnderItsLimit() throws {
    let folder = try TemporaryDirectory(prefix: "mymap-input-pieces")
    let file = try folder.write("0123456789", to: "ten")
    let input = try InputPieces(path: file.path, limit: 10)
    var pieces: [[UInt8]] = []
    while let piece = try input.next(maximum: 3) { pieces.append(piece) }
    XCTAssertEqual(pieces.map(\.count), [3, 3, 3, 1])
    XCTAssertEqual(String(decoding: pieces.joined(), as: UTF8.self), "0123456789")
    XCTAssertNil(try input.next(maximum: 3), "the end stays the end")
    XCTAssertThrowsError(try InputPieces(path: file.path, limit: 9)) {
      XCTAssertEqual($0 as? InputFileError, .tooLarge(limit: 9))
    }
    XCTAssertThrowsError(try InputPieces(path: folder.url("").path, limit: 10)) {
      XCTAssertEqual($0 as? InputFileError, .notReadable(.folder))
    }
    XCTAssertThrowsError(try InputPieces(path: folder.url("missing").path, limit: 10)) {
      XCTAssertEqual($0 as? InputFileError, .system("No such file or directory"))
    }
  }
}
