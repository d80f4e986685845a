import CSQLite
import Foundation

/// A prepared statement of a `SQLiteConnection`: binding, stepping and reading columns. Valid while its
/// connection is open; used on the connection's thread.
public struct SQLiteStatement {
  let handle: OpaquePointer
  unowned let connection: SQLiteConnection

  /// Frees a statement from `SQLiteConnection.fresh`.
  public func finalize() {
    sqlite3_finalize(handle)
  }

  /// Clears the bindings and rewinds, so the statement can run again.
  public func reset() {
    sqlite3_reset(handle)
    sqlite3_clear_bindings(handle)
  }

  /// Binds `values` to parameters 1, 2, ….
  public func bind(_ values: [SQLiteValue]) throws(SQLiteError) {
    for (offset, value) in values.enumerated() {
      let index = Int32(offset + 1)
      let status: Int32
      switch value {
      case .null:
        status = sqlite3_bind_null(handle, index)
      case .integer(let number):
        status = sqlite3_bind_int64(handle, index, number)
      case .real(let number):
        status = sqlite3_bind_double(handle, index, number)
      case .text(let text):
        // The length is given, so text with NUL characters in it is stored whole.
        status = sqlite3_bind_text(handle, index, text, Int32(text.utf8.count), sqliteTransient)
      case .blob(let data):
        // An empty buffer may have no address, and binding a nil address stores NULL, not a blob.
        status =
          data.isEmpty
          ? sqlite3_bind_zeroblob(handle, index, 0)
          : data.withUnsafeBytes {
            sqlite3_bind_blob(handle, index, $0.baseAddress, Int32($0.count), sqliteTransient)
          }
      }
      guard status == SQLITE_OK else { throw connection.error(status) }
    }
  }

  /// Steps once: true when a row is ready, false when the statement is done.
  public func step() throws(SQLiteError) -> Bool {
    let status = sqlite3_step(handle)
    if status == SQLITE_ROW { return true }
    if status == SQLITE_DONE { return false }
    throw connection.error(status)
  }

  /// Steps a statement that returns no rows.
  public func run() throws(SQLiteError) {
    _ = try step()
  }

  public var columnCount: Int32 { sqlite3_column_count(handle) }

  public func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }

  public func integer(_ column: Int32) -> Int { Int(sqlite3_column_int64(handle, column)) }

  public func double(_ column: Int32) -> Double { sqlite3_column_double(handle, column) }

  public func optionalDouble(_ column: Int32) -> Double? { isNull(column) ? nil : double(column) }

  /// The column as text (empty for NULL); read by length, so NUL characters survive.
  public func string(_ column: Int32) -> String {
    guard let text = sqlite3_column_text(handle, column) else { return "" }
    let count = Int(sqlite3_column_bytes(handle, column))
    return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
  }

  public func optionalString(_ column: Int32) -> String? { isNull(column) ? nil : string(column) }

  /// The column's bytes (empty for NULL or an empty blob).
  public func blob(_ column: Int32) -> Data {
    let count = Int(sqlite3_column_bytes(handle, column))
    guard count > 0, let bytes = sqlite3_column_blob(handle, column) else { return Data() }
    return Data(bytes: bytes, count: count)
  }

  /// The column's bytes without a copy, for the length of `body`.
  public func withBlob<T>(_ column: Int32, _ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T {
    let count = Int(sqlite3_column_bytes(handle, column))
    guard count > 0, let bytes = sqlite3_column_blob(handle, column) else {
      return try body(UnsafeRawBufferPointer(start: nil, count: 0))
    }
    return try body(UnsafeRawBufferPointer(start: bytes, count: count))
  }

  /// The column as a typed value.
  public func value(_ column: Int32) -> SQLiteValue {
    switch sqlite3_column_type(handle, column) {
    case SQLITE_INTEGER: .integer(sqlite3_column_int64(handle, column))
    case SQLITE_FLOAT: .real(sqlite3_column_double(handle, column))
    case SQLITE_TEXT: .text(string(column))
    case SQLITE_BLOB: .blob(blob(column))
    default: .null
    }
  }

  /// Every column of the current row.
  public func values() -> [SQLiteValue] {
    (0..<columnCount).map(value)
  }

  /// How a message names the column's value: `NULL`, a number, `"text"` (quoted), `a blob of 12 bytes`.
  public func summary(_ column: Int32, quote: (String) -> String) -> String {
    switch sqlite3_column_type(handle, column) {
    case SQLITE_NULL: "NULL"
    case SQLITE_INTEGER, SQLITE_FLOAT: "\(double(column))"
    case SQLITE_TEXT: quote(string(column))
    default: "a blob of \(sqlite3_column_bytes(handle, column)) bytes"
    }
  }
}
