import JSON

/// mymap JSON written one place at a time, for lists too large to hold in memory: `start`, then `place`
/// for each, then `finish` give exactly the text `LocationsFile.encode` gives for the same places (no user).
public struct LocationsJSONStream {
  private var count = 0

  public init() {}

  public func start() -> String { "{\n  \"locations\": [" }

  public mutating func place(_ location: Location) -> String {
    defer { count += 1 }
    let text = JSONWriter.text(LocationsJSON.encode(location)).dropLast()  // its newline
    let indented = text.split(separator: "\n", omittingEmptySubsequences: false).map { "    " + $0 }
      .joined(separator: "\n")
    return (count == 0 ? "\n" : ",\n") + indented
  }

  public func finish() -> String { count == 0 ? "]\n}\n" : "\n  ]\n}\n" }
}
