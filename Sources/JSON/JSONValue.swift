/// A parsed JSON document. Objects keep their members in order, so a written file reads in the order it
/// was built and a parsed one can be compared as written.
public enum JSONValue: Hashable, Sendable {
  case null
  case bool(Bool)
  /// Always finite when it comes from `JSONParser`.
  case number(Double)
  case string(String)
  case array([JSONValue])
  case object([Member])

  /// One `"name": value` pair of an object.
  public struct Member: Hashable, Sendable {
    public var name: String
    public var value: JSONValue

    public init(_ name: String, _ value: JSONValue) {
      self.name = name
      self.value = value
    }
  }

  /// The value of an object's member; nil for a missing member or when this is not an object.
  public subscript(name: String) -> JSONValue? {
    guard case .object(let members) = self else { return nil }
    return members.first { $0.name == name }?.value
  }

  /// The member names of an object, in order; empty for anything else.
  public var memberNames: [String] {
    guard case .object(let members) = self else { return [] }
    return members.map(\.name)
  }

  /// How a message names this value: `null`, `true`, `the number 3.5`, `the string "NaN"`, `an array`.
  public var summary: String {
    switch self {
    case .null: return "null"
    case .bool(let value): return value ? "true" : "false"
    case .number(let value): return "the number \(JSONWriter.numberText(value))"
    case .string(let value): return "the string \(JSONWriter.quotedExcerpt(value))"
    case .array: return "an array"
    case .object: return "an object"
    }
  }
}
