import Foundation

/// A value bound to a statement parameter or read from a result column.
public enum SQLiteValue: Equatable, Sendable {
  case null
  case integer(Int64)
  case real(Double)
  case text(String)
  case blob(Data)

  /// `.real`, or `.null` for nil.
  public static func real(_ value: Double?) -> SQLiteValue { value.map { .real($0) } ?? .null }

  /// `.text`, or `.null` for nil.
  public static func text(_ value: String?) -> SQLiteValue { value.map { .text($0) } ?? .null }

  /// `.integer` from an `Int`.
  public static func integer(_ value: Int) -> SQLiteValue { .integer(Int64(value)) }

  public var integer: Int? {
    if case .integer(let value) = self { return Int(value) }
    return nil
  }

  /// A REAL column (an INTEGER one too: SQLite stores whole REAL values compactly as integers on disk,
  /// but returns them as REAL; a column written by another tool may hold either).
  public var real: Double? {
    switch self {
    case .real(let value): return value
    case .integer(let value): return Double(value)
    default: return nil
    }
  }

  public var text: String? {
    if case .text(let value) = self { return value }
    return nil
  }

  public var blob: Data? {
    if case .blob(let value) = self { return value }
    return nil
  }
}
