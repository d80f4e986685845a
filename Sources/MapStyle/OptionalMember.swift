import JSON

/// The kinds of plain JSON value a style member can be required to have.
enum MemberKind {
  case string
  case number
  case object

  var name: String {
    switch self {
    case .string: return "a string"
    case .number: return "a number"
    case .object: return "an object"
    }
  }
}

extension JSONValue {
  var stringValue: String? {
    if case .string(let text) = self { return text }
    return nil
  }

  var objectMembers: [Member]? {
    if case .object(let members) = self { return members }
    return nil
  }

  var numberValue: Double? {
    if case .number(let number) = self { return number }
    return nil
  }
}

/// Reads an optional style member that must have one kind; `error` words the failure for a message
/// such as "must be a string, found the number 3".
func optionalMember<Value>(
  _ json: JSONValue?, _ kind: MemberKind, _ extract: (JSONValue) -> Value?, error: (String) -> MapStyleError
) throws(MapStyleError) -> Value? {
  guard let json else { return nil }
  guard let value = extract(json) else { throw error("must be \(kind.name), found \(json.summary)") }
  return value
}
