import TileFetching
import XCTest

/// The `TileFetchError` that `fetch` throws; fails the test (and returns nil) when it returns a tile or
/// throws anything else.
public func expectTileFetchError(
  file: StaticString = #filePath, line: UInt = #line, _ fetch: () async throws -> FetchedTile
) async -> TileFetchError? {
  do {
    let result = try await fetch()
    XCTFail("expected an error, got \(result)", file: file, line: line)
  } catch let error as TileFetchError {
    return error
  } catch {
    XCTFail("expected a TileFetchError, got \(error)", file: file, line: line)
  }
  return nil
}

/// Waits for `fetching` and checks that it ended in `CancellationError`, not with a tile or another error.
public func assertCancelled(
  _ fetching: Task<FetchedTile, any Error>, file: StaticString = #filePath, line: UInt = #line
) async {
  do {
    let result = try await fetching.value
    XCTFail("expected cancellation, got \(result)", file: file, line: line)
  } catch {
    XCTAssertTrue(error is CancellationError, "\(error)", file: file, line: line)
  }
}
