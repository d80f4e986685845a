import Foundation
import JSON
import XML

/// GPX 1.0 and 1.1: each waypoint (`wpt`) is a place.
///
/// Reading a waypoint: `lat` and `lon` (required, in range); `name` is the description, or `desc` when there
/// is no name (a `desc` beside a name is not kept: a place has one description); `type` is the category;
/// `time` is the date (ISO 8601). mymap's own extensions (namespace `GPX.mymapNamespace`, inside
/// `<extensions>` or, as GPX 1.0 allows, directly in the `wpt`) give the `id`, the `placemark` (one element
/// per field, named as in mymap JSON) and the `photo`. Without a mymap placemark, a Garmin address
/// (`gpxx:WaypointExtension/gpxx:Address`) becomes the placemark: StreetAddress → thoroughfare, City →
/// locality, State → administrativeArea, PostalCode, Country. Everything else (elevation, symbols, links,
/// other extensions) is ignored. Tracks (`trk`) and routes (`rte`) become `Track`s (`GPXTrackReader`).
/// Errors and warnings name the line of the element (for a start tag written over several lines, the line
/// it ends on). The XML is read by `XMLReader` (UTF-8; ISO-8859-1 when the declaration says so). Entities
/// a DOCTYPE declares are not expanded (a reference to one is an error): only XML's five and character
/// references are read, so no file can make mymap expand or fetch anything.
///
/// Writing: GPX 1.1, UTF-8, `creator="mymap"`, no timestamps but the places' dates; the id, placemark and
/// photo in mymap's extensions, so reading the file back gives the same places. Text is escaped; characters
/// XML 1.0 cannot hold at all (control characters other than tab and line breaks) are left out. The user's
/// position is not written.
enum GPX {
  static let namespace11 = "http://www.topografix.com/GPX/1/1"
  static let namespace10 = "http://www.topografix.com/GPX/1/0"
  /// The namespace of mymap's waypoint extensions.
  static let mymapNamespace = "urn:mymap:gpx:1"
  static let garminNamespace = "http://www.garmin.com/xmlschemas/GpxExtensions/v3"

  /// Reads the XML that starts at byte `start` of `bytes` (after any byte order mark and white space: XML
  /// allows nothing before `<?xml`, but a blank line there is a common slip of programs that write GPX).
  /// Lines before `start` still count in messages.
  static func decode(
    _ bytes: UnsafeBufferPointer<UInt8>, from start: Int, file: String, release: (Int) -> Void = { _ in }
  ) throws(LocationsFileError) -> LocationSet {
    do {
      return try decode(bytes, from: start, file: file, places: nil, release: release)
    } catch let error as LocationsFileError {
      throw error
    } catch {
      throw .invalidDocument(file: file, message: "\(error)")  // Not reached: no handler throws.
    }
  }

  /// `decode`, with each waypoint handed to `places` as it ends (its place, line and warnings), in file
  /// order with every warning about the tracks (`warn`), instead of kept: the result then holds the
  /// tracks and the warnings that come after everything (a whole read's last ones). An error `place`
  /// throws stops the reading and comes out as it is. `release` is told, now and then, the offset in
  /// `bytes` before which nothing is looked at again (a mapped file hands those pages back).
  static func decode(
    _ bytes: UnsafeBufferPointer<UInt8>, from start: Int, file: String, places: PlaceHandlers?,
    release: (Int) -> Void = { _ in }
  ) throws -> LocationSet {
    let start = min(max(start, 0), bytes.count)
    let skippedLines = XMLReader.lineEnds(in: bytes[..<start])
    let content = UnsafeBufferPointer(rebasing: bytes[start...])
    if let (offset, message) = XMLPreflight.problem(in: content, release: { release(start + $0) }) {
      let line = skippedLines + 1 + XMLReader.lineEnds(in: content.prefix(offset))
      throw LocationsFileError.invalidLine(file: file, line: line, message: message)
    }
    // The reading is a new pass through the pages the check handed back.
    release(0)
    let reader = Reader(file: file, lineOffset: skippedLines, handlers: places)
    let latin1 = XMLPreflight.declaredEncoding(content).map {
      XMLPreflight.latin1Encodings.contains($0.lowercased())
    }
    guard latin1 == true else {
      return try read(XMLReader(unsafeBytes: content), into: reader, file: file) { release(start + $0) }
    }
    // A Latin-1 file is converted whole (its pages stay: offsets in the copy are not the file's).
    guard content.count <= InputLimits.maximumFileBytes else {
      throw LocationsFileError.tooLarge(file: file, limit: InputLimits.maximumFileBytes)
    }
    let converted = XMLPreflight.utf8(fromLatin1: content)
    return try converted.withUnsafeBufferPointer { utf8 in
      try read(XMLReader(unsafeBytes: utf8), into: reader, file: file) { _ in }
    }
  }

  /// Feeds `xml`'s events to `reader`, telling `release` how far the XML was read every few mebibytes.
  private static func read(
    _ xml: XMLReader, into reader: Reader, file: String, release: (Int) -> Void
  ) throws -> LocationSet {
    var xml = xml
    var released = 0
    do throws(XMLError) {
      while reader.failure == nil && reader.stopped == nil, let event = try xml.next() {
        switch event {
        case .start(let name, let attributes): reader.start(name, attributes: attributes, line: xml.line)
        case .text(let text): reader.characters(text, line: xml.line)
        case .end: reader.end(line: xml.line)
        }
        if xml.offset - released >= releaseStep {
          released = xml.offset
          release(released)
        }
      }
    } catch {
      reader.fail(
        .malformedXML(file: file, line: error.line + reader.lineOffset, message: error.message))
    }
    if let stopped = reader.stopped { throw stopped }
    if let failure = reader.failure { throw failure }
    guard reader.sawRoot else {
      throw LocationsFileError.unrecognizedContent(
        file: file, expected: LocationsFormat.gpx.expectedContent, found: "XML without any element")
    }
    return reader.finish()
  }

  /// How far the reader goes between two hand-backs of the pages behind it.
  static let releaseStep = 1 << 20

  // MARK: Writing

  /// What a GPX file mymap writes starts with, up to its first waypoint.
  static let documentStart = """
    <?xml version="1.0" encoding="UTF-8"?>
    <gpx version="1.1" creator="mymap" xmlns="\(namespace11)" xmlns:mymap="\(mymapNamespace)" \
    xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" \
    xsi:schemaLocation="\(namespace11) http://www.topografix.com/GPX/1/1/gpx.xsd">

    """

  /// What it ends with, after its last track.
  static let documentEnd = "</gpx>\n"

  /// Appends a place as a `wpt` element (GPX 1.1 puts the waypoints before the routes and tracks).
  static func writeWaypoint(_ location: Location, into output: inout [UInt8]) {
    var text =
      "  <wpt lat=\"\(JSONWriter.numberText(location.latitude))\""
      + " lon=\"\(JSONWriter.numberText(location.longitude))\">\n"
    func element(_ name: String, _ value: String, indent: String) {
      text += "\(indent)<\(name)>\(escaped(value))</\(name)>\n"
    }
    // GPX 1.1 orders a waypoint's elements: time, name, …, type, extensions.
    if let date = location.date { element("time", ISO8601Date.format(date), indent: "    ") }
    if !location.locationDescription.isEmpty {
      element("name", location.locationDescription, indent: "    ")
    }
    if location.category != Category.default.name { element("type", location.category, indent: "    ") }
    text += "    <extensions>\n"
    element("mymap:id", location.id, indent: "      ")
    if let placemark = location.placemark {
      text += "      <mymap:placemark>\n"
      for (name, value) in placemarkFields(placemark) {
        if let value { element("mymap:\(name)", value, indent: "        ") }
      }
      text += "      </mymap:placemark>\n"
    }
    if let photo = location.photoPath { element("mymap:photo", photo, indent: "      ") }
    text += "    </extensions>\n  </wpt>\n"
    output.append(contentsOf: text.utf8)
  }

  static func placemarkFields(_ placemark: Placemark) -> KeyValuePairs<String, String?> {
    [
      "subThoroughfare": placemark.subThoroughfare, "thoroughfare": placemark.thoroughfare,
      "locality": placemark.locality, "administrativeArea": placemark.administrativeArea,
      "postalCode": placemark.postalCode, "country": placemark.country,
    ]
  }

  /// Text as XML character data: `&`, `<`, `>` and `"` escaped, a carriage return as `&#13;` (a parser would
  /// turn a literal one into a line feed), characters XML cannot hold left out.
  static func escaped(_ text: String) -> String {
    var output = ""
    output.reserveCapacity(text.utf8.count)
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": output += "&amp;"
      case "<": output += "&lt;"
      case ">": output += "&gt;"
      case "\"": output += "&quot;"
      case "\r": output += "&#13;"
      case "\t", "\n": output.unicodeScalars.append(scalar)
      case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF: continue
      default: output.unicodeScalars.append(scalar)
      }
    }
    return output
  }

  // MARK: Reading

  /// A waypoint being read.
  private struct Waypoint {
    var line: Int
    var latitude: Double
    var longitude: Double
    var name: String?
    var desc: String?
    var type: String?
    var date: Date?
    var id: String?
    var photo: String?
    /// From mymap's extension; present even when empty, as it was written.
    var placemark: Placemark?
    /// From a Garmin address; used only without a mymap placemark.
    var garminAddress = Placemark()
    var warnings: [String] = []

    /// The place, and every warning about it.
    func record() -> (read: ReadRecord, warnings: [String]) {
      // The category's warning first, as in the other formats.
      var warnings: [String] = []
      let category = categoryName(type ?? "", warnings: &warnings)
      let description = (name ?? "").isEmpty ? (desc ?? "") : name!
      let location = Location(
        id: id, latitude: latitude, longitude: longitude, locationDescription: description,
        category: category, date: date,
        placemark: placemark ?? (garminAddress.isEmpty ? nil : garminAddress), photoPath: photo)
      return (ReadRecord(location: location, hasOwnID: id != nil), warnings + self.warnings)
    }
  }

  /// Where a streamed read hands each place (with its line and warnings) and each warning about a track.
  struct PlaceHandlers {
    var place: (ReadRecord, _ line: Int, _ warnings: [String]) throws -> Void
    var warn: (String) -> Void
  }

  /// The elements of a waypoint whose text is read.
  private enum Field {
    case name
    case desc
    case type
    case time
    case id
    case photo
    case placemark(WritableKeyPath<Placemark, String?>)
    case garmin(WritableKeyPath<Placemark, String?>)
  }

  /// Collects waypoints from the XML reader's events. Used on one thread, by one `decode` call.
  private final class Reader {
    let file: String
    private(set) var failure: LocationsFileError?
    private(set) var sawRoot = false
    private var collector = RecordCollector()
    /// Open elements: namespace and local name.
    private var stack: [(namespace: String, name: String)] = []
    private var rootNamespace = ""
    private var trackReader = GPXTrackReader()
    private var waypoint: Waypoint?
    /// The element whose text is being read, its depth (`stack.count` inside it) and line.
    private var field: (kind: Field, depth: Int, line: Int)?
    private var text = ""

    /// Lines skipped before the XML, added to the reader's line numbers.
    let lineOffset: Int
    /// Set: waypoints and track warnings go there as they come.
    let handlers: PlaceHandlers?
    /// The error a handler threw: reading stops there.
    private(set) var stopped: (any Error)?

    init(file: String, lineOffset: Int, handlers: PlaceHandlers?) {
      self.file = file
      self.lineOffset = lineOffset
      self.handlers = handlers
    }

    func finish() -> LocationSet { collector.finish() }

    /// Keeps the first error: reading stops there.
    func fail(_ error: LocationsFileError) {
      if failure == nil { failure = error }
    }

    /// A warning about a track, in file order.
    private func warn(_ warning: String) {
      if let handlers { handlers.warn(warning) } else { collector.warn(warning) }
    }

    private func isGPX(_ namespace: String) -> Bool {
      namespace.isEmpty || namespace == rootNamespace || namespace == GPX.namespace11
        || namespace == GPX.namespace10
    }

    /// An element starts; `xmlLine` is the reader's line at the end of its start tag.
    func start(_ element: XMLReader.Name, attributes attributeDict: XMLReader.Attributes, line xmlLine: Int) {
      guard failure == nil else { return }
      let (namespace, elementName, line) = (element.namespace, element.localName, xmlLine + lineOffset)
      defer { stack.append((namespace, elementName)) }
      switch stack.count {
      case 0:
        sawRoot = true
        rootNamespace = namespace
        guard elementName == "gpx" else {
          if elementName == "kml" { return fail(.unsupportedFormat(file: file, format: "KML")) }
          return fail(
            .unrecognizedContent(
              file: file, expected: LocationsFormat.gpx.expectedContent,
              found: "XML whose root element is <\(element.qualifiedName)>"))
        }
      case 1 where isGPX(namespace):
        switch elementName {
        case "wpt": startWaypoint(attributeDict, line: line)
        case "trk": trackReader.begin(.track, line: line)
        case "rte": trackReader.begin(.route, line: line)
        default: break
        }
      default:
        if trackReader.isReading {
          do throws(RecordProblem) {
            try trackReader.start(
              elementName, ours: isGPX(namespace), mymap: namespace == GPX.mymapNamespace,
              depth: stack.count, attributes: attributeDict, collector: collector.tracks)
          } catch {
            fail(.invalidLine(file: file, line: line, message: error.message))
          }
          return
        }
        guard waypoint != nil, field == nil else { return }
        if namespace == GPX.mymapNamespace && elementName == "placemark" && waypoint?.placemark == nil {
          // Present even when it holds no field, as it was written.
          waypoint?.placemark = Placemark()
        }
        guard let kind = fieldKind(namespace, elementName) else { return }
        field = (kind, stack.count + 1, line)
        text = ""
      }
    }

    /// Which field an element inside a waypoint is, from its namespace, name and parent.
    private func fieldKind(_ namespace: String, _ name: String) -> Field? {
      let parent = stack.last!
      if stack.count == 2 && isGPX(namespace) {
        switch name {
        case "name": return .name
        case "desc": return .desc
        case "type": return .type
        case "time": return .time
        default: return nil
        }
      }
      if namespace == GPX.mymapNamespace {
        if parent.namespace == GPX.mymapNamespace && parent.name == "placemark" {
          let fields: [String: WritableKeyPath<Placemark, String?>] = [
            "subThoroughfare": \.subThoroughfare, "thoroughfare": \.thoroughfare, "locality": \.locality,
            "administrativeArea": \.administrativeArea, "postalCode": \.postalCode, "country": \.country,
          ]
          return fields[name].map(Field.placemark)
        }
        switch name {
        case "id": return .id
        case "photo": return .photo
        default: return nil
        }
      }
      if namespace == GPX.garminNamespace && parent.namespace == GPX.garminNamespace
        && parent.name == "Address"
      {
        switch name {
        // The first street line only: a second one is usually a building or flat.
        case "StreetAddress" where waypoint?.garminAddress.thoroughfare == nil: return .garmin(\.thoroughfare)
        case "City": return .garmin(\.locality)
        case "State": return .garmin(\.administrativeArea)
        case "PostalCode": return .garmin(\.postalCode)
        case "Country": return .garmin(\.country)
        default: return nil
        }
      }
      return nil
    }

    private func startWaypoint(_ attributes: XMLReader.Attributes, line wptLine: Int) {
      do throws(RecordProblem) {
        let missing = ["lat", "lon"].filter { attributes[$0] == nil }
        if !missing.isEmpty {
          throw RecordProblem(
            "wpt has no \(missing.joined(separator: " and ")) attribute\(missing.count == 2 ? "s" : "")")
        }
        waypoint = Waypoint(
          line: wptLine, latitude: try degrees(text: attributes["lat"]!, .latitude, field: "wpt lat"),
          longitude: try degrees(text: attributes["lon"]!, .longitude, field: "wpt lon"))
      } catch {
        fail(.invalidLine(file: file, line: wptLine, message: error.message))
      }
    }

    /// Text (or a CDATA section) inside the element that is open; `xmlLine` is the reader's line at its
    /// end. A field's pieces are joined up to the length `XMLReader` allows one piece.
    func characters(_ string: String, line xmlLine: Int) {
      guard field != nil || trackReader.field != nil else { return }
      if max(text.utf8.count, trackReader.text.utf8.count) + string.utf8.count > XMLReader.maximumValueBytes {
        let problem = XMLError(.valueTooLong, line: xmlLine)
        return fail(.malformedXML(file: file, line: xmlLine + lineOffset, message: problem.message))
      }
      if field != nil { text += string }
      if trackReader.field != nil { trackReader.text += string }
    }

    /// The open element ends; `xmlLine` is the reader's line at the end of its end tag.
    func end(line xmlLine: Int) {
      guard failure == nil else { return }
      let line = xmlLine + lineOffset
      if let field, field.depth == stack.count {
        self.field = nil
        do throws(RecordProblem) {
          try store(field.kind, text)
        } catch {
          return fail(.invalidLine(file: file, line: field.line, message: error.message))
        }
      }
      if trackReader.isReading {
        do throws(RecordProblem) {
          if let finished = try trackReader.end(depth: stack.count - 1) {
            try collector.tracks.add(
              finished.track, hasOwnID: finished.hasOwnID, record: "line \(finished.line)")
            for warning in finished.warnings { warn("line \(finished.line): \(warning)") }
          }
        } catch {
          return fail(.invalidLine(file: file, line: line, message: error.message))
        }
      }
      stack.removeLast()
      if stack.count == 1, let waypoint {
        self.waypoint = nil
        let (read, warnings) = waypoint.record()
        if let handlers {
          do {
            try handlers.place(read, waypoint.line, warnings)
          } catch {
            stopped = error
          }
          return
        }
        do throws(RecordProblem) {
          try collector.add(read, record: "line \(waypoint.line)", warnings: warnings)
        } catch {
          fail(.invalidLine(file: file, line: waypoint.line, message: error.message))
        }
      }
    }

    private func store(_ kind: Field, _ text: String) throws(RecordProblem) {
      let trimmed = trimmedSpaces(text, newlines: true)
      switch kind {
      case .name: waypoint?.name = text
      case .desc: waypoint?.desc = text
      case .type: waypoint?.type = trimmed
      case .time:
        guard !trimmed.isEmpty else { return }
        var warnings: [String] = []
        waypoint?.date = try isoDate(trimmed, field: "time", warnings: &warnings)
        waypoint?.warnings += warnings
      case .id: waypoint?.id = trimmed.isEmpty ? nil : trimmed
      case .photo: waypoint?.photo = trimmed.isEmpty ? nil : trimmed
      case .placemark(let path): waypoint?.placemark?[keyPath: path] = text
      case .garmin(let path): waypoint?.garminAddress[keyPath: path] = trimmed.isEmpty ? nil : trimmed
      }
    }
  }
}
