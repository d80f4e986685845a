import XCTest

@testable import XML

/// The XML reader: the events a document gives (namespaces resolved, entities and line ends as XML says),
/// and the error and line for each way a document can be broken.
final class XMLReaderTests: XCTestCase {
  private func events(_ text: String) throws -> [XMLReader.Event] {
    var reader = XMLReader(Array(text.utf8))
    var events: [XMLReader.Event] = []
    while let event = try reader.next() { events.append(event) }
    return events
  }

  private func failure(_ text: String) -> XMLError? {
    var reader = XMLReader(Array(text.utf8))
    do throws(XMLError) {
      while try reader.next() != nil {}
      return nil
    } catch {
      return error
    }
  }

  private func name(_ namespace: String, _ local: String, _ qualified: String? = nil) -> XMLReader.Name {
    XMLReader.Name(namespace: namespace, localName: local, qualifiedName: qualified ?? local)
  }

  func testElementsAttributesAndText() throws {
    let gpx = "http://www.topografix.com/GPX/1/1"
    XCTAssertEqual(
      try events(
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!-- a comment -->
        <gpx xmlns="\(gpx)" xmlns:m="urn:m" version="1.1"><wpt lat="1.5" lon='-2'><name>Caf\u{E9}</name>\
        <m:id m:x="y"/></wpt></gpx>
        """),
      [
        .start(name(gpx, "gpx"), attributes: ["version": "1.1"]),
        .start(name(gpx, "wpt"), attributes: ["lat": "1.5", "lon": "-2"]),
        .start(name(gpx, "name"), attributes: [:]), .text("Café"), .end(name(gpx, "name")),
        .start(name("urn:m", "id", "m:id"), attributes: ["m:x": "y"]), .end(name("urn:m", "id", "m:id")),
        .end(name(gpx, "wpt")), .end(name(gpx, "gpx")),
      ])
  }

  func testNamespacesAreScopedToTheirElements() throws {
    let starts = try events(#"<a xmlns="urn:1"><b xmlns="urn:2"><c/></b><d xmlns=""/><e/></a>"#).compactMap {
      if case .start(let name, _) = $0 { return "\(name.localName) \(name.namespace)" }
      return nil
    }
    XCTAssertEqual(starts, ["a urn:1", "b urn:2", "c urn:2", "d ", "e urn:1"])
  }

  func testEntitiesReferencesCDATAAndLineEnds() throws {
    XCTAssertEqual(
      try events(
        "<a t=\"x&amp;y&#65;&#x42;\tz\r\nw\">&lt;&gt;&quot;&apos;&#x1F600;\r\n\r<![CDATA[<&>]]></a>"),
      [
        .start(name("", "a"), attributes: ["t": "x&yAB z w"]), .text("<>\"'😀\n\n"), .text("<&>"),
        .end(name("", "a")),
      ])
  }

  func testWhatIsSkipped() throws {
    XCTAssertEqual(
      try events(
        """
        <?xml version="1.0"?>
        <!DOCTYPE gpx [ <!ENTITY x "a>b"> <!-- ] > --> ]>
        <?pi data?><!-- c --><a><?x?><!-- c --></a><!-- after --> 
        """),
      [.start(name("", "a"), attributes: [:]), .end(name("", "a"))])
  }

  func testLinesCountFromOne() throws {
    // Line feeds, carriage returns (old Mac files) and the two together each end a line, in text, tags,
    // attribute values and comments alike.
    for end in ["\n", "\r", "\r\n"] {
      let text = "<a>\(end)<b\(end)c='1\(end)2'>x\(end)<!--\(end)-->\(end)</b></a>"
      var reader = XMLReader(Array(text.utf8))
      var lines: [Int] = []
      while let event = try reader.next() {
        if case .text = event { continue }
        lines.append(reader.line)
      }
      XCTAssertEqual(lines, [1, 4, 7, 7], "\(Array(end.unicodeScalars))")
    }
    XCTAssertEqual(failure("<a>\r\r<b></a>"), XMLError(.mismatchedClosingTag, line: 3))
  }

  func testADocumentStartingPartWayIntoItsBytes() throws {
    let bytes = Array("\u{FEFF}\n <?xml version='1.0'?><a/>".utf8)
    var reader = XMLReader(bytes, from: 5)
    XCTAssertEqual(try reader.next(), .start(name("", "a"), attributes: [:]))
    XCTAssertEqual(reader.line, 1)
  }

  func testEachBrokenDocumentNamesItsProblemAndLine() {
    let cases: [(String, XMLError.Problem, Int)] = [
      ("hello", .noRootElement, 1),
      ("<a>\n<b>", .endsEarlyOrHasMore, 2),
      ("<a/>\n<b/>", .endsEarlyOrHasMore, 2),
      ("<a/> text", .endsEarlyOrHasMore, 1),
      ("<a>\n</b>", .mismatchedClosingTag, 2),
      ("</a>", .mismatchedClosingTag, 1),
      ("<a>Fish & Chips</a>", .nameExpected, 1),
      ("<a>&amp</a>", .entityWithoutSemicolon, 1),
      ("<a>&nbsp;</a>", .undefinedEntity, 1),
      ("<a>&#0;</a>", .invalidCharacter, 1),
      ("<a>&#xD800;</a>", .invalidCharacter, 1),
      ("<a>&#99999999999;</a>", .invalidCharacter, 1),
      ("<a>&#;</a>", .nameExpected, 1),
      ("<a>\u{1}</a>", .invalidCharacter, 1),
      ("<a b='<'/>", .lessThanInAttributeValue, 1),
      ("<a b=1/>", .unquotedAttributeValue, 1),
      ("<a b='1/>", .unclosedAttributeValue, 1),
      ("<a b/>", .attributeWithoutValue, 1),
      ("<a b='1' b='2'/>", .duplicateAttribute, 1),
      ("<a b='1'c='2'/>", .unclosedTag, 1),
      ("<a></a x>", .unclosedTag, 1),
      ("\n<a><?xml version='1.0'?></a>", .misplacedDeclaration, 2),
      ("<1a/>", .nameExpected, 1),
      ("<x:a/>", .undeclaredPrefix, 1),
      ("<a x:b='1'/>", .undeclaredPrefix, 1),
      ("<a><!-- x -- y --></a>", .doubleHyphenInComment, 1),
      ("<a><!-- x</a>", .endsEarlyOrHasMore, 1),
      ("<a>]]></a>", .cdataEndInText, 1),
      ("<a><!ELEMENT a></a>", .unknownMarkup, 1),
      ("<a><![CDATA[x</a>", .endsEarlyOrHasMore, 1),
      // A quote the DOCTYPE never closes (found by Fuzz/Harnesses/gpx.swift: read past the end).
      ("<!DOCTYPE gpx [p://x\" x=\"\n\"><gpx/>", .endsEarlyOrHasMore, 2),
      ("<!DOCTYPE gpx 'x", .endsEarlyOrHasMore, 1),
    ]
    for (text, problem, line) in cases {
      XCTAssertEqual(failure(text), XMLError(problem, line: line), text)
    }
    // Bytes that are not UTF-8.
    var reader = XMLReader([0x3C, 0x61, 0x3E, 0xC3, 0x28, 0x3C, 0x2F, 0x61, 0x3E])
    XCTAssertThrowsError(try { while try reader.next() != nil {} }()) {
      XCTAssertEqual($0 as? XMLError, XMLError(.invalidCharacter, line: 1))
    }
  }

  /// A name, a text run, an attribute value or a CDATA section is never held past the limit.
  func testValuesAreBounded() throws {
    func failure(_ text: String, limit: Int) -> XMLError? {
      var reader = XMLReader(Array(text.utf8))
      reader.valueLimit = limit
      do throws(XMLError) {
        while try reader.next() != nil {}
        return nil
      } catch {
        return error
      }
    }
    XCTAssertEqual(failure("<x>\n<y z='abcdefghijk'/></x>", limit: 10), XMLError(.valueTooLong, line: 2))
    XCTAssertEqual(
      failure("<x>\n<y z='a&amp;&amp;&amp;&amp;&amp;&amp;&amp;&amp;&amp;&amp;'/></x>", limit: 10),
      XMLError(.valueTooLong, line: 2))
    XCTAssertEqual(failure("<abcdefghijk/>", limit: 10), XMLError(.valueTooLong, line: 1))
    XCTAssertEqual(failure("<x>abcdefghijk</x>", limit: 10), XMLError(.valueTooLong, line: 1))
    XCTAssertEqual(
      failure("<x>a&lt;&lt;&lt;&lt;&lt;&lt;&lt;&lt;&lt;&lt;</x>", limit: 10), XMLError(.valueTooLong, line: 1)
    )
    XCTAssertEqual(failure("<x><![CDATA[abcdefghijk]]></x>", limit: 10), XMLError(.valueTooLong, line: 1))
    XCTAssertNil(
      failure("<abcdefghij y='abcdefghij'>abcdefghij<![CDATA[abcdefghij]]></abcdefghij>", limit: 10))
    XCTAssertEqual(
      XMLError(.valueTooLong, line: 3).description,
      "line 3: a name, text or attribute value longer than 16 MiB, the most mymap reads")
  }

  func testNestingIsBounded() {
    let deep = String(repeating: "<a>", count: XMLReader.maximumDepth + 1)
    XCTAssertEqual(failure(deep), XMLError(.tooDeep, line: 1))
    let allowed =
      String(repeating: "<a>", count: XMLReader.maximumDepth)
      + String(repeating: "</a>", count: XMLReader.maximumDepth)
    XCTAssertNil(failure(allowed))
  }

  /// A hostile tag's thousands of attributes or namespace declarations cost no more than their bytes: a
  /// repeated name is still found among many, and a prefix resolves among thousands.
  func testManyAttributesAndDeclarations() throws {
    let names = (0..<20_000).map { "a\($0)" }
    let many = "<e " + names.map { "\($0)=\"\($0)\"" }.joined(separator: " ") + "/>"
    guard case .start(_, let attributes) = try events(many).first else { return XCTFail("no start") }
    XCTAssertEqual(attributes.names.count, 20_000)
    XCTAssertEqual(attributes["a19999"], "a19999")
    for count in [3, 9, 30] {
      let repeated = "<e " + names.prefix(count).map { "\($0)='1'" }.joined(separator: " ") + " a2='2'/>"
      XCTAssertEqual(failure(repeated), XMLError(.duplicateAttribute, line: 1), "\(count) attributes")
    }
    let declarations = (0..<10_000).map { "xmlns:p\($0)=\"urn:\($0)\"" }.joined(separator: " ")
    let starts = try events("<r \(declarations)><p9999:x/><p0:y xmlns:p0='urn:inner'/><p0:z/></r>")
      .compactMap { event -> String? in
        guard case .start(let name, _) = event else { return nil }
        return "\(name.localName) \(name.namespace)"
      }
    XCTAssertEqual(starts, ["r ", "x urn:9999", "y urn:inner", "z urn:0"])
  }

  func testAnEmptyDocumentHasNoEvents() throws {
    XCTAssertEqual(try events(""), [])
    XCTAssertEqual(try events("<?xml version='1.0'?>\n<!-- nothing -->\n"), [])
  }
}
