import FuzzSupport
import LocationsFuzzing

// CSV with a header row; written back, read and written again gives the same bytes.
Fuzz.run { checkLocationsFile($0, format: .csv, exact: false) }
