import FuzzSupport
import LocationsFuzzing

// GeoJSON points as places, with a round trip through mymap's GeoJSON writer.
Fuzz.run { checkLocationsFile($0, format: .geoJSON, exact: true) }
