import JSON

/// mymap JSON written one place at a time, for lists too large to hold in memory: `start`, then `place`
/// for each, then `finish` give exactly the text `LocationsFile.encode` gives for the same places (no user).
public struct LocationsJSONStream {
  private var count = 0

  public init() {}

  public func start() -> String { "{\n  \"locations\": [" }

  /// The text of the next place (with the comma and line break that lead to it).
  public mutating func place(_ location: Location) -> String {
    var bytes: [UInt8] = []
    place(location, into: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Appends the next place as UTF-8: what `place(_:)` returns, without making a `String` of it.
  public mutating func place(_ location: Location, into output: inout [UInt8]) {
    defer { count += 1 }
    output.append(contentsOf: (count == 0 ? "\n    " : ",\n    ").utf8)
    JSONWriter.write(LocationsJSON.encode(location), indent: 2, into: &output)
  }

  public func finish() -> String { count == 0 ? "]\n}\n" : "\n  ]\n}\n" }
}
