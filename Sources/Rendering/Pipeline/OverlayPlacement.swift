import MapMath

/// What the overlays claim on the image, in points, by overlay (its index in the list).
struct ImageClaims {
  private var entries: [(owner: Int, rect: PixelRect)] = []

  /// Every claim.
  var rects: [PixelRect] { entries.map(\.rect) }

  /// The claims of every overlay but `owner`.
  func rects(except owner: Int) -> [PixelRect] {
    entries.filter { $0.owner != owner }.map(\.rect)
  }

  mutating func add(_ rects: [PixelRect], owner: Int) {
    entries += rects.map { (owner, $0) }
  }

  /// Removes one claim of `owner`.
  mutating func remove(_ rect: PixelRect, owner: Int) {
    if let index = entries.firstIndex(where: { $0.owner == owner && $0.rect == rect }) {
      entries.remove(at: index)
    }
  }

  /// Replaces all of `owner`'s claims.
  mutating func replace(owner: Int, with rects: [PixelRect]) {
    entries.removeAll { $0.owner == owner }
    add(rects, owner: owner)
  }
}

/// The place stage: the overlays placed on the final camera in three rounds (`MapOverlay`): reserve, place,
/// settle, each round over every overlay in list order.
enum OverlayPlacement {
  /// Places the overlays; returns everything they claimed, which the basemap's labels keep clear of.
  /// `held` are strips of the image kept for an overlay (by index) while things are reserved and placed:
  /// callouts keep clear of them; plates settle around what is drawn, without them.
  static func place(
    _ overlays: inout [any MapOverlay], on camera: Camera, holding held: [(owner: Int, rect: PixelRect)] = []
  ) -> [PixelRect] {
    var claims = ImageClaims()
    for strip in held { claims.add([strip.rect], owner: strip.owner) }
    for index in overlays.indices {
      claims.add(overlays[index].reserve(on: camera, around: claims.rects(except: index)), owner: index)
    }
    for index in overlays.indices {
      claims.add(overlays[index].place(on: camera, around: claims.rects(except: index)), owner: index)
    }
    for strip in held { claims.remove(strip.rect, owner: strip.owner) }
    for index in overlays.indices {
      if let settled = overlays[index].settle(on: camera, around: claims.rects(except: index)) {
        claims.replace(owner: index, with: settled)
      }
    }
    return claims.rects
  }
}
