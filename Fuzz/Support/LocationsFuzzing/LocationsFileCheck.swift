import Foundation
import FuzzSupport
import Places

/// The checks every locations-file harness makes on one input, read as `format` (nil: by content):
/// reading never traps; an error and every warning is one line of bounded length; what reads writes
/// back deterministically, and reading that back gives the same places (`exact`) or, for formats that
/// drop what they cannot hold, writes the same bytes again.
public func checkLocationsFile(_ input: FuzzInput, format: LocationsFormat?, exact: Bool) {
  let name = "places." + (format?.rawValue ?? "txt")
  let set: LocationSet
  do {
    set = try LocationsFile.read(data: input.data, name: name, format: format)
  } catch {
    requireShortMessage(error.description)
    return
  }
  for warning in set.warnings { requireShortMessage(warning) }
  for location in set.locations {
    _ = (location.title, location.fullAddress, location.shortAddress, location.coordinateText)
  }
  let written = format ?? .mymapJSON
  let encoded = LocationsFile.encode(set, format: written)
  require(encoded == LocationsFile.encode(set, format: written), "encoding is not deterministic")
  let again: LocationSet
  do {
    again = try LocationsFile.read(data: encoded, name: "again." + written.rawValue, format: written)
  } catch {
    require(
      false, "what mymap wrote does not read back: \(error)\n\(String(decoding: encoded, as: UTF8.self))")
    return
  }
  if exact {
    require(again.locations == set.locations, "places differ after writing and reading back")
    if written == .mymapJSON { require(again.user == set.user, "user position differs after a round trip") }
  } else {
    let twice = LocationsFile.encode(again, format: written)
    require(twice == encoded, "writing what was read back gives other bytes")
  }
}
