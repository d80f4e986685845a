/// A small seeded mutation engine for the built-in fuzzer: bit flips, interesting values, byte inserts and
/// deletes, block copies, dictionary tokens and splices with other corpus inputs. The same seed and corpus
/// give the same sequence of inputs.
struct Mutator {
  private var random: SplitMix64
  let dictionary: [[UInt8]]
  let maximumLength: Int

  init(seed: UInt64, dictionary: [[UInt8]], maximumLength: Int) {
    random = SplitMix64(seed: seed)
    self.dictionary = dictionary
    self.maximumLength = maximumLength
  }

  private static let interesting8: [UInt8] = [0, 1, 0x7F, 0x80, 0xFF, 0x20, 0x0A, 0x2C, 0x22, 0x3C]
  private static let interesting32: [UInt32] = [
    0, 1, 0x7F, 0x80, 0xFF, 0x100, 0x7FFF, 0x8000, 0xFFFF, 0x10000, 0x7FFF_FFFF, 0x8000_0000, 0xFFFF_FFFF,
  ]
  private static let numbers = [
    "-1", "0", "1e309", "-0", "1e-400", "99999999999999999999", "NaN", "4294967296",
  ]

  /// A mutant of a random corpus input: one to eight stacked mutations.
  mutating func mutant(of corpus: [[UInt8]]) -> [UInt8] {
    var bytes = corpus.isEmpty ? [] : corpus[random.below(corpus.count)]
    let count = 1 + min(random.below(8), random.below(8))
    for _ in 0..<count { mutate(&bytes, corpus: corpus) }
    if bytes.count > maximumLength { bytes.removeLast(bytes.count - maximumLength) }
    return bytes
  }

  private mutating func mutate(_ bytes: inout [UInt8], corpus: [[UInt8]]) {
    if bytes.isEmpty {
      bytes = [UInt8(truncatingIfNeeded: random.next())]
      return
    }
    let at = random.below(bytes.count)
    switch random.below(11) {
    case 0: bytes[at] ^= 1 << UInt8(random.below(8))
    case 1: bytes[at] = UInt8(truncatingIfNeeded: random.next())
    case 2: bytes[at] = Self.interesting8[random.below(Self.interesting8.count)]
    case 3: bytes[at] = bytes[at] &+ UInt8(truncatingIfNeeded: random.below(35)) &- 17
    case 4:
      var value = Self.interesting32[random.below(Self.interesting32.count)]
      if random.below(2) == 0 { value = value.byteSwapped }
      let width = [1, 2, 4][random.below(3)]
      for index in 0..<width where at + index < bytes.count {
        bytes[at + index] = UInt8(truncatingIfNeeded: value >> (8 * UInt32(index)))
      }
    case 5:
      let inserted = (0..<1 + random.below(8)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
      bytes.insert(contentsOf: inserted, at: at)
    case 6: bytes.removeSubrange(at..<min(bytes.count, at + 1 + random.below(16)))
    case 7:
      let from = random.below(bytes.count)
      let block = bytes[from..<min(bytes.count, from + 1 + random.below(64))]
      bytes.insert(contentsOf: block, at: at)
    case 8 where !dictionary.isEmpty:
      let token = dictionary[random.below(dictionary.count)]
      if random.below(2) == 0 {
        bytes.insert(contentsOf: token, at: at)
      } else {
        bytes.replaceSubrange(at..<min(bytes.count, at + token.count), with: token)
      }
    case 9 where corpus.count > 1:
      let other = corpus[random.below(corpus.count)]
      bytes = Array(bytes[..<at]) + other[random.below(max(other.count, 1))...]
    default:
      // A run of digits becomes a number parsers find awkward.
      guard let digit = bytes[at...].firstIndex(where: { (0x30...0x39).contains($0) }) else { return }
      let end = bytes[digit...].firstIndex(where: { !(0x30...0x39).contains($0) }) ?? bytes.count
      bytes.replaceSubrange(digit..<end, with: Array(Self.numbers[random.below(Self.numbers.count)].utf8))
    }
  }
}

/// SplitMix64: a tiny, fast, seedable generator (the seed fully decides the sequence).
struct SplitMix64 {
  private var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A number in `0..<bound` (`bound` > 0).
  mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}
