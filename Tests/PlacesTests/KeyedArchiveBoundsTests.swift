import Places
import XCTest

/// Archived placemarks (`Placemark(keyedArchive:)`, as a Core Data store holds them) whose binary property
/// list shares references so that a few kilobytes expand to gigabytes.
final class KeyedArchiveBoundsTests: XCTestCase {
  /// A binary property list (`bplist00`) of `objects`, object 0 the top; references are indices.
  private enum Object {
    case string(String)
    case uid(Int)
    case array([Int])
    case dictionary([(key: Int, value: Int)])
  }

  private func bplist(_ objects: [Object]) -> [UInt8] {
    var bytes = Array("bplist00".utf8)
    var offsets: [Int] = []
    func marker(_ kind: UInt8, _ count: Int) {
      if count < 15 {
        bytes.append(kind << 4 | UInt8(count))
      } else {
        bytes += [kind << 4 | 0x0F, 0x12] + withUnsafeBytes(of: UInt32(count).bigEndian, Array.init)
      }
    }
    func references(_ indices: [Int]) {
      for index in indices { bytes += withUnsafeBytes(of: UInt16(index).bigEndian, Array.init) }
    }
    for object in objects {
      offsets.append(bytes.count)
      switch object {
      case .string(let text):
        marker(0x5, text.utf8.count)
        bytes += text.utf8
      case .uid(let index):
        bytes += [0x80, UInt8(index)]
      case .array(let elements):
        marker(0xA, elements.count)
        references(elements)
      case .dictionary(let members):
        marker(0xD, members.count)
        references(members.map(\.key))
        references(members.map(\.value))
      }
    }
    let table = bytes.count
    for offset in offsets { bytes += withUnsafeBytes(of: UInt32(offset).bigEndian, Array.init) }
    bytes += [0, 0, 0, 0, 0, 0, 4, 2]  // offset size 4, reference size 2
    for number in [objects.count, 0, table] {
      bytes += withUnsafeBytes(of: UInt64(number).bigEndian, Array.init)
    }
    return bytes
  }

  /// A placemark whose `padding` member is 446 references to 446 references to one 4,000-character string:
  /// about 5 KB that expand to 800 MB of strings (under the count of values the reader allows).
  func testSharedReferencesCannotExpandIntoGigabytes() {
    let archive = bplist([
      .dictionary([(1, 2), (3, 4), (5, 6)]),  // $archiver, $top, $objects
      .string("$archiver"), .string("NSKeyedArchiver"),
      .string("$top"), .dictionary([(7, 8)]),  // root → UID 1
      .string("$objects"), .array([9, 10]),  // $null, the placemark
      .string("root"), .uid(1),
      .string("$null"), .dictionary([(11, 12), (13, 14)]),
      .string("locality"), .string("Cupertino"),
      .string("padding"), .array(Array(repeating: 15, count: 446)),
      .array(Array(repeating: 16, count: 446)), .string(String(repeating: "x", count: 4_000)),
    ])
    XCTAssertLessThan(archive.count, 7_000)
    XCTAssertNil(Placemark(keyedArchive: archive), "an archive this large is refused")

    // The same shape with fewer references to a short string is an ordinary archive and is read.
    let small = bplist([
      .dictionary([(1, 2), (3, 4), (5, 6)]),
      .string("$archiver"), .string("NSKeyedArchiver"),
      .string("$top"), .dictionary([(7, 8)]),
      .string("$objects"), .array([9, 10]),
      .string("root"), .uid(1),
      .string("$null"), .dictionary([(11, 12), (13, 14)]),
      .string("locality"), .string("Cupertino"),
      .string("padding"), .array(Array(repeating: 15, count: 20)),
      .array(Array(repeating: 16, count: 20)), .string("x"),
    ])
    XCTAssertEqual(Placemark(keyedArchive: small), Placemark(locality: "Cupertino"))
  }
}
