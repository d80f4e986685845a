import FuzzSupport
import LocationsFuzzing

// A locations file of unknown format, as `--locations` reads it: sniffed from the content.
Fuzz.run { checkLocationsFile($0, format: nil, exact: true) }
