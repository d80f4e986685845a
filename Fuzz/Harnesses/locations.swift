import FuzzSupport
import LocationsFuzzing

// A locations file of unknown format, as `--locations` reads it: sniffed from the content.
// FoundationXML leaks a little on every XML error (Fuzz/lsan.supp): a leak check after each such input
// would slow this harness thirty times.
// libFuzzer: -detect_leaks=0
Fuzz.run { checkLocationsFile($0, format: nil, exact: true) }
