import FuzzSupport
import JSON

// The raw JSON parser: any bytes parse or throw; a parsed value written out parses back to itself. The
// streaming parse (what `mymap import` reads JSON with) agrees with it: the same error, or the same
// document with its top-level object's arrays handed on an element at a time.
Fuzz.run { input in
  var streamed: [String: [JSONValue]] = [:]
  var streamedError: JSONSyntaxError?
  var document: JSONValue?
  do throws(JSONSyntaxError) {
    document = try JSONParser.parse(input.buffer, maximumHeldBytes: 1 << 20) { member, value, range in
      require(
        (try? JSONParser.parse(input.buffer[range])) == value,
        "an element's bytes do not parse to the element")
      streamed[member, default: []].append(value)
      return true
    }
  } catch {
    streamedError = error
  }
  let value: JSONValue
  do throws(JSONSyntaxError) {
    value = try JSONParser.parse(input.buffer)
  } catch {
    require(streamedError == error, "streamed parse: \(String(describing: streamedError)), whole: \(error)")
    return
  }
  if let streamedError {
    // The one error the whole parse cannot give: more held at once than the limit allows.
    require(
      streamedError.message.hasSuffix("more than is read at once"),
      "streamed parse failed where the whole parse did not: \(streamedError)")
    return
  }
  if case .object(let members) = value {
    var emptied: [JSONValue.Member] = []
    for member in members {
      guard case .array(let elements) = member.value else {
        emptied.append(member)
        continue
      }
      require((streamed[member.name] ?? []) == elements, "member \(member.name): streamed elements differ")
      emptied.append(JSONValue.Member(member.name, .array([])))
    }
    require(document == .object(emptied), "the streamed document differs")
  } else {
    require(document == value && streamed.isEmpty, "a top-level value that is not an object differs")
  }
  let text = JSONWriter.text(value)
  require((try? JSONParser.parse(text)) == value, "JSONWriter's text does not parse back: \(text)")
}
