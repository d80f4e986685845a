#!/usr/bin/env python3
"""Builds the Core Data fixtures for CoreDataStoreTests (Python 3 standard library only).

A real "My Locations" store cannot be taken off an iPhone here, so this writes one the way Core Data
lays it out: DataModel.sqlite with Z_PRIMARYKEY, Z_METADATA (its plist a binary property list, as Core
Data writes it), Z_MODELCACHE and ZLOCATION, in WAL journal mode (Core Data's default since iOS 7), and
placemarks archived the way NSKeyedArchiver archives a CLPlacemark: a binary plist with $archiver,
$version, $top and $objects, objects referring to each other by CF$UID, every object with a $class
entry ($classname, $classes), dictionaries as NS.keys / NS.objects.

The CLPlacemark's own keys are CoreLocation's (kCLPlacemarkCodingKeyLocation, ...Address, ...Region,
...AreasOfInterest, ...MapItemSource, ...GEOMapItem, ...Muid); the keys inside the nested CLLocation and
CLCircularRegion are close to CoreLocation's but not checked against a device, and the reader ignores them.

Run it from anywhere: `python3 make-fixture.py`. It rewrites every fixture in its own folder. The output
is the same on every run (fixed UUID, dates and page size), so a rerun shows no change in git.

The rows of DataModel.sqlite, and what each one tests:
  Z_PK 1  Apple Park Visitor Center  a full modern CLPlacemark archive (address dictionary with
          Street, SubThoroughfare, Thoroughfare, City, State, ZIP, Country, FormattedAddressLines...);
          photo id 3, and Photo-3.jpg is beside the store
  Z_PK 2  Infinite Loop              an NSMutableDictionary address with only Street (no Thoroughfare
          or SubThoroughfare), NSMutableString values; photo id 7 whose file is missing; date stored as
          an INTEGER
  Z_PK 3  Memorial Park              the other shape: the fields as direct keys of the placemark
          object (thoroughfare, subThoroughfare, locality, ...)
  Z_PK 4  (deleted; Core Data never reuses a primary key, so the gap is realistic)
  Z_PK 5  (no description)           no placemark at all (NULL)
  Z_PK 6  Books Inc.                 a garbage placemark blob
  Z_PK 7  Stevens Creek Reservoir    a readable archive whose address has none of the six fields

The broken stores:
  not-sqlite.sqlite        text, not SQLite
  no-zlocation.sqlite      a Core Data store of another app (ZITEM, no ZLOCATION)
  missing-columns.sqlite   ZLOCATION without ZLATITUDE and ZDATE
  bad-latitude.sqlite      like DataModel.sqlite, but row Z_PK 7 has latitude 91
  null-longitude.sqlite    like DataModel.sqlite, but row Z_PK 2 has a NULL longitude
  no-metadata.sqlite       like DataModel.sqlite, but without Z_METADATA (no store UUID)
"""

import datetime
import os
import plistlib
import sqlite3
from pathlib import Path

HERE = Path(__file__).resolve().parent
STORE_UUID = "5B4E9C2A-3F1D-4E8B-9A6C-7D2E1F0B8C34"
REFERENCE_DATE = datetime.datetime(2001, 1, 1, tzinfo=datetime.timezone.utc)

# A 4×4 JPEG in the pin green, as a photo the app would have saved (Photo-3.jpg).
PHOTO_JPEG = bytes.fromhex(
    "ffd8ffe000104a46494600010100000100010000ffdb004300100b0c0e0c0a100e0d0e1211101318281a181616183123"
    "251d283a333d3c3933383740485c4e404457453738506d51575f626768673e4d71797064785c656763ffdb004301111212"
    "1815182f1a1a2f634238426363636363636363636363636363636363636363636363636363636363636363636363636363"
    "636363636363636363636363ffc00011080004000403012200021101031101ffc4001f0000010501010101010100000000"
    "000000000102030405060708090a0bffc400b5100002010303020403050504040000017d01020300041105122131410613"
    "516107227114328191a1082342b1c11552d1f02433627282090a161718191a25262728292a3435363738393a4344454647"
    "48494a535455565758595a636465666768696a737475767778797a838485868788898a92939495969798999aa2a3a4a5a6"
    "a7a8a9aab2b3b4b5b6b7b8b9bac2c3c4c5c6c7c8c9cad2d3d4d5d6d7d8d9dae1e2e3e4e5e6e7e8e9eaf1f2f3f4f5f6f7f8"
    "f9faffc4001f0100030101010101010101010000000000000102030405060708090a0bffc400b511000201020404030407"
    "05040400010277000102031104052131061241510761711322328108144291a1b1c109233352f0156272d10a162434e125"
    "f11718191a262728292a35363738393a434445464748494a535455565758595a636465666768696a737475767778797a82"
    "838485868788898a92939495969798999aa2a3a4a5a6a7a8a9aab2b3b4b5b6b7b8b9bac2c3c4c5c6c7c8c9cad2d3d4d5d6"
    "d7d8d9dae2e3e4e5e6e7e8e9eaf2f3f4f5f6f7f8f9faffda000c03010002110311003f00d0a28a2b80f14fffd9"
)


# --- NSKeyedArchiver, by hand -----------------------------------------------------------------------


class Obj:
    """An archived object: its class chain (most derived first) and its encoded keys."""

    def __init__(self, classes, **fields):
        self.classes = classes
        self.fields = fields


class Inline:
    """A value NSKeyedArchiver writes into the object itself (encodeDouble:forKey: and friends)."""

    def __init__(self, value):
        self.value = value


class MutableString:
    """An NSMutableString, which NSKeyedArchiver writes as an object with NS.string."""

    def __init__(self, text):
        self.text = text


class MutableDictionary(dict):
    """An NSMutableDictionary (a plain dict archives as NSDictionary)."""


class KeyedArchiver:
    def __init__(self):
        self.objects = ["$null"]
        self.classes = {}
        self.strings = {}

    def _append(self, value):
        self.objects.append(value)
        return plistlib.UID(len(self.objects) - 1)

    def _class(self, names):
        key = tuple(names)
        if key not in self.classes:
            self.classes[key] = self._append({"$classname": names[0], "$classes": list(names)})
        return self.classes[key]

    def _object(self, classes, fill):
        # The object's UID is taken before its contents are encoded, as NSKeyedArchiver does: the root
        # is always UID 1.
        uid = self._append(None)
        body = fill()
        body["$class"] = self._class(classes)
        self.objects[uid.data] = body
        return uid

    def encode(self, value):
        if value is None:
            return plistlib.UID(0)
        if isinstance(value, str):
            if value not in self.strings:
                self.strings[value] = self._append(value)
            return self.strings[value]
        if isinstance(value, (bool, int, float)):  # an NSNumber is written as the bare number
            return self._append(value)
        if isinstance(value, MutableString):
            return self._object(["NSMutableString", "NSString", "NSObject"], lambda: {"NS.string": value.text})
        if isinstance(value, dict):
            classes = (
                ["NSMutableDictionary", "NSDictionary", "NSObject"]
                if isinstance(value, MutableDictionary)
                else ["NSDictionary", "NSObject"]
            )
            return self._object(
                classes,
                lambda: {
                    "NS.keys": [self.encode(key) for key in value],
                    "NS.objects": [self.encode(item) for item in value.values()],
                },
            )
        if isinstance(value, list):
            return self._object(["NSArray", "NSObject"], lambda: {"NS.objects": [self.encode(i) for i in value]})
        if isinstance(value, Obj):
            def fill():
                body = {}
                for key, item in value.fields.items():
                    body[key] = item.value if isinstance(item, Inline) else self.encode(item)
                return body

            return self._object(value.classes, fill)
        raise TypeError(f"cannot archive {value!r}")


def archive(root):
    archiver = KeyedArchiver()
    archiver.encode(root)
    document = {
        "$version": 100000,
        "$archiver": "NSKeyedArchiver",
        "$top": {"root": plistlib.UID(1)},
        "$objects": archiver.objects,
    }
    return plistlib.dumps(document, fmt=plistlib.FMT_BINARY, sort_keys=False)


def cl_location(latitude, longitude, timestamp):
    return Obj(
        ["CLLocation", "NSObject"],
        kCLLocationCodingKeyCoordinateLatitude=Inline(latitude),
        kCLLocationCodingKeyCoordinateLongitude=Inline(longitude),
        kCLLocationCodingKeyAltitude=Inline(72.0),
        kCLLocationCodingKeyHorizontalAccuracy=Inline(65.0),
        kCLLocationCodingKeyVerticalAccuracy=Inline(10.0),
        kCLLocationCodingKeySpeed=Inline(-1.0),
        kCLLocationCodingKeyCourse=Inline(-1.0),
        kCLLocationCodingKeyTimestamp=Inline(timestamp),
    )


def cl_region(latitude, longitude, radius):
    return Obj(
        ["CLCircularRegion", "CLRegion", "NSObject"],
        kCLRegionCodingKeyIdentifier=f"<{latitude:+.8f},{longitude:+.8f}> radius {radius:.2f}",
        kCLRegionCodingKeyCenterLatitude=Inline(latitude),
        kCLRegionCodingKeyCenterLongitude=Inline(longitude),
        kCLRegionCodingKeyRadius=Inline(radius),
    )


def cl_placemark(latitude, longitude, timestamp, address, areas=None):
    """A CLPlacemark as iOS archives it: the address dictionary under kCLPlacemarkCodingKeyAddress."""
    return Obj(
        ["CLPlacemark", "NSObject"],
        kCLPlacemarkCodingKeyLocation=cl_location(latitude, longitude, timestamp),
        kCLPlacemarkCodingKeyAddress=address,
        kCLPlacemarkCodingKeyRegion=cl_region(latitude, longitude, 70.71),
        kCLPlacemarkCodingKeyAreasOfInterest=areas,
        kCLPlacemarkCodingKeyMapItemSource=1,
        kCLPlacemarkCodingKeyGEOMapItem=None,
        kCLPlacemarkCodingKeyGEOMapItemHandle=None,
        kCLPlacemarkCodingKeyMuid=0,
    )


# --- the rows -------------------------------------------------------------------------------------------


def seconds(year, month, day, hour, minute, second=0.0):
    """Seconds since Core Data's reference date, 2001-01-01 00:00:00 UTC."""
    moment = datetime.datetime(year, month, day, hour, minute, tzinfo=datetime.timezone.utc)
    return (moment - REFERENCE_DATE).total_seconds() + second


def rows():
    apple_park = cl_placemark(
        37.33264, -122.00577, seconds(2024, 5, 14, 9, 30, 0.25),
        {
            "Name": "Apple Park Visitor Center",
            "Street": "10600 N Tantau Ave",
            "SubThoroughfare": "10600",
            "Thoroughfare": "N Tantau Ave",
            "City": "Cupertino",
            "SubLocality": "Vallco",
            "State": "CA",
            "SubAdministrativeArea": "Santa Clara",
            "ZIP": "95014",
            "Country": "United States",
            "CountryCode": "US",
            "FormattedAddressLines": ["10600 N Tantau Ave", "Cupertino, CA  95014", "United States"],
        },
        areas=["Apple Park"],
    )
    infinite_loop = cl_placemark(
        37.33182, -122.03118, seconds(2023, 11, 2, 17, 5),
        MutableDictionary(
            {
                "Name": "1 Infinite Loop",
                "Street": "1 Infinite Loop",
                "City": MutableString("Cupertino"),
                "State": "CA",
                "ZIP": MutableString("95014"),
                "Country": "United States",
                "CountryCode": "US",
                "FormattedAddressLines": ["1 Infinite Loop", "Cupertino, CA  95014", "United States"],
            }
        ),
    )
    memorial_park = Obj(
        ["CLPlacemark", "NSObject"],
        location=cl_location(37.32485, -122.04411, seconds(2024, 6, 1, 12, 0, 0.5)),
        name="Memorial Park",
        subThoroughfare="21221",
        thoroughfare="Stevens Creek Blvd",
        locality="Cupertino",
        administrativeArea="CA",
        postalCode="95014",
        country="United States",
        ISOcountryCode="US",
    )
    reservoir = cl_placemark(
        37.30213, -122.07436, seconds(2024, 8, 15, 8, 0),
        {"Name": "Stevens Creek Reservoir", "InlandWater": "Stevens Creek Reservoir"},
    )
    garbage = b"\x00\x01not a keyed archive\xff\xfe" + bytes(range(0, 40))

    # Z_PK, Z_OPT, ZPHOTOID, ZDATE, ZLATITUDE, ZLONGITUDE, ZCATEGORY, ZLOCATIONDESCRIPTION, ZPLACEMARK
    return [
        (1, 3, 3, seconds(2024, 5, 14, 9, 30, 0.25), 37.33264, -122.00577, "Apple Store",
         "Apple Park Visitor Center", archive(apple_park)),
        (2, 1, 7, int(seconds(2023, 11, 2, 17, 5)), 37.33182, -122.03118, "Historic Building",
         "Infinite Loop", archive(infinite_loop)),
        (3, 2, None, seconds(2024, 6, 1, 12, 0, 0.5), 37.32485, -122.04411, "Park",
         "Memorial Park", archive(memorial_park)),
        (5, 1, None, seconds(2024, 6, 2, 7, 45), 37.31873, -122.08926, "No Category", "", None),
        (6, 1, None, seconds(2024, 7, 4, 16, 20, 0.75), 37.32301, -122.00902, "Bookstore",
         "Books Inc.", garbage),
        (7, 1, None, seconds(2024, 8, 15, 8, 0), 37.30213, -122.07436, "Landmark",
         "Stevens Creek Reservoir", archive(reservoir)),
    ]


# --- the stores ---------------------------------------------------------------------------------------

LOCATION_TABLE = """CREATE TABLE ZLOCATION ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER,
ZPHOTOID INTEGER, ZDATE TIMESTAMP, ZLATITUDE FLOAT, ZLONGITUDE FLOAT, ZCATEGORY VARCHAR,
ZLOCATIONDESCRIPTION VARCHAR, ZPLACEMARK BLOB )"""


def metadata_plist():
    return plistlib.dumps(
        {
            "NSPersistenceFrameworkVersion": 1338,
            "NSStoreModelVersionHashes": {"Location": bytes(range(32))},
            "NSStoreModelVersionHashesVersion": 3,
            "NSStoreModelVersionIdentifiers": [""],
            "NSStoreType": "SQLite",
            "NSStoreUUID": STORE_UUID,
            "_NSAutoVacuumLevel": "2",
        },
        fmt=plistlib.FMT_BINARY,
    )


def fresh(name, page_size):
    path = HERE / name
    for suffix in ("", "-wal", "-shm", "-journal"):
        if os.path.exists(str(path) + suffix):
            os.remove(str(path) + suffix)
    connection = sqlite3.connect(path)
    connection.execute(f"PRAGMA page_size = {page_size}")
    return connection


def core_data_tables(connection, metadata=True):
    connection.execute("CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)")
    if metadata:
        connection.execute("CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)")
        connection.execute("INSERT INTO Z_METADATA VALUES (1, ?, ?)", (STORE_UUID, metadata_plist()))
    connection.execute("CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB)")


def location_store(name, page_size=4096, wal=True, metadata=True, change=None):
    connection = fresh(name, page_size)
    core_data_tables(connection, metadata)
    connection.execute(LOCATION_TABLE)
    connection.execute("CREATE INDEX ZLOCATION_ZDATE_INDEX ON ZLOCATION (ZDATE)")
    for row in rows():
        pk, opt, photo, date, latitude, longitude, category, text, placemark = row
        if change:
            latitude, longitude = change(pk, latitude, longitude)
        connection.execute(
            "INSERT INTO ZLOCATION VALUES (?, 1, ?, ?, ?, ?, ?, ?, ?, ?)",
            (pk, opt, photo, date, latitude, longitude, category, text, placemark),
        )
    connection.execute("INSERT INTO Z_PRIMARYKEY VALUES (1, 'Location', 0, 7)")
    connection.commit()
    if wal:
        connection.execute("PRAGMA journal_mode = WAL")
    connection.close()  # the last connection checkpoints and removes -wal and -shm


def main():
    location_store("DataModel.sqlite")
    (HERE / "Photo-3.jpg").write_bytes(PHOTO_JPEG)

    (HERE / "not-sqlite.sqlite").write_text("This is a text file that someone named DataModel.sqlite.\n")

    connection = fresh("no-zlocation.sqlite", 1024)
    core_data_tables(connection)
    connection.execute("CREATE TABLE ZITEM ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZTEXT VARCHAR )")
    connection.execute("INSERT INTO ZITEM VALUES (1, 1, 1, 'Buy milk')")
    connection.execute("INSERT INTO Z_PRIMARYKEY VALUES (1, 'Item', 0, 1)")
    connection.commit()
    connection.close()

    connection = fresh("missing-columns.sqlite", 1024)
    core_data_tables(connection)
    connection.execute("CREATE TABLE ZLOCATION ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZLONGITUDE FLOAT, ZLOCATIONDESCRIPTION VARCHAR )")
    connection.execute("INSERT INTO ZLOCATION VALUES (1, 1, 1, -122.0, 'Somewhere')")
    connection.commit()
    connection.close()

    location_store(
        "bad-latitude.sqlite", page_size=1024, wal=False,
        change=lambda pk, lat, lon: (91.0 if pk == 7 else lat, lon),
    )
    location_store(
        "null-longitude.sqlite", page_size=1024, wal=False,
        change=lambda pk, lat, lon: (lat, None if pk == 2 else lon),
    )
    location_store("no-metadata.sqlite", page_size=1024, wal=False, metadata=False)


if __name__ == "__main__":
    main()
