import Foundation

/// A CSV file's rows read and checked on a thread of their own, a few batches ahead of the import that
/// takes them: reading, checking and deriving ids (a quarter of a million-row import) runs beside the
/// store's inserts on another core. At most `batchesAhead` batches of `batchRows` rows wait, so memory
/// stays bounded; rows, warnings and the first error come in file order, as from `CSVPlaceRows` itself.
///
/// One thread takes the rows. An import that stops early calls `abandon()`: the reader stops at its next
/// batch (it is not waited for: it may be blocked reading a terminal).
final class ReadAheadRows: @unchecked Sendable {
  static let batchRows = 512
  static let batchesAhead = 4

  private struct Batch {
    var rows: [CSVPlaceRow]
    var end: End?
  }

  private enum End {
    case endOfFile(ignoredColumnsWarning: String?)
    case failure(LocationsFileError)
  }

  /// The rows handed to the reading thread, which alone uses them from then on.
  private struct Handed: @unchecked Sendable {
    var rows: CSVPlaceRows
  }

  /// Guards `ready` and `abandoned`, and wakes the side that waits.
  private let condition = NSCondition()
  private var ready: [Batch] = []
  private var abandoned = false
  // The taking thread's own:
  private var current: [CSVPlaceRow] = []
  private var index = 0
  private var end: End?

  /// Starts reading `rows` on a new thread.
  init(_ rows: CSVPlaceRows) {
    let handed = Handed(rows: rows)
    Thread { [self] in read(handed) }.start()
  }

  /// The next row; nil at the end of the file; the file's first error where it comes.
  func next() throws(LocationsFileError) -> CSVPlaceRow? {
    while index == current.count {
      switch end {
      case .endOfFile: return nil
      case .failure(let error): throw error
      case nil: break
      }
      condition.lock()
      while ready.isEmpty { condition.wait() }
      let batch = ready.removeFirst()
      condition.broadcast()
      condition.unlock()
      (current, index, end) = (batch.rows, 0, batch.end)
    }
    defer { index += 1 }
    return current[index]
  }

  /// The warning about columns mymap does not read, once `next` has returned nil.
  var ignoredColumnsWarning: String? {
    if case .endOfFile(let warning) = end, index == current.count { return warning }
    return nil
  }

  /// Tells the reader to stop: no more rows are taken.
  func abandon() {
    condition.lock()
    abandoned = true
    ready = []
    condition.broadcast()
    condition.unlock()
  }

  private func read(_ handed: Handed) {
    var rows = handed.rows
    while true {
      var batch = Batch(rows: [], end: nil)
      batch.rows.reserveCapacity(Self.batchRows)
      do {
        while batch.rows.count < Self.batchRows {
          guard let row = try rows.next() else {
            batch.end = .endOfFile(ignoredColumnsWarning: rows.ignoredColumnsWarning())
            break
          }
          batch.rows.append(row)
        }
      } catch {
        batch.end = .failure(error)
      }
      condition.lock()
      while ready.count >= Self.batchesAhead && !abandoned { condition.wait() }
      let stop = abandoned || batch.end != nil
      if !abandoned {
        ready.append(batch)
        condition.broadcast()
      }
      condition.unlock()
      if stop { return }
    }
  }
}
