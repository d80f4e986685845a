import FuzzSupport
import Places

// The binary property list and NSKeyedArchiver reader behind Core Data placemarks.
Fuzz.run { input in
  guard let placemark = Placemark(keyedArchive: input.bytes) else { return }
  require(!placemark.isEmpty, "an empty placemark was returned instead of nil")
  _ = (placemark.fullAddress, placemark.shortAddress)
}
