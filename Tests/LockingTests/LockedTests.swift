import Dispatch
import Locking
import XCTest

final class LockedTests: XCTestCase {
  private struct Refused: Error, Equatable {}

  func testIncrementsFromManyThreadsAreNeverLost() {
    let counter = Locked(0)
    DispatchQueue.concurrentPerform(iterations: 8) { _ in
      for _ in 0..<20_000 { counter.withLock { $0 += 1 } }
    }
    XCTAssertEqual(counter.withLock { $0 }, 160_000)
  }

  func testAReadModifyWriteUnderTheLockSeesNoOtherWriter() {
    // Each body reads, yields the processor, then writes: without mutual exclusion updates would be lost.
    let state = Locked([Int]())
    DispatchQueue.concurrentPerform(iterations: 4) { worker in
      for _ in 0..<200 {
        state.withLock { values in
          let count = values.count
          sched_yield()
          values.append(count * 10 + worker)
        }
      }
    }
    let values = state.withLock { $0 }
    XCTAssertEqual(values.count, 800)
    XCTAssertEqual(values.map { $0 / 10 }, Array(0..<800))
  }

  func testAThrowingBodyReleasesTheLockAndKeepsItsChanges() {
    let state = Locked(1)
    XCTAssertThrowsError(
      try state.withLock { (value: inout Int) throws(Refused) in
        value = 2
        throw Refused()
      }
    ) { XCTAssertEqual($0 as? Refused, Refused()) }
    // A lock left held would hang here.
    XCTAssertEqual(state.withLock { $0 }, 2)
  }
}
