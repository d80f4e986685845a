import Foundation
import TileFetching
import XCTest

/// The real clock that `TileFetcher` waits on unless told otherwise.
final class SystemClockTests: XCTestCase {
  func testNowIsTheSystemsTimeAndASleepTakesItsTime() async throws {
    let clock = SystemClock()
    XCTAssertLessThan(abs(clock.now().timeIntervalSinceNow), 1)
    let started = Date()
    try await clock.sleep(seconds: 0)
    try await clock.sleep(seconds: -3)
    XCTAssertLessThan(Date().timeIntervalSince(started), 0.5, "no wait for 0 s or less")
    try await clock.sleep(seconds: 0.05)
    XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(started), 0.05)
  }

  func testACancelledSleepEndsAtOnceWithCancellation() async {
    let started = Date()
    let sleeper = Task { try await SystemClock().sleep(seconds: 30) }
    sleeper.cancel()
    do {
      try await sleeper.value
      XCTFail("a cancelled sleep should throw")
    } catch {
      XCTAssertTrue(error is CancellationError, "\(error)")
    }
    XCTAssertLessThan(Date().timeIntervalSince(started), 10)
  }
}
