import FuzzSupport
import LocationsFuzzing

// GPX waypoints through Foundation's XMLParser; written back, read and written again gives the same bytes
// (GPX leaves out characters XML cannot hold, so the first round trip need not be exact).
// FoundationXML leaks a little on every XML error (Fuzz/lsan.supp): a leak check after each such input
// would slow this harness thirty times.
// libFuzzer: -detect_leaks=0
Fuzz.run { checkLocationsFile($0, format: .gpx, exact: false) }
