import Foundation
import FuzzSupport
import Rendering

// mymap's style JSON (`Style(json:path:)`): a style or a one-line error quoting little of the input.
Fuzz.run { input in
  do {
    _ = try Style(json: input.data, path: "style.json")
  } catch {
    requireShortMessage(String(describing: error))
  }
}
