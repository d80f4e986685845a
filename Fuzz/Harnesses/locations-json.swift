import FuzzSupport
import LocationsFuzzing

// mymap's locations JSON (`LocationsFile.read(data:name:format: .mymapJSON)`), with a round trip.
Fuzz.run { checkLocationsFile($0, format: .mymapJSON, exact: true) }
