import Foundation
import Places
import XCTest

/// The fixture folder next to this file; read through the file system (the folder is not a resource).
let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

func fixturePath(_ name: String) -> String { fixtures.appendingPathComponent(name).path }

/// Reads `text` as a file called `name`.
func readText(
  _ text: String, name: String = "europe.json", format: LocationsFormat? = nil
) throws(LocationsFileError) -> LocationSet {
  try LocationsFile.read(data: Data(text.utf8), name: name, format: format)
}

/// The one line a user would see for `text`, or a test failure when it reads without error.
func errorLine(
  _ text: String, name: String = "europe.json", format: LocationsFormat? = nil,
  file: StaticString = #filePath, line: UInt = #line
) -> String {
  do {
    let set = try readText(text, name: name, format: format)
    XCTFail("expected an error, read \(set.locations.count) locations", file: file, line: line)
    return ""
  } catch {
    return error.description
  }
}

/// A mymap JSON file with one location whose members are `members` (JSON text).
func oneLocation(_ members: String) -> String {
  "{ \"locations\": [ { \(members) } ] }"
}

/// Midnight UTC plus some seconds, for expected dates.
func utc(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0, _ second: Double = 0)
  -> Date
{
  var calendar = Calendar(identifier: .gregorian)
  calendar.timeZone = TimeZone(identifier: "UTC")!
  let components = DateComponents(year: year, month: month, day: day, hour: hour, minute: minute)
  return calendar.date(from: components)!.addingTimeInterval(second)
}

/// A GPX 1.1 document around `body`.
func gpx(_ body: String, namespaces: String = "") -> String {
  """
  <?xml version="1.0" encoding="UTF-8"?>
  <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1"\(namespaces)>
  \(body)
  </gpx>
  """
}
