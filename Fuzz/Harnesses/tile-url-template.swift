import FuzzSupport
import MapMath
import TileFetching

// The tile URL template parser: a template or an error; a key's value (from the environment) appears in
// tile URLs only, never in what is logged or written to a cache (`redacted`, `cacheName`, errors).
let secret = "s3cr3t-K3Y-value"
let environment = ["KEY": secret, "MAPTILER_KEY": secret, "K": secret]
let tiles = [TileID(z: 0, x: 0, y: 0), TileID(z: 12, x: 2200, y: 1343), TileID(z: 30, x: 1 << 29, y: 7)]

Fuzz.run { input in
  let text = input.text
  let template: TileURLTemplate
  do {
    template = try TileURLTemplate(text, environment: environment)
  } catch {
    require(text.contains(secret) || !"\(error)".contains(secret), "an error shows the key")
    return
  }
  let logged = [
    template.redacted, template.cacheName, template.description, template.debugDescription, template.host,
  ]
  require(text.contains(secret) || logged.allSatisfy { !$0.contains(secret) }, "the key is logged")
  _ = (template.hasRetinaPlaceholder, template.keyVariables)
  for case let tile? in tiles {
    for index in [nil, 0, 1, -1, Int.max, Int.min] {
      _ = template.url(for: tile, subdomainIndex: index, retina: index == 1)
    }
  }
}
