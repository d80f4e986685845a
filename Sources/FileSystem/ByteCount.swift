/// Byte counts in words: `812 bytes`, `4 KiB`, `1.5 MiB`, `600 MiB` (whole numbers exactly, others to
/// one decimal).
public enum ByteCount {
  public static func text(_ bytes: Int) -> String {
    for (unit, size) in [("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)] where bytes >= size {
      if bytes % size == 0 { return "\(bytes / size) \(unit)" }
      let tenths = (Double(bytes) / Double(size) * 10).rounded() / 10
      return "\(tenths) \(unit)"
    }
    return bytes == 1 ? "1 byte" : "\(bytes) bytes"
  }
}
