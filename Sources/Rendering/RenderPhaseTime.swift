/// How long one stage of a render took: figures for benchmarks (`mymap-bench`), never part of the output.
public struct RenderPhaseTime: Sendable, Equatable {
  /// The stage: "prepare" (measure, fit, place), the basemap's ("tiles", then "style + labels" for
  /// vector tiles: features styled on one thread while labels are placed on another), then "draw map",
  /// "draw overlays", "encode"; or, for a PNG drawn from vectors, "draw and encode" (`BandedPNGPipeline`:
  /// the three at once).
  public var name: String
  public var seconds: Double

  public init(name: String, seconds: Double) {
    self.name = name
    self.seconds = seconds
  }
}

/// Times stages that run one after another: each lap is the time since the previous one.
struct PhaseClock {
  private var last = ContinuousClock.now
  private(set) var phases: [RenderPhaseTime] = []

  /// Ends a stage called `name`.
  mutating func lap(_ name: String) {
    let now = ContinuousClock.now
    let elapsed = now - last
    phases.append(
      RenderPhaseTime(
        name: name,
        seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18))
    last = now
  }

  /// The stages' times with the laps of a repeated stage summed, in the order the stages first came (a
  /// stage run once per band).
  var phaseTotals: [RenderPhaseTime] {
    var totals: [RenderPhaseTime] = []
    for lap in phases {
      if let index = totals.firstIndex(where: { $0.name == lap.name }) {
        totals[index].seconds += lap.seconds
      } else {
        totals.append(lap)
      }
    }
    return totals
  }

  /// Ends a stage whose parts were timed by another clock: their laps stand for it.
  mutating func lap(_ name: String, splitInto parts: [RenderPhaseTime]?) {
    guard let parts, !parts.isEmpty else { return lap(name) }
    phases += parts
    last = ContinuousClock.now
  }
}
