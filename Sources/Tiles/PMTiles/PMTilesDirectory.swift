/// One directory entry: a run of tiles sharing one blob of tile data, or (run length 0) a leaf directory
/// covering tile ids from `tileID` up to the next entry's.
public struct PMTilesEntry: Equatable, Sendable {
  public var tileID: UInt64
  /// Relative to the tile data section (tiles) or the leaf directories section (leaves).
  public var offset: UInt64
  public var length: UInt32
  public var runLength: UInt32

  public init(tileID: UInt64, offset: UInt64, length: UInt32, runLength: UInt32) {
    self.tileID = tileID
    self.offset = offset
    self.length = length
    self.runLength = runLength
  }

  /// True when the entry points to a leaf directory rather than to tile data.
  public var isLeaf: Bool { runLength == 0 }
}

/// A decoded (already inflated) directory: entries in ascending tile id order, each checked against the
/// section it points into.
public struct PMTilesDirectory: Equatable, Sendable {
  public let entries: [PMTilesEntry]

  /// Decodes the columnar varint layout of spec §4.2: count, tile id deltas, run lengths, lengths,
  /// offsets (0 meaning "right after the previous entry"). Tile entries must fit `tileDataLength`, leaf
  /// entries `leafDirectoriesLength`.
  public init(decoding bytes: [UInt8], tileDataLength: UInt64, leafDirectoriesLength: UInt64)
    throws(PMTilesDirectoryProblem)
  {
    var reader = VarintReader(bytes: bytes)
    let count = try reader.next()
    guard count > 0 else { throw .empty }
    guard count <= UInt64(PMTilesLimits.maximumDirectoryEntries) else { throw .tooManyEntries(count) }
    // Each entry takes at least four bytes, one per column: refuse a count the bytes cannot hold.
    guard count <= UInt64(bytes.count / 4) else { throw .truncated }
    let n = Int(count)

    var ids = [UInt64](repeating: 0, count: n)
    var previous: UInt64 = 0
    for index in 0..<n {
      let delta = try reader.next()
      let (id, overflow) = previous.addingReportingOverflow(delta)
      guard !overflow, index == 0 || delta > 0 else { throw .outOfOrder(entry: index) }
      ids[index] = id
      previous = id
    }
    var runs = [UInt32](repeating: 0, count: n)
    for index in 0..<n { runs[index] = try reader.next32(entry: index) }
    var lengths = [UInt32](repeating: 0, count: n)
    for index in 0..<n {
      lengths[index] = try reader.next32(entry: index)
      guard lengths[index] > 0 else { throw .badLength(entry: index) }
    }

    var entries: [PMTilesEntry] = []
    entries.reserveCapacity(n)
    for index in 0..<n {
      let encoded = try reader.next()
      var offset = encoded &- 1
      if encoded == 0 {
        guard let last = entries.last else { throw .missingOffset }
        let (next, overflow) = last.offset.addingReportingOverflow(UInt64(last.length))
        guard !overflow else { throw .outOfBounds(entry: index) }
        offset = next
      }
      let entry = PMTilesEntry(
        tileID: ids[index], offset: offset, length: lengths[index], runLength: runs[index])
      let (end, overflow) = offset.addingReportingOverflow(UInt64(entry.length))
      guard !overflow, end <= (entry.isLeaf ? leafDirectoriesLength : tileDataLength) else {
        throw .outOfBounds(entry: index)
      }
      // A run must end before the next entry starts.
      if let last = entries.last, !last.isLeaf {
        let (runEnd, overflow) = last.tileID.addingReportingOverflow(UInt64(last.runLength))
        guard !overflow, runEnd <= entry.tileID else { throw .outOfOrder(entry: index) }
      }
      entries.append(entry)
    }
    guard reader.isAtEnd else { throw .trailingBytes }
    self.entries = entries
  }

  /// The entry for `tileID`: the run holding it, or the leaf directory whose range holds it; nil when
  /// the directory says the tile is absent.
  public func entry(for tileID: UInt64) -> PMTilesEntry? {
    // The last entry whose id is at most `tileID`.
    var low = 0
    var high = entries.count
    while low < high {
      let middle = (low + high) / 2
      if entries[middle].tileID <= tileID { low = middle + 1 } else { high = middle }
    }
    guard low > 0 else { return nil }
    let candidate = entries[low - 1]
    if candidate.isLeaf || tileID - candidate.tileID < UInt64(candidate.runLength) { return candidate }
    return nil
  }
}

/// Little-endian base-128 varints, as directories store every number.
private struct VarintReader {
  let bytes: [UInt8]
  var position = 0

  var isAtEnd: Bool { position == bytes.count }

  mutating func next() throws(PMTilesDirectoryProblem) -> UInt64 {
    var value: UInt64 = 0
    var shift: UInt64 = 0
    while true {
      guard position < bytes.count else { throw .truncated }
      let byte = bytes[position]
      position += 1
      guard shift < 63 || byte <= 1 else { throw .malformedVarint }
      value |= UInt64(byte & 0x7F) << shift
      if byte < 0x80 { return value }
      shift += 7
    }
  }

  /// A run length or length, which the spec makes 32-bit.
  mutating func next32(entry: Int) throws(PMTilesDirectoryProblem) -> UInt32 {
    let value = try next()
    guard value <= UInt64(UInt32.max) else { throw .badLength(entry: entry) }
    return UInt32(value)
  }
}
