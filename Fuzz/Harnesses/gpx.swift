import FuzzSupport
import LocationsFuzzing

// GPX waypoints through mymap's XMLReader; written back, read and written again gives the same bytes
// (GPX leaves out characters XML cannot hold, so the first round trip need not be exact).
Fuzz.run { checkLocationsFile($0, format: .gpx, exact: false) }
