import FuzzSupport
import JSON

// The raw JSON parser: any bytes parse or throw; a parsed value written out parses back to itself.
Fuzz.run { input in
  guard let value = try? JSONParser.parse(input.buffer) else { return }
  let text = JSONWriter.text(value)
  require((try? JSONParser.parse(text)) == value, "JSONWriter's text does not parse back: \(text)")
}
