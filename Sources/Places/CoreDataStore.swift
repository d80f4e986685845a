import Foundation
import JSON

/// Reads the My Locations app's own Core Data store, `DataModel.sqlite`, without changing it.
///
/// Core Data keeps the app's `Location` entity in the SQLite table `ZLOCATION`: `Z_PK` (the row's primary
/// key, never reused), `ZLATITUDE`, `ZLONGITUDE`, `ZDATE` (seconds since 2001-01-01 00:00:00 UTC, Core Data's
/// reference date), `ZLOCATIONDESCRIPTION`, `ZCATEGORY`, `ZPLACEMARK` (the `CLPlacemark`, archived by
/// NSKeyedArchiver) and, from the chapter that adds photos on, `ZPHOTOID` (the app saves the photo as
/// `Photo-<id>.jpg`). `Z_METADATA` holds the store's UUID.
///
/// - Ids: `cd-` and 16 hex digits of a hash of the store's UUID (`Z_METADATA.Z_UUID`) and the row's
///   `Z_PK`. Both stay the same for the life of the store, also when a place is edited in the app, so
///   importing the same store again gives the same ids (and updates rather than duplicates), while two
///   phones' stores, whose `Z_PK`s overlap, do not collide. A store without a UUID falls back to the
///   content-derived id every other format uses (`Location.derivedID`).
/// - Addresses: read from the archived placemark wherever its six fields can be found (see
///   `archivedPlacemark`). An address that cannot be read is left out, with one warning that counts them;
///   it never fails the import.
/// - Photos: `photoPath` is the absolute path of `Photo-<id>.jpg` beside the store, when that file is there;
///   otherwise nil, with a warning.
/// - Errors: a row with a missing or out-of-range coordinate fails the whole read, naming the row
///   (`row Z_PK 7: latitude 91 is outside -90…90`).
public enum CoreDataStore {
  /// The name the app gives its store.
  public static let fileName = "DataModel.sqlite"

  /// Whether a file's first bytes (16 are enough) are SQLite's header, `SQLite format 3\0`.
  ///
  /// This is all the bytes can tell: Core Data writes nothing of its own into the header, so an MBTiles
  /// file looks the same. `looksLikeCoreDataStore(path:)` looks inside.
  public static func looksLikeCoreDataStore(_ prefix: Data) -> Bool {
    prefix.starts(with: sqliteHeader)
  }

  /// Whether the file at `path` is an SQLite database with a `ZLOCATION` table. Never throws, never
  /// changes the file.
  public static func looksLikeCoreDataStore(path: String) -> Bool {
    guard (try? checkHeader(path)) != nil, let store = try? CoreDataConnection(path: path) else {
      return false
    }
    return (try? store.tableNames().contains("ZLOCATION")) ?? false
  }

  /// Reads every place in the store at `path`, in `Z_PK` order.
  public static func read(path: String) throws(LocationsFileError) -> LocationSet {
    try checkHeader(path)
    let store = try CoreDataConnection(path: path)
    let tables = try store.tableNames()
    guard tables.contains("ZLOCATION") else {
      let listed = tables.sorted().prefix(6).joined(separator: ", ") + (tables.count > 6 ? ", …" : "")
      throw .invalidDocument(
        file: path,
        message: "not a My Locations store: it has no ZLOCATION table"
          + (tables.isEmpty ? " (it has no tables at all)" : " (its tables: \(listed))"))
    }
    let columns = try store.columnNames(of: "ZLOCATION")
    let missing = requiredColumns.filter { !columns.contains($0) }
    guard missing.isEmpty else {
      throw .invalidDocument(
        file: path,
        message: "not a My Locations store: table ZLOCATION has no "
          + (missing.count == 1 ? "column \(missing[0])" : "columns \(missing.joined(separator: ", "))"))
    }
    let storeUUID = tables.contains("Z_METADATA") ? store.storeUUID() : nil

    let folder = (path as NSString).deletingLastPathComponent
    let photoColumn = columns.contains("ZPHOTOID") ? "ZPHOTOID" : "NULL"
    let query =
      "SELECT Z_PK, ZLATITUDE, ZLONGITUDE, ZDATE, ZLOCATIONDESCRIPTION, ZCATEGORY, ZPLACEMARK, \(photoColumn)"
      + " FROM ZLOCATION ORDER BY Z_PK"
    var locations: [Location] = []
    var warnings = store.warnings
    var unreadableAddresses: [Int64] = []
    var missingPhotos: [(row: Int64, name: String)] = []
    var ids = IDAssigner()
    try store.forEachRow(query) { (row: CoreDataRow) throws(LocationsFileError) in
      let key = row.integer(0) ?? 0
      let record = "row Z_PK \(key)"
      let latitude: Double
      let longitude: Double
      do throws(RecordProblem) {
        latitude = try coordinate(row, 1, .latitude)
        longitude = try coordinate(row, 2, .longitude)
      } catch {
        throw .invalidRecord(file: path, record: record, message: error.message)
      }

      var date: Date?
      if let seconds = row.number(3), seconds.isFinite,
        ISO8601Date.isRepresentable(Date(timeIntervalSinceReferenceDate: seconds))
      {
        date = Date(timeIntervalSinceReferenceDate: seconds)
      } else if !row.isNull(3) {
        warnings.append(
          "\(record): date \(row.summary(3)) is not a Core Data timestamp (seconds since 2001-01-01); left out"
        )
      }

      var categoryWarnings: [String] = []
      let category = categoryName(row.text(5) ?? "", warnings: &categoryWarnings)
      warnings += categoryWarnings.map { "\(record): \($0)" }

      var placemark: Placemark?
      if let archive = row.bytes(6) {
        placemark = archivedPlacemark(archive)
        if placemark == nil { unreadableAddresses.append(key) }
      }

      var photoPath: String?
      if let photoID = row.integer(7), photoID >= 0 {
        let name = "Photo-\(photoID).jpg"
        let photo = folder.isEmpty ? name : (folder as NSString).appendingPathComponent(name)
        if FileManager.default.fileExists(atPath: photo) {
          // Absolute: once the place is in mymap's own store, a path relative to the app's folder is lost.
          photoPath = URL(fileURLWithPath: photo).standardizedFileURL.path
        } else {
          missingPhotos.append((key, name))
        }
      }

      // Without a store UUID, `Location` derives the id from the place itself.
      let location = Location(
        id: storeUUID.map { stableID(storeUUID: $0, primaryKey: key) }, latitude: latitude,
        longitude: longitude, locationDescription: row.text(4) ?? "", category: category, date: date,
        placemark: placemark, photoPath: photoPath)
      if let oversized = location.oversizedText() {
        throw .invalidRecord(file: path, record: record, message: oversized)
      }
      guard locations.count < InputLimits.maximumPlaces else {
        throw .invalidDocument(
          file: path,
          message: "the store holds more than \(InputLimits.maximumPlaces) places, the most one file may hold"
        )
      }
      if storeUUID == nil {
        _ = ids.register(location, explicit: false, index: locations.count, record: record)
      }
      locations.append(location)
    }
    ids.finish(&locations)

    if !unreadableAddresses.isEmpty {
      let count = unreadableAddresses.count
      warnings.append(
        (count == 1
          ? "1 address could not be read and was left out"
          : "\(count) addresses could not be read and were left out")
          + " (\(rowList(unreadableAddresses.map { "\($0)" })))")
    }
    if !missingPhotos.isEmpty {
      let count = missingPhotos.count
      warnings.append(
        (count == 1
          ? "1 photo is not beside the store and was left out"
          : "\(count) photos are not beside the store and were left out")
          + " (\(rowList(missingPhotos.map { "\($0.row): \($0.name)" })))")
    }
    return LocationSet(locations: locations, warnings: warnings)
  }

  // MARK: - Rows

  private static let sqliteHeader = Array("SQLite format 3\0".utf8)

  /// The columns read; `ZPHOTOID` is optional, since stores from before the photo chapter lack it.
  private static let requiredColumns = [
    "Z_PK", "ZLATITUDE", "ZLONGITUDE", "ZDATE", "ZLOCATIONDESCRIPTION", "ZCATEGORY", "ZPLACEMARK",
  ]

  /// `rows Z_PK 6, 7`, at most 10 listed.
  private static func rowList(_ items: [String]) -> String {
    (items.count == 1 ? "row Z_PK " : "rows Z_PK ")
      + items.prefix(10).joined(separator: ", ") + (items.count > 10 ? ", …" : "")
  }

  private static func coordinate(_ row: CoreDataRow, _ column: Int32, _ axis: Axis) throws(RecordProblem)
    -> Double
  {
    if row.isNull(column) { throw RecordProblem("\(axis) is missing (NULL)") }
    guard let value = row.number(column) else {
      throw RecordProblem("\(axis) must be a number, not \(row.summary(column))")
    }
    guard value.isFinite else { throw RecordProblem("\(axis) is not a finite number") }
    guard abs(value) <= axis.limit else {
      let limit = JSONWriter.numberText(axis.limit)
      throw RecordProblem("\(axis) \(JSONWriter.numberText(value)) is outside -\(limit)…\(limit)")
    }
    return value
  }

  /// `cd-` and 16 hex digits of a hash of `<store UUID>|<Z_PK>`, the same on every machine and run.
  ///
  /// FNV-1a, then MurmurHash3's 64-bit finalizer: FNV-1a alone changes only a few low digits when the last
  /// byte changes (`Z_PK` 1 and 2), and ids are told apart by their first characters.
  static func stableID(storeUUID: String, primaryKey: Int64) -> String {
    var fnv = FNV1a64()
    fnv.add("\(storeUUID)|\(primaryKey)")
    var hash = fnv.value
    hash ^= hash >> 33
    hash = hash &* 0xff51_afd7_ed55_8ccd
    hash ^= hash >> 33
    hash = hash &* 0xc4ce_b9fe_1a85_ec53
    hash ^= hash >> 33
    return FNV1a64.id(prefix: "cd-", hash)
  }

  /// Throws unless `path` is a readable file that starts with SQLite's header.
  private static func checkHeader(_ path: String) throws(LocationsFileError) {
    let manager = FileManager.default
    var isDirectory: ObjCBool = false
    guard manager.fileExists(atPath: path, isDirectory: &isDirectory) else { throw .fileNotFound(file: path) }
    if isDirectory.boolValue {
      let inside = (path as NSString).appendingPathComponent(fileName)
      throw .unreadable(
        file: path,
        reason: "it is a directory" + (manager.fileExists(atPath: inside) ? " (the store is \(inside))" : ""))
    }
    guard let file = FileHandle(forReadingAtPath: path) else {
      throw .unreadable(
        file: path, reason: manager.isReadableFile(atPath: path) ? "cannot open it" : "permission denied")
    }
    defer { try? file.close() }
    let prefix: Data
    do {
      prefix = try file.read(upToCount: sqliteHeader.count) ?? Data()
    } catch {
      throw .unreadable(file: path, reason: (error as NSError).localizedDescription)
    }
    if prefix.isEmpty {
      throw .invalidDocument(
        file: path,
        message: "the file is empty; expected the My Locations app's Core Data store (\(fileName))")
    }
    guard looksLikeCoreDataStore(prefix) else {
      throw .invalidDocument(
        file: path,
        message: "not an SQLite file; expected the My Locations app's Core Data store (\(fileName))")
    }
  }

  // MARK: - Placemarks

  /// The address in an archived `CLPlacemark`; nil when the bytes are no keyed archive or hold none of the
  /// six fields.
  ///
  /// Handled shapes, found anywhere in the archive's object graph (breadth first from the root, so the
  /// placemark's own keys come before anything nested, and the first non-empty value of a field wins):
  /// - the address dictionary, as CoreLocation archives it under `kCLPlacemarkCodingKeyAddress` (an
  ///   NSDictionary or NSMutableDictionary, Address Book keys): `SubThoroughfare`, `Thoroughfare`, `City`,
  ///   `State`, `ZIP`, `Country`; `Street` ("1 Infinite Loop") stands in for a missing `Thoroughfare`,
  ///   less the house number when `SubThoroughfare` has it;
  /// - the fields as keys of an object or dictionary, named as CLPlacemark's properties: `subThoroughfare`,
  ///   `thoroughfare`, `locality`, `administrativeArea`, `postalCode`, `country` (and CNPostalAddress's
  ///   `street`, `city`, `state`);
  /// - values as plain strings or NSMutableString objects.
  ///
  /// Not handled: a placemark whose address is only inside `kCLPlacemarkCodingKeyGEOMapItem` (a
  /// GEOMapItemStorage, Apple's private protocol buffer), and `FormattedAddressLines` alone (one line of
  /// text cannot be split into the six fields reliably).
  static func archivedPlacemark(_ bytes: [UInt8]) -> Placemark? {
    guard let archive = KeyedArchive(bytes) else { return nil }
    var found: [PlacemarkField: String] = [:]
    var street: String?
    var queue = [archive.root]
    var seen: Set<Int> = [archive.root]
    var next = 0
    while next < queue.count, next < 10_000 {
      let object = archive.objects[queue[next]]
      next += 1
      let members: [(key: String, value: PropertyListValue)]
      let isDictionary: Bool
      if let entries = archive.dictionaryEntries(object) {
        members = entries
        isDictionary = true
      } else if let fields = object.dictionary {
        members = fields.filter { $0.key != "$class" }.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        isDictionary = false
      } else {
        continue
      }
      for (key, value) in members {
        if let field = PlacemarkField(key: key, inDictionary: isDictionary), found[field] == nil,
          let text = archive.string(value), !text.isEmpty
        {
          found[field] = text
        } else if ["Street", "street"].contains(key), street == nil, let text = archive.string(value),
          !text.isEmpty
        {
          street = text
        }
        var references: [PropertyListValue] = [value]
        if case .array(let elements) = value { references = elements }
        for case .uid(let index) in references where index > 0 && index < archive.objects.count {
          if seen.insert(index).inserted { queue.append(index) }
        }
      }
    }
    if found[.thoroughfare] == nil, let street {
      found[.thoroughfare] = streetName(street, houseNumber: found[.subThoroughfare])
    }
    let placemark = Placemark(
      subThoroughfare: found[.subThoroughfare], thoroughfare: found[.thoroughfare],
      locality: found[.locality], administrativeArea: found[.administrativeArea],
      postalCode: found[.postalCode], country: found[.country])
    return placemark.isEmpty ? nil : placemark
  }

  /// `Street` less the house number at its start (`10600 N Tantau Ave`) or end (`Unter den Linden 77`).
  private static func streetName(_ street: String, houseNumber: String?) -> String {
    guard let houseNumber else { return street }
    if street.hasPrefix(houseNumber + " ") { return String(street.dropFirst(houseNumber.count + 1)) }
    if street.hasSuffix(" " + houseNumber) { return String(street.dropLast(houseNumber.count + 1)) }
    return street
  }

  private enum PlacemarkField: Hashable {
    case subThoroughfare
    case thoroughfare
    case locality
    case administrativeArea
    case postalCode
    case country

    /// The address dictionary's keys (Address Book's), looked for in dictionaries only.
    private static let dictionaryKeys: [String: PlacemarkField] = [
      "SubThoroughfare": .subThoroughfare, "Thoroughfare": .thoroughfare, "City": .locality,
      "State": .administrativeArea, "ZIP": .postalCode, "Country": .country,
    ]
    /// CLPlacemark's (and CNPostalAddress's) property names, looked for anywhere.
    private static let propertyKeys: [String: PlacemarkField] = [
      "subThoroughfare": .subThoroughfare, "thoroughfare": .thoroughfare, "locality": .locality,
      "city": .locality, "administrativeArea": .administrativeArea, "state": .administrativeArea,
      "postalCode": .postalCode, "country": .country,
    ]

    init?(key: String, inDictionary: Bool) {
      guard let field = Self.propertyKeys[key] ?? (inDictionary ? Self.dictionaryKeys[key] : nil) else {
        return nil
      }
      self = field
    }
  }
}
