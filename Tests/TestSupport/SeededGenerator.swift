/// SplitMix64 (Steele, Lea & Flood 2014): a tiny deterministic generator, so that every run and every
/// platform sees the same "random" inputs and a failing case can be reproduced from its seed.
public struct SeededGenerator: RandomNumberGenerator {
  private var state: UInt64

  public init(seed: UInt64) { state = seed }

  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A Double in [0, 1) from the top 53 bits; written out rather than `Double.random(in:using:)`, whose
  /// algorithm the standard library does not promise to keep.
  public mutating func unit() -> Double { Double(next() >> 11) * 0x1.0p-53 }

  public mutating func double(in range: Range<Double>) -> Double {
    range.lowerBound + unit() * (range.upperBound - range.lowerBound)
  }

  public mutating func int(in range: ClosedRange<Int>) -> Int {
    range.lowerBound + Int(next() % UInt64(range.count))
  }

  public mutating func bool() -> Bool { next() & 1 == 1 }
}
