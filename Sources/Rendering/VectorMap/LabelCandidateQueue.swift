import Foundation
import MapMath
import MapStyle

/// The label candidates of each symbol layer, collected by whichever thread comes to a layer first: the
/// label thread, which places the layers from the style's top down, or the styling thread, which helps
/// from the bottom up before it styles the fill and line layers (needed only once the labels are placed).
/// Collecting needs no Pango, placing does, so this is the part of the labels' work the other core can
/// share.
///
/// A layer's candidates are the same whichever thread collects them: each reads the tiles through
/// `FeatureLayer`s of its own (their cached kinds are not shared between threads).
final class LabelCandidateQueue: @unchecked Sendable {
  private enum State {
    case waiting
    case collecting
    case done([MapLabelCandidate])
  }

  private let collect: (Int, (String) -> [FeatureLayer?]) -> [MapLabelCandidate]
  private let count: Int
  /// Guards `states`; signalled when a layer's candidates are done.
  private let condition = NSCondition()
  private var states: [State]

  /// A queue of `layers`, each one's candidates collected by `MapLabelCandidates.collect`.
  convenience init(
    _ layers: [(StyleLayer, SymbolStyle)], tiles: [MapTile], view: PixelRect, zoom: Double,
    fontFallback: String
  ) {
    self.init(count: layers.count) { index, sources in
      let (layer, symbol) = layers[index]
      guard let name = layer.sourceLayer else { return [] }
      let style = SymbolLayerStyle(symbol, zoom: zoom, fontFallback: fontFallback)
      return MapLabelCandidates.collect(
        layer, style: style, sources: sources(name), tiles: tiles, view: view, zoom: zoom)
    }
  }

  /// A queue of `count` layers, `collect` giving a layer's candidates (on any thread, reading through
  /// the sources it is given).
  init(count: Int, collect: @escaping (Int, (String) -> [FeatureLayer?]) -> [MapLabelCandidate]) {
    self.collect = collect
    self.count = count
    states = Array(repeating: .waiting, count: count)
  }

  /// The candidates of layer `index`: collected here, reading through `sources`, unless another thread
  /// has them or is collecting them, then waited for. Handed out once: asked again, a layer has none.
  func candidates(_ index: Int, sources: (String) -> [FeatureLayer?]) -> [MapLabelCandidate] {
    condition.lock()
    while true {
      switch states[index] {
      case .done(let candidates):
        states[index] = .done([])
        condition.unlock()
        return candidates
      case .collecting:
        condition.wait()
      case .waiting:
        states[index] = .collecting
        condition.unlock()
        let candidates = collect(index, sources)
        condition.lock()
        states[index] = .done([])
        condition.unlock()
        return candidates
      }
    }
  }

  /// Collects, from the bottom of the style up, each layer no thread has taken yet.
  func help(sources: (String) -> [FeatureLayer?]) {
    // Not `states.indices`: `states` is read only under the lock.
    for index in 0..<count {
      condition.lock()
      guard case .waiting = states[index] else {
        condition.unlock()
        continue
      }
      states[index] = .collecting
      condition.unlock()
      let candidates = collect(index, sources)
      condition.lock()
      states[index] = .done(candidates)
      condition.broadcast()
      condition.unlock()
    }
  }
}
