/// FNV-1a, 64 bits, fed text and numbers (their bit patterns): stable across platforms, runs and Swift
/// versions, unlike `Hasher`, which is seeded per process. The derived ids of places, tracks and Core Data
/// rows are made with it.
struct FNV1a64 {
  private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

  mutating func add(_ text: String) {
    for byte in text.utf8 { add(byte) }
  }

  mutating func add(_ number: Double) {
    var bits = number.isNaN ? Double.nan.bitPattern : number.bitPattern
    for _ in 0..<8 {
      add(UInt8(truncatingIfNeeded: bits))
      bits >>= 8
    }
  }

  private mutating func add(_ byte: UInt8) {
    value ^= UInt64(byte)
    value = value &* 0x0000_0100_0000_01b3
  }

  /// `prefix` (ASCII) and the 16 hex digits of `value`, zero-padded: the form of every derived id, written
  /// in one allocation (an import makes a million of them).
  static func id(prefix: StaticString, _ value: UInt64) -> String {
    let count = prefix.utf8CodeUnitCount + 16
    return String(unsafeUninitializedCapacity: count) { text in
      let start = prefix.utf8CodeUnitCount
      for index in 0..<start { text[index] = prefix.utf8Start[index] }
      for index in 0..<16 {
        let digit = UInt8(truncatingIfNeeded: value >> UInt64(60 - 4 * index) & 0xF)
        text[start + index] = digit < 10 ? 0x30 + digit : 0x57 + digit
      }
      return count
    }
  }
}
