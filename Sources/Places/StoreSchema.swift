/// The layout of a mymap store, version by version.
///
/// A store keeps its version in `PRAGMA user_version` and says it is a mymap store with
/// `PRAGMA application_id`. Opening a store runs, in one `BEGIN IMMEDIATE` transaction, every migration
/// newer than its version, in order, then sets `user_version` to the last one's: a store is never left
/// half-migrated, and two processes opening an old store at once migrate it once.
///
/// To change the layout, append a migration; never edit one that has shipped (stores out there already
/// ran it). Version 2 would look like:
///
/// ```swift
/// StoreMigration(version: 2, sql: """
///   ALTER TABLE location ADD COLUMN altitude REAL;
///   CREATE INDEX location_altitude ON location (altitude);
///   """),
/// ```
///
/// A migration that must rewrite data in Swift (not expressible in SQL) would get a closure next to its
/// SQL; none needs one yet.
enum StoreSchema {
  /// `PRAGMA application_id` of every mymap store ("mymp" in ASCII): how mymap tells its store from any
  /// other SQLite file, such as an MBTiles file given to `--store` by mistake.
  static let applicationID: Int32 = 0x6D79_6D70

  /// The columns read back into a `Location`, in the order `LocationStore` decodes them.
  static let columns =
    "id, latitude, longitude, description, category, date, sub_thoroughfare, thoroughfare, locality,"
    + " administrative_area, postal_code, country, photo_path"

  static let migrations: [StoreMigration] = [
    // v1: one row per saved place. `date` is Unix seconds (NULL: no date); the six address columns are
    // all NULL when the place has no placemark. `category` compares without regard to ASCII case, so
    // the filter and the category+date index agree. The content index finds "the same place" (same
    // position, description and date) when a file without ids is imported again; it is not UNIQUE,
    // because two places with different given ids may have the same content.
    StoreMigration(
      version: 1,
      sql: """
        CREATE TABLE location (
          id TEXT NOT NULL PRIMARY KEY,
          latitude REAL NOT NULL CHECK (latitude BETWEEN -90 AND 90),
          longitude REAL NOT NULL CHECK (longitude BETWEEN -180 AND 180),
          description TEXT NOT NULL DEFAULT '',
          category TEXT NOT NULL DEFAULT 'No Category' COLLATE NOCASE,
          date REAL,
          sub_thoroughfare TEXT,
          thoroughfare TEXT,
          locality TEXT,
          administrative_area TEXT,
          postal_code TEXT,
          country TEXT,
          photo_path TEXT
        );
        CREATE INDEX location_category_date ON location (category, date);
        CREATE INDEX location_date ON location (date);
        CREATE INDEX location_content ON location (latitude, longitude, date);
        """),
    // v2: one row per track or route. The points are one BLOB (`TrackPointsBlob`): a million points read
    // and written as one value, not a million rows. The summary columns (dates, count, length) answer
    // `mymap tracks` and the filters without decoding the points. The id is given or derived from the
    // content (`Track.derivedID`), so importing a file again adds nothing.
    StoreMigration(
      version: 2,
      sql: """
        CREATE TABLE track (
          id TEXT NOT NULL PRIMARY KEY,
          name TEXT NOT NULL DEFAULT '',
          kind TEXT NOT NULL DEFAULT 'track' CHECK (kind IN ('track', 'route')),
          category TEXT NOT NULL DEFAULT 'No Category' COLLATE NOCASE,
          description TEXT NOT NULL DEFAULT '',
          start_date REAL,
          end_date REAL,
          point_count INTEGER NOT NULL,
          length_meters REAL NOT NULL,
          points BLOB NOT NULL
        );
        CREATE INDEX track_dates ON track (start_date, end_date);
        """),
    // v3: the content index holds the description too. Without it, finding "the same place" visited
    // every place at that position and date: importing 50,000 places at one point took 221 s. Only
    // imports ask that index, so a v2 store is still read as it is (read-only commands, read-only disks).
    StoreMigration(
      version: 3,
      sql: """
        DROP INDEX IF EXISTS location_content;
        CREATE INDEX location_content ON location (latitude, longitude, date, description);
        """,
      readCompatible: true),
  ]

  /// The version this mymap writes.
  static var latestVersion: Int { migrations.last?.version ?? 0 }
}

/// One step of the schema: the SQL that takes a store from `version - 1` to `version`.
struct StoreMigration: Sendable {
  var version: Int
  var sql: String
  /// True when a store without this step reads the same (an index only writes use): a read-only open
  /// reads it as it is instead of asking for the upgrade.
  var readCompatible = false
}
