import Foundation
import MapMath
import TestSupport
import TileFetching
import Tiles
import XCTest

/// Values collected from several threads, in the order they came.
final class SharedList<Value: Sendable>: @unchecked Sendable {
  // The lock guards `values`.
  private let lock = NSLock()
  private var values: [Value] = []

  var list: [Value] {
    lock.lock()
    defer { lock.unlock() }
    return values
  }

  func add(_ value: Value) {
    lock.lock()
    values.append(value)
    lock.unlock()
  }
}

/// The two kinds of tile cache a download writes into.
enum TestCacheKind: String, CaseIterable {
  case directory
  case mbtiles

  /// A new cache path of this kind inside `folder`.
  func path(in folder: String) -> String {
    self == .directory ? folder + "/cache" : folder + "/cache.mbtiles"
  }
}

/// Every file under `folder` whose name ends in `.tmp`.
func temporaryFileNames(under folder: String) -> [String] {
  (FileManager.default.subpaths(atPath: folder) ?? []).filter { $0.hasSuffix(".tmp") }
}

/// `TileDownload` against `FakeTileServer` (tile_server.py's behaviours in virtual time): what is stored,
/// revalidated, counted and reported, and which requests are made.
final class TileDownloadTests: XCTestCase {
  private var server: FakeTileServer!
  private var folder: String!
  /// The download's clock: 2015, far from the server's real one.
  private let t0 = VirtualClock.defaultStart

  override func setUpWithError() throws {
    server = FakeTileServer()
    folder = try makeTemporaryFolder(self)
  }

  /// The waits the fetcher asked for.
  private var sleeps: [Double] { server.clock.sleeps }

  private func fetcher() -> TileFetcher {
    server.fetcher(
      version: "0.0.1-test", policy: TileFetchPolicy(baseDelay: 0, maximumRetryAfter: 30, timeout: 5))
  }

  private func openCache(_ kind: TestCacheKind, for template: TileURLTemplate, name: String = "")
    throws -> any TileCacheStore
  {
    try openTileCache(
      at: kind.path(in: folder + "/" + kind.rawValue + name),
      for: TileCacheDescription(source: template.redacted, attribution: "© Test", tileSize: 256))
  }

  /// A download into `cache`; with `time`, the clock is set to it first.
  private func makeDownload(
    _ template: TileURLTemplate, into cache: any TileCacheStore, at time: Date? = nil, concurrency: Int = 2
  ) -> TileDownload {
    if let time { server.clock.set(time) }
    return TileDownload(template: template, fetcher: fetcher(), cache: cache, concurrency: concurrency)
  }

  /// Tiles `z/0/0` … `z/(count-1)/0`: with a `{s:…}` template, tile x asks for the x-th behaviour.
  private func row(_ count: Int, zoom: Int = 4) -> [TileID] {
    (0..<count).map { tile(zoom, $0, 0) }
  }

  /// A template whose first path segment cycles through `behaviours` by the tile's x + y.
  private func mixed(_ behaviours: [String], query: String = "") throws -> TileURLTemplate {
    try TileURLTemplate(
      "\(server.baseURL)/{s:\(behaviours.joined(separator: ","))}/{z}/{x}/{y}.png"
        + (query.isEmpty ? "" : "?" + query),
      environment: [:])
  }

  private func record(etag: String? = nil, expires: Date, fetched: Date? = nil) -> TileFreshness {
    TileFreshness(etag: etag, expires: expires, fetched: fetched ?? expires.addingTimeInterval(-86_400))
  }

  // MARK: pending()

  func testPendingListsAbsentAndStaleTilesAndSkipsFreshOnes() throws {
    let template = try server.template("ok")
    let png = try pngTile(red: 9)
    let (absent, fresh, stale, expiring) = (tile(5, 1, 1), tile(5, 2, 1), tile(5, 3, 1), tile(5, 4, 1))
    let staleRecord = record(etag: "\"s\"", expires: t0.addingTimeInterval(-1))
    let freshRecord = record(expires: t0.addingTimeInterval(3_600))
    let expiringRecord = record(expires: t0.addingTimeInterval(60))
    for kind in TestCacheKind.allCases {
      let cache = try openCache(kind, for: template)
      try cache.store(fresh, data: png, freshness: freshRecord)
      try cache.store(stale, data: png, freshness: staleRecord)
      try cache.store(expiring, data: png, freshness: expiringRecord)
      try cache.commit()
      server.clock.set(t0)
      let download = makeDownload(template, into: cache)
      let tiles = [absent, fresh, stale, expiring]
      XCTAssertEqual(
        try download.pending(tiles),
        [
          PendingTile(tile: absent, cached: nil, hasCachedCopy: false),
          PendingTile(tile: stale, cached: staleRecord, hasCachedCopy: true),
        ], kind.rawValue)
      // Exactly at its expiry a tile is stale.
      server.clock.set(t0.addingTimeInterval(60))
      XCTAssertEqual(
        try download.pending(tiles).map(\.tile), [absent, stale, expiring], kind.rawValue)
      XCTAssertEqual(try download.pending(tiles)[2].cached, expiringRecord, kind.rawValue)
      // Two hours on, every tile needs a request; only the absent one has no copy.
      server.clock.set(t0.addingTimeInterval(7_200))
      XCTAssertEqual(
        try download.pending(tiles).map(\.tile), [absent, fresh, stale, expiring], kind.rawValue)
      XCTAssertEqual(
        try download.pending(tiles).map(\.hasCachedCopy), [false, true, true, true], kind.rawValue)
      XCTAssertEqual(try download.pending([]), [], kind.rawValue)
    }
    XCTAssertEqual(server.requests().count, 0, "pending() never asks the server")
  }

  func testPendingTilesWithoutARecordOrWithoutTheirFile() throws {
    let template = try server.template("ok")
    let cache = try openCache(.directory, for: template)
    let cacheFolder = TestCacheKind.directory.path(in: folder + "/directory")
    // A tile put there by another tool: no record, so it is fetched unconditionally but counts as a copy.
    try FileManager.default.createDirectory(atPath: cacheFolder + "/5/7", withIntermediateDirectories: true)
    try pngTile().write(to: URL(fileURLWithPath: cacheFolder + "/5/7/3.png"))
    // A record whose tile file was removed (pruned meanwhile): no copy, and no validators to send.
    try cache.store(tile(5, 8, 3), data: try pngTile(), freshness: record(etag: "\"x\"", expires: t0))
    try cache.commit()
    try FileManager.default.removeItem(atPath: cacheFolder + "/5/8/3.png")
    XCTAssertEqual(
      try cache.entry(for: tile(5, 8, 3)),
      CachedTileEntry(freshness: record(etag: "\"x\"", expires: t0), isPresent: false))

    let download = makeDownload(template, into: cache, at: t0)
    XCTAssertEqual(
      try download.pending([tile(5, 7, 3), tile(5, 8, 3)]),
      [
        PendingTile(tile: tile(5, 7, 3), cached: nil, hasCachedCopy: true),
        PendingTile(tile: tile(5, 8, 3), cached: nil, hasCachedCopy: false),
      ])
  }

  // MARK: Storing

  func testRunStoresEveryTileInBothCacheKinds() async throws {
    let template = try server.template("ok")
    let served = FakeTileServer.png256
    let tiles = row(5) + [tile(6, 33, 21)]
    var requestsSoFar = 0
    for kind in TestCacheKind.allCases {
      let cache = try openCache(kind, for: template)
      let download = makeDownload(template, into: cache, at: t0, concurrency: 3)
      let pending = try download.pending(tiles)
      XCTAssertEqual(pending.count, tiles.count)
      let report = try await download.run(pending)

      var expected = TileDownloadReport()
      expected.requested = tiles.count
      expected.stored = tiles.count
      expected.bytes = tiles.count * served.count
      XCTAssertEqual(report, expected, kind.rawValue)
      XCTAssertNil(report.failureSummary)
      let requests = server.requests().dropFirst(requestsSoFar)
      requestsSoFar += requests.count
      XCTAssertEqual(
        requests.map(\.path).sorted(),
        [
          "/ok/4/0/0.png", "/ok/4/1/0.png", "/ok/4/2/0.png", "/ok/4/3/0.png", "/ok/4/4/0.png",
          "/ok/6/33/21.png",
        ],
        kind.rawValue)

      // Read back through a cache opened afresh (another connection for MBTiles): committed.
      let reopened = try openCache(kind, for: template)
      let source = try reopened.tileSource()
      XCTAssertEqual(source.zoomRange, 4...6, kind.rawValue)
      for id in tiles {
        XCTAssertEqual(try source.tileData(id), served, "\(kind) \(id)")
        // No cache headers from /ok: the default 7 days from the download's clock.
        XCTAssertEqual(
          try reopened.entry(for: id),
          CachedTileEntry(
            freshness: TileFreshness(expires: t0.addingTimeInterval(7 * 86_400), fetched: t0), isPresent: true
          ),
          "\(kind) \(id)")
      }
      XCTAssertNil(try source.tileData(tile(4, 5, 0)))
      XCTAssertEqual(temporaryFileNames(under: folder), [])

      // A second run with the same clock has nothing to do.
      let again = makeDownload(template, into: reopened, at: t0)
      let nothing = try again.pending(tiles)
      XCTAssertEqual(nothing, [], kind.rawValue)
      let empty = try await again.run(nothing)
      XCTAssertEqual(empty, TileDownloadReport(), kind.rawValue)
      XCTAssertEqual(server.requests().count, requestsSoFar, "\(kind): no request for fresh tiles")
    }
    XCTAssertEqual(sleeps, [])
  }

  func testStaleTileWithAnETagIsRevalidated() async throws {
    let template = try server.template("etag", query: "max_age=120")
    let served = FakeTileServer.png256
    let id = tile(7, 65, 42)
    for kind in TestCacheKind.allCases {
      let before = server.requests().count
      let cache = try openCache(kind, for: template)
      server.clock.set(t0)
      let first = try await makeDownload(template, into: cache).run(
        makeDownload(template, into: cache).pending([id]))
      XCTAssertEqual(first.stored, 1, kind.rawValue)
      XCTAssertEqual(
        try cache.entry(for: id)?.freshness,
        TileFreshness(etag: "\"v1\"", expires: t0.addingTimeInterval(120), fetched: t0), kind.rawValue)
      // Within its max-age the tile is fresh.
      server.clock.set(t0.addingTimeInterval(119))
      XCTAssertEqual(try makeDownload(template, into: cache).pending([id]), [], kind.rawValue)

      let later = t0.addingTimeInterval(3_600)
      server.clock.set(later)
      let download = makeDownload(template, into: cache)
      let pending = try download.pending([id])
      XCTAssertEqual(
        pending,
        [
          PendingTile(
            tile: id, cached: TileFreshness(etag: "\"v1\"", expires: t0.addingTimeInterval(120), fetched: t0),
            hasCachedCopy: true)
        ], kind.rawValue)
      let report = try await download.run(pending)
      var expected = TileDownloadReport()
      expected.requested = 1
      expected.confirmed = 1
      XCTAssertEqual(report, expected, kind.rawValue)

      let requests = server.requests().dropFirst(before)
      XCTAssertEqual(requests.map(\.ifNoneMatch), [nil, "\"v1\""], kind.rawValue)
      XCTAssertEqual(requests.map(\.path), ["/etag/7/65/42.png", "/etag/7/65/42.png"], kind.rawValue)
      let reopened = try openCache(kind, for: template)
      XCTAssertEqual(
        try reopened.entry(for: id),
        CachedTileEntry(
          freshness: TileFreshness(etag: "\"v1\"", expires: later.addingTimeInterval(120), fetched: later),
          isPresent: true), kind.rawValue)
      XCTAssertEqual(try reopened.tileSource().tileData(id), served, kind.rawValue)
    }
  }

  func testChangedTileIsStoredAgainWithItsNewRecord() async throws {
    let template = try server.template("changed")
    let served = FakeTileServer.png256
    let old = try pngTile(red: 7)
    let id = tile(3, 2, 5)
    for kind in TestCacheKind.allCases {
      let cache = try openCache(kind, for: template)
      try cache.store(id, data: old, freshness: record(etag: "\"v1\"", expires: t0.addingTimeInterval(-60)))
      try cache.commit()
      let later = t0.addingTimeInterval(30)
      let download = makeDownload(template, into: cache, at: later)
      let report = try await download.run(try download.pending([id]))
      XCTAssertEqual(report.stored, 1, kind.rawValue)
      XCTAssertEqual(report.confirmed, 0, kind.rawValue)
      XCTAssertEqual(report.bytes, served.count, kind.rawValue)
      XCTAssertEqual(server.requests().last?.ifNoneMatch, "\"v1\"", kind.rawValue)
      let reopened = try openCache(kind, for: template)
      XCTAssertEqual(try reopened.tileSource().tileData(id), served, kind.rawValue)
      XCTAssertEqual(
        try reopened.entry(for: id)?.freshness,
        TileFreshness(etag: "\"v2\"", expires: later.addingTimeInterval(600), fetched: later), kind.rawValue)
    }
  }

  func testNotFoundIsMissingAndNotAFailure() async throws {
    let template = try mixed(["missing", "ok"])
    let cache = try openCache(.mbtiles, for: template)
    let download = makeDownload(template, into: cache, at: t0)
    let tiles = row(6).reversed().map { $0 }
    let report = try await download.run(try download.pending(tiles))
    XCTAssertEqual(report.requested, 6)
    XCTAssertEqual(report.stored, 3)
    XCTAssertEqual(report.missing, [tile(4, 0, 0), tile(4, 2, 0), tile(4, 4, 0)], "sorted")
    XCTAssertEqual(report.failures, [])
    XCTAssertNil(report.failureSummary)
    XCTAssertEqual(server.requestCount("missing"), 3, "a 404 is not retried")
    for id in report.missing { XCTAssertNil(try cache.entry(for: id), "\(id)") }
    // The server lacks them: the next run asks again.
    XCTAssertEqual(try download.pending(tiles).map(\.tile), [tile(4, 4, 0), tile(4, 2, 0), tile(4, 0, 0)])
  }

  // MARK: Failures

  func testEveryFailureKindIsReportedAndNothingIsStored() async throws {
    // Tile x of the row asks for the x-th behaviour. None of them stops the download from asking the host
    // for the next tile; a busy server does, so it has a run (and a template) of its own below.
    let behaviours = ["html", "garbage", "error", "truncated", "small"]
    let template = try mixed(behaviours)
    let tiles = row(behaviours.count)
    let busy = try server.template("busy", query: "n=100&retry_after=0")
    let busyTile = tile(4, 9, 0)
    for kind in TestCacheKind.allCases {
      let before = server.requests().count
      let cache = try openCache(kind, for: template)
      let download = makeDownload(template, into: cache, at: t0)
      let report = try await download.run(try download.pending(tiles))
      XCTAssertEqual(report.requested, 5, kind.rawValue)
      XCTAssertEqual(report.stored, 0, kind.rawValue)
      XCTAssertEqual(report.bytes, 0, kind.rawValue)
      XCTAssertEqual(report.missing, [], kind.rawValue)
      XCTAssertEqual(report.failedWithCachedCopy, 0, kind.rawValue)
      XCTAssertEqual(report.failures.map(\.tile), tiles, kind.rawValue)
      XCTAssertEqual(
        report.failures.map(\.summaryKind),
        ["not an image", "not an image", "HTTP 500", "cut off", "wrong size"], kind.rawValue)
      XCTAssertEqual(report.failures.map(\.attempts), [1, 1, 1, 3, 1], kind.rawValue)
      let reasons = report.failures.map(\.reason)
      guard reasons.count == 5 else {
        XCTFail("\(kind): \(report.failures)")
        continue
      }
      XCTAssertEqual(reasons[0], .notAnImage(contentType: "text/html; charset=utf-8"))
      XCTAssertEqual(reasons[1], .notAnImage(contentType: "image/png"))
      XCTAssertEqual(reasons[2], .httpStatus(500, retryAfter: nil))
      XCTAssertEqual(reasons[4], .wrongSize(width: 16, height: 16, expected: 256))
      XCTAssertEqual(Set(report.failures.map(\.source)), [template.redacted])
      XCTAssertEqual(
        report.failureSummary,
        "5 of 5 tiles could not be fetched: 2 × not an image, 1 × HTTP 500, 1 × cut off, 1 × wrong size",
        kind.rawValue)
      // Retries only for the transient one: 1 + 1 + 1 + 3 + 1 requests.
      XCTAssertEqual(server.requests().count - before, 7, kind.rawValue)

      // Busy: 503 more often than the fetcher tries.
      let busyCache = try openCache(kind, for: busy, name: "-busy")
      let busyDownload = makeDownload(busy, into: busyCache, at: t0)
      let busyReport = try await busyDownload.run(try busyDownload.pending([busyTile]))
      XCTAssertEqual(busyReport.requested, 1, kind.rawValue)
      XCTAssertEqual(busyReport.stored, 0, kind.rawValue)
      XCTAssertEqual(
        busyReport.failures,
        [
          TileFetchError(
            tile: busyTile, source: busy.redacted, reason: .httpStatus(503, retryAfter: 0), attempts: 3)
        ], kind.rawValue)
      XCTAssertEqual(busyReport.failures.map(\.summaryKind), ["HTTP 503"], kind.rawValue)
      // No other tile was left unasked, so the summary has nothing to add.
      XCTAssertEqual(
        busyReport.failureSummary, "1 of 1 tiles could not be fetched: 1 × HTTP 503", kind.rawValue)
      XCTAssertEqual(server.requests().count - before, 7 + 3, kind.rawValue)

      for (opened, ids) in [(template, tiles), (busy, [busyTile])] {
        let reopened = try openCache(kind, for: opened, name: opened == busy ? "-busy" : "")
        let source = try reopened.tileSource()
        for id in ids {
          XCTAssertNil(try reopened.entry(for: id), "\(kind) \(id)")
          XCTAssertNil(try source.tileData(id), "\(kind) \(id)")
        }
      }
      // Still to do next time.
      XCTAssertEqual(try download.pending(tiles).count, 5, kind.rawValue)
      XCTAssertEqual(try busyDownload.pending([busyTile]).count, 1, kind.rawValue)
    }
    XCTAssertEqual(
      sleeps, Array(repeating: 0, count: 8),
      "a wait of 0 s before each of the 2 retries of the cut-off and of the busy tile, in each cache")
    for name in ["directory", "directory-busy"] {
      let directoryFiles = FileManager.default.subpaths(
        atPath: TestCacheKind.directory.path(in: folder + "/" + name))
      XCTAssertEqual(directoryFiles?.filter { !$0.hasPrefix("freshness.sqlite") }, ["metadata.json"], name)
    }
    XCTAssertEqual(temporaryFileNames(under: folder), [])
  }

  func testAHostThatStaysBusyOrLimitingIsNotAskedForTheOtherTiles() async throws {
    // 503 or 429 to every request: the first tile to fail its 3 attempts stops the download from asking
    // the host again. The tile in flight beside it (with concurrency 2, the second tile of the row, unless
    // it had not started yet) is finished; every later tile fails at once, with no request.
    let tiles = row(8)
    for (behaviour, status, text) in [("busy", 503, "server busy"), ("limited", 429, "too many requests")] {
      let template = try server.template(behaviour, query: "n=100&retry_after=0")
      let sleepsBefore = sleeps.count
      let cache = try openCache(.directory, for: template, name: behaviour)
      let download = makeDownload(template, into: cache, at: t0, concurrency: 2)
      let report = try await download.run(try download.pending(tiles))
      XCTAssertEqual(report.requested, 8, behaviour)
      XCTAssertEqual(report.stored, 0, behaviour)
      XCTAssertEqual(report.failures.map(\.tile), tiles, behaviour)
      XCTAssertEqual(
        report.failures.map(\.reason), Array(repeating: .httpStatus(status, retryAfter: 0), count: 8),
        behaviour)
      XCTAssertEqual(Set(report.failures.map(\.source)), [template.redacted], behaviour)
      let asked = report.failures.filter { $0.attempts > 0 }
      XCTAssertEqual(Set(asked.map(\.attempts)), [3], behaviour)
      XCTAssertTrue(
        (1...2).contains(asked.count) && Set(asked.map(\.tile)).isSubset(of: [tile(4, 0, 0), tile(4, 1, 0)]),
        "\(behaviour): \(report.failures.map(\.attempts))")
      XCTAssertEqual(report.failures.dropFirst(2).map(\.attempts), Array(repeating: 0, count: 6), behaviour)
      XCTAssertEqual(server.requestCount(behaviour), 3 * asked.count, behaviour)
      XCTAssertEqual(
        Array(sleeps.dropFirst(sleepsBefore)), Array(repeating: 0, count: 2 * asked.count), behaviour)
      let first = try XCTUnwrap(asked.first)
      XCTAssertEqual(
        report.failureSummary,
        "8 of 8 tiles could not be fetched: 8 × HTTP \(status); \(8 - asked.count) of them were not asked"
          + " for after: cannot fetch tile \(first.tile) from \(template.redacted): \(text) (HTTP \(status),"
          + " retry after 0 s) (after 3 attempts)", behaviour)
      XCTAssertEqual(
        report.failures.last?.description,
        "cannot fetch tile 4/7/0 from \(template.redacted): \(text) (HTTP \(status), retry after 0 s)",
        behaviour)
    }
  }

  func testARetryAfterLongerThanTheFetcherWaitsStopsTheHostAtOnce() async throws {
    // Retry-After 120 s is over the fetcher's 30 s: no wait, no retry, and no more requests to the host.
    let template = try server.template("limited", query: "n=100&retry_after=120")
    let cache = try openCache(.mbtiles, for: template)
    let tiles = row(6)
    let download = makeDownload(template, into: cache, at: t0, concurrency: 2)
    let report = try await download.run(try download.pending(tiles))
    XCTAssertEqual(report.failures.map(\.tile), tiles)
    XCTAssertEqual(
      report.failures.map(\.reason), Array(repeating: .httpStatus(429, retryAfter: 120), count: 6))
    // One request for each tile in flight (the first two, or only one of them if the other had not
    // started), none for the others.
    let attempts = report.failures.map(\.attempts)
    let asked = report.failures.filter { $0.attempts == 1 }
    XCTAssertTrue((1...2).contains(asked.count), "\(attempts)")
    XCTAssertEqual(Set(attempts.prefix(2)).subtracting([0, 1]), [], "\(attempts)")
    XCTAssertEqual(attempts.dropFirst(2).map { $0 }, Array(repeating: 0, count: 4))
    XCTAssertEqual(server.requestCount("limited"), asked.count)
    XCTAssertEqual(sleeps, [])
    let first = try XCTUnwrap(asked.first)
    XCTAssertEqual(
      report.failureSummary,
      "6 of 6 tiles could not be fetched: 6 × HTTP 429; \(6 - asked.count) of them were not asked for after:"
        + " cannot fetch tile \(first.tile) from \(template.redacted): too many requests (HTTP 429, retry"
        + " after 120 s)")
  }

  func testSummaryOrdersKindsByCountThenName() async throws {
    // x = 0…9: html ×4, error ×2, missing ×2, ok ×2.
    let template = try mixed(["html", "html", "error", "missing", "ok"])
    let cache = try openCache(.directory, for: template)
    let download = makeDownload(template, into: cache, at: t0)
    let report = try await download.run(try download.pending(row(10)))
    XCTAssertEqual(report.requested, 10)
    XCTAssertEqual(report.stored, 2)
    XCTAssertEqual(report.missing, [tile(4, 3, 0), tile(4, 8, 0)])
    XCTAssertEqual(
      report.failures.map(\.tile), [0, 1, 2, 5, 6, 7].map { tile(4, $0, 0) }, "sorted by tile")
    // The larger count first, although "HTTP 500" sorts before "not an image".
    XCTAssertEqual(
      report.failureSummary, "6 of 10 tiles could not be fetched: 4 × not an image, 2 × HTTP 500")
  }

  func testFailedTilesWithStaleCopiesAreCountedAndTheCopiesKept() async throws {
    let template = try server.template("error")
    let old = try pngTile(red: 77)
    let staleRecord = record(etag: "\"old\"", expires: t0.addingTimeInterval(-60))
    let tiles = [tile(6, 10, 10), tile(6, 11, 10), tile(6, 12, 10)]
    for kind in TestCacheKind.allCases {
      let cache = try openCache(kind, for: template)
      for id in tiles.prefix(2) { try cache.store(id, data: old, freshness: staleRecord) }
      try cache.commit()
      let download = makeDownload(template, into: cache, at: t0)
      let pending = try download.pending(tiles)
      XCTAssertEqual(pending.map(\.hasCachedCopy), [true, true, false], kind.rawValue)
      let report = try await download.run(pending)
      XCTAssertEqual(report.failures.count, 3, kind.rawValue)
      XCTAssertEqual(report.failedWithCachedCopy, 2, kind.rawValue)
      XCTAssertEqual(
        report.failureSummary,
        "3 of 3 tiles could not be fetched: 3 × HTTP 500 (older cached copies are used for 2 of them)",
        kind.rawValue)
      let reopened = try openCache(kind, for: template)
      let source = try reopened.tileSource()
      for id in tiles.prefix(2) {
        XCTAssertEqual(try source.tileData(id), old, "\(kind) \(id)")
        XCTAssertEqual(
          try reopened.entry(for: id), CachedTileEntry(freshness: staleRecord, isPresent: true),
          "\(kind) \(id)")
      }
      XCTAssertNil(try reopened.entry(for: tiles[2]), kind.rawValue)
    }
    // The stale copies' ETag made their requests conditional.
    XCTAssertEqual(server.requests().map(\.ifNoneMatch).filter { $0 != nil }.count, 4)
  }

  func testAnUnreachableServerIsNotAskedForEveryTile() async throws {
    let template = try TileURLTemplate("http://down.fake.test/ok/{z}/{x}/{y}.png", environment: [:])
    let cache = try openCache(.mbtiles, for: template)
    let tiles = row(16)
    let download = makeDownload(template, into: cache, at: t0, concurrency: 2)
    let report = try await download.run(try download.pending(tiles))
    XCTAssertEqual(report.requested, 16)
    XCTAssertEqual(report.stored, 0)
    XCTAssertEqual(report.failures.map(\.tile), tiles)
    XCTAssertEqual(
      report.failures.map(\.reason), Array(repeating: .cannotConnect(.cannotConnectToHost), count: 16))
    // Only the requests already in flight when the first one failed were made (one attempt each, no
    // retries, no waiting): the first tile and the one beside it, unless it had not started yet. Every
    // later tile failed at once without a request.
    let attempts = report.failures.map(\.attempts)
    let asked = report.failures.filter { $0.attempts == 1 }
    XCTAssertTrue((1...2).contains(asked.count), "\(attempts)")
    XCTAssertEqual(Set(attempts.prefix(2)).subtracting([0, 1]), [], "\(attempts)")
    XCTAssertEqual(attempts.dropFirst(2).map { $0 }, Array(repeating: 0, count: 14), "\(attempts)")
    XCTAssertEqual(sleeps, [])
    let first = try XCTUnwrap(asked.first)
    XCTAssertEqual(
      report.failureSummary,
      "16 of 16 tiles could not be fetched: 16 × cannot connect; \(16 - asked.count) of them were not asked"
        + " for after: cannot fetch tile \(first.tile) from http://down.fake.test/ok/{z}/{x}/{y}.png:"
        + " connection failed (cannot connect to the server)")
    XCTAssertEqual(
      report.failures.last?.description,
      "cannot fetch tile 4/15/0 from http://down.fake.test/ok/{z}/{x}/{y}.png: "
        + "connection failed (cannot connect to the server)")
  }

  func testAnUnreachableSubdomainDoesNotStopTheOtherHost() async throws {
    // {s} alternates between the server and a host that cannot be reached: the tiles of the first host
    // are all fetched.
    let template = try TileURLTemplate(
      "http://{s:tiles.fake.test,down.fake.test}/ok/{z}/{x}/{y}.png", environment: [:])
    let cache = try openCache(.directory, for: template)
    let tiles = row(10)
    let download = makeDownload(template, into: cache, at: t0, concurrency: 2)
    let report = try await download.run(try download.pending(tiles))
    XCTAssertEqual(report.stored, 5)
    XCTAssertEqual(report.failures.count, 5)
    XCTAssertEqual(Set(report.failures.map { $0.tile.x % 2 }), [1])
    XCTAssertEqual(server.requestCount("ok"), 5)
  }

  func testADownloadCountsARefusedRedirectAsAFailureAndSaysSo() async throws {
    let template = try server.template("redirect", query: "to=file%3A%2F%2F%2Fetc%2Fhostname")
    let cache = try openTileCache(
      at: folder + "/cache",
      for: TileCacheDescription(source: template.redacted, attribution: nil, tileSize: 256))
    let someTile = tile(3, 5, 2)
    let download = TileDownload(template: template, fetcher: fetcher(), cache: cache)
    let report = try await download.run(try download.pending([someTile]))
    XCTAssertEqual(report.stored, 0)
    XCTAssertEqual(report.missing, [])
    XCTAssertEqual(
      report.failureSummary,
      "1 of 1 tiles could not be fetched: 1 × redirect not followed; the first: cannot fetch tile 3/5/2 from"
        + " \(template.redacted): the server redirected to file:///etc/hostname, which mymap does not follow"
        + " (only http and https)")
    XCTAssertNil(try cache.entry(for: someTile))
  }

  // MARK: Concurrency, progress and cancellation

  func testOneRequestInFlightAtConcurrencyOne() async throws {
    // Each answer takes 0.2 s: a download that did not wait for it would have logged the next
    // requests by the time the answer is reported.
    let template = try server.template("slow", query: "delay=0.2")
    let cache = try openCache(.directory, for: template)
    let download = makeDownload(template, into: cache, at: t0, concurrency: 1)
    let server = server!
    let seen = SharedList<(done: Int, requests: Int)>()
    let report = try await download.run(try download.pending(row(4))) { progress in
      seen.add((progress.done, server.requests().count))
    }
    XCTAssertEqual(report.stored, 4)
    XCTAssertEqual(seen.list.map { $0.done }, [1, 2, 3, 4])
    XCTAssertEqual(
      seen.list.map { $0.requests }, [1, 2, 3, 4], "requests the server had seen at each answer")
    XCTAssertEqual(server.transport.maximumInFlight, 1)
  }

  func testNeverMoreRequestsThanTheConcurrencyAllows() async throws {
    let template = try server.template("slow", query: "delay=0.15")
    let cache = try openCache(.mbtiles, for: template)
    let download = makeDownload(template, into: cache, at: t0, concurrency: 2)
    let server = server!
    let seen = SharedList<(done: Int, requests: Int)>()
    let report = try await download.run(try download.pending(row(6))) { progress in
      seen.add((progress.done, server.requests().count))
    }
    XCTAssertEqual(report.stored, 6)
    XCTAssertEqual(seen.list.map { $0.done }, [1, 2, 3, 4, 5, 6])
    for (done, requests) in seen.list {
      // Answered: `done`; started: at most `done` + 1 more (two in flight, one of them just answered).
      XCTAssertGreaterThanOrEqual(requests, done)
      XCTAssertLessThanOrEqual(requests, min(done + 1, 6), "at \(done) answers")
    }
    XCTAssertEqual(server.requests().count, 6)
    XCTAssertLessThanOrEqual(server.transport.maximumInFlight, 2)
  }

  func testProgressIsMonotonicAndEndsWithEveryTile() async throws {
    let template = try server.template("ok")
    let served = FakeTileServer.png256
    let cache = try openCache(.directory, for: template)
    let download = makeDownload(template, into: cache, at: t0, concurrency: 3)
    let seen = SharedList<TileDownloadProgress>()
    let report = try await download.run(try download.pending(row(7))) { seen.add($0) }
    let progress = seen.list
    XCTAssertEqual(progress.map(\.done), [1, 2, 3, 4, 5, 6, 7])
    XCTAssertEqual(Set(progress.map(\.total)), [7])
    XCTAssertEqual(progress.map(\.bytes), (1...7).map { $0 * served.count })
    XCTAssertEqual(progress.last?.bytes, report.bytes)
    XCTAssertEqual(progress.map(\.elapsed), progress.map(\.elapsed).sorted())
    XCTAssertGreaterThanOrEqual(progress.first?.elapsed ?? -1, 0)
  }

  func testCancellingASlowDownloadKeepsAndCommitsWhatWasStored() throws {
    // Tiles x = 3 and x = 7 hang until they are cancelled; the others answer at once. With two requests in
    // flight the second hanging request starts only after tiles 0, 1, 2, 4, 5 and 6 are stored.
    let template = try mixed(["ok", "ok", "ok", "hang"])
    let served = FakeTileServer.png256
    let tiles = row(8)
    for kind in TestCacheKind.allCases {
      let before = server.requestCount("hang")
      let cache = try openCache(kind, for: template)
      let download = makeDownload(template, into: cache, at: t0, concurrency: 2)
      let pending = try download.pending(tiles)
      let cancellation = FetchCancellation()
      let server = server!
      // Flip the switch once the server has both hanging requests: both are then in flight.
      let watcher = Thread {
        let deadline = Date().addingTimeInterval(10)
        while server.requestCount("hang") < before + 2 && Date() < deadline { usleep(1_000) }
        cancellation.cancel()
      }
      watcher.start()
      let started = Date()
      XCTAssertThrowsError(try cancellation.wait { try await download.run(pending) }, kind.rawValue) {
        error in
        XCTAssertEqual(error as? TileDownloadError, .interrupted(stored: 6, of: 8), kind.rawValue)
        XCTAssertEqual(
          "\(error)", "interrupted: 6 of 8 tiles were fetched and kept; the cache is consistent")
      }
      XCTAssertLessThan(Date().timeIntervalSince(started), 20, "the hanging requests were not waited for")
      XCTAssertTrue(cancellation.isCancelled)

      // Everything stored before the cancel is committed: another opening sees tiles and records.
      let reopened = try openCache(kind, for: template)
      let source = try reopened.tileSource()
      for x in [0, 1, 2, 4, 5, 6] {
        XCTAssertEqual(try source.tileData(tile(4, x, 0)), served, "\(kind) x=\(x)")
        XCTAssertEqual(
          try reopened.entry(for: tile(4, x, 0))?.freshness,
          TileFreshness(expires: t0.addingTimeInterval(7 * 86_400), fetched: t0), "\(kind) x=\(x)")
      }
      for x in [3, 7] {
        XCTAssertNil(try reopened.entry(for: tile(4, x, 0)), "\(kind) x=\(x)")
        XCTAssertNil(try source.tileData(tile(4, x, 0)), "\(kind) x=\(x)")
      }
      // No partial files: no temporary tiles, no leftover rollback journal.
      XCTAssertEqual(temporaryFileNames(under: folder), [], kind.rawValue)
      XCTAssertFalse(
        FileManager.default.fileExists(
          atPath: TestCacheKind.mbtiles.path(in: folder + "/mbtiles") + "-journal"))
      // The next run asks only for the two that were interrupted.
      XCTAssertEqual(
        try makeDownload(template, into: reopened, at: t0).pending(tiles).map(
          \.tile),
        [tile(4, 3, 0), tile(4, 7, 0)], kind.rawValue)
    }
  }

  func testCancelledBeforeItStartsNothingIsFetched() throws {
    // Requests that never end unless cancelled: whether the cancel comes before or after the download's
    // first request, nothing is stored.
    let template = try server.template("hang")
    let cache = try openCache(.mbtiles, for: template)
    let download = makeDownload(template, into: cache, at: t0)
    let pending = try download.pending(row(3))
    let cancellation = FetchCancellation()
    cancellation.cancel()
    XCTAssertThrowsError(try cancellation.wait { try await download.run(pending) }) { error in
      XCTAssertEqual(error as? TileDownloadError, .interrupted(stored: 0, of: 3))
    }
    XCTAssertEqual(try download.pending(row(3)).count, 3)
  }
}

/// The texts and the cancellation switch of a download: no server needed.
final class TileDownloadTextTests: XCTestCase {
  func testFailureSummaryText() {
    var report = TileDownloadReport()
    XCTAssertNil(report.failureSummary)
    report.requested = 40
    func failure(_ x: Int, _ reason: TileFetchError.Reason) -> TileFetchError {
      TileFetchError(tile: tile(5, x, 0), source: "S", reason: reason, attempts: 1)
    }
    report.failures =
      (0..<10).map { failure($0, .httpStatus(503, retryAfter: nil)) }
      + [failure(10, .notAnImage(contentType: nil)), failure(11, .notAnImage(contentType: "text/html"))]
    XCTAssertEqual(
      report.failureSummary, "12 of 40 tiles could not be fetched: 10 × HTTP 503, 2 × not an image")
    report.failures += [
      failure(12, .timedOut), failure(13, .timedOut), failure(14, .truncated(bytesMissing: 3)),
    ]
    XCTAssertEqual(
      report.failureSummary,
      "15 of 40 tiles could not be fetched: 10 × HTTP 503, 2 × not an image, 2 × timed out, 1 × cut off")
    report.failedWithCachedCopy = 4
    XCTAssertEqual(
      report.failureSummary,
      "15 of 40 tiles could not be fetched: 10 × HTTP 503, 2 × not an image, 2 × timed out, 1 × cut off"
        + " (older cached copies are used for 4 of them)")
  }

  func testFailureSummarySaysHowManyTilesWereNotAskedForAndWhy() {
    var report = TileDownloadReport()
    report.requested = 9
    func failure(_ x: Int, _ reason: TileFetchError.Reason, attempts: Int) -> TileFetchError {
      TileFetchError(tile: tile(5, x, 0), source: "S", reason: reason, attempts: attempts)
    }
    let busy = TileFetchError.Reason.httpStatus(503, retryAfter: 2)
    // A 500 does not stop the host; the first failure that does, in tile order, is named.
    report.failures = [
      failure(0, .httpStatus(500, retryAfter: nil), attempts: 1), failure(1, busy, attempts: 3),
      failure(2, busy, attempts: 3), failure(3, busy, attempts: 0), failure(4, busy, attempts: 0),
    ]
    XCTAssertEqual(
      report.failureSummary,
      "5 of 9 tiles could not be fetched: 4 × HTTP 503, 1 × HTTP 500; 2 of them were not asked for after:"
        + " cannot fetch tile 5/1/0 from S: server busy (HTTP 503, retry after 2 s) (after 3 attempts)")
    report.failedWithCachedCopy = 1
    XCTAssertEqual(
      report.failureSummary,
      "5 of 9 tiles could not be fetched: 4 × HTTP 503, 1 × HTTP 500 (older cached copies are used for 1 of"
        + " them); 2 of them were not asked for after: cannot fetch tile 5/1/0 from S: server busy (HTTP 503,"
        + " retry after 2 s) (after 3 attempts)")
    // A host that cannot be reached is named after its one attempt, and 429 stops a host too.
    report.failedWithCachedCopy = 0
    report.failures = [
      failure(0, .cannotConnect(.unknownHost), attempts: 1),
      failure(1, .cannotConnect(.unknownHost), attempts: 0),
    ]
    XCTAssertEqual(
      report.failureSummary,
      "2 of 9 tiles could not be fetched: 2 × cannot connect; 1 of them were not asked for after: cannot"
        + " fetch tile 5/0/0 from S: connection failed (unknown host)")
    report.failures = [
      failure(0, .httpStatus(429, retryAfter: nil), attempts: 2),
      failure(1, .httpStatus(429, retryAfter: nil), attempts: 0),
    ]
    XCTAssertEqual(
      report.failureSummary,
      "2 of 9 tiles could not be fetched: 2 × HTTP 429; 1 of them were not asked for after: cannot fetch"
        + " tile 5/0/0 from S: too many requests (HTTP 429) (after 2 attempts)")
    // Every tile asked: nothing to add.
    report.failures = [failure(0, busy, attempts: 3), failure(1, busy, attempts: 3)]
    XCTAssertEqual(report.failureSummary, "2 of 9 tiles could not be fetched: 2 × HTTP 503")
  }

  func testFetchCancellationRunsHandlersOnceAndWaitReturnsResults() throws {
    let cancellation = FetchCancellation()
    XCTAssertFalse(cancellation.isCancelled)
    XCTAssertEqual(try cancellation.wait { 6 * 7 }, 42)
    struct Failure: Error, Equatable {}
    XCTAssertThrowsError(try cancellation.wait { () async throws -> Int in throw Failure() }) { error in
      XCTAssertEqual(error as? Failure, Failure())
    }
    let calls = SharedList<String>()
    cancellation.onCancel { calls.add("first") }
    cancellation.onCancel { calls.add("second") }
    XCTAssertEqual(calls.list, [])
    cancellation.cancel()
    cancellation.cancel()
    XCTAssertTrue(cancellation.isCancelled)
    XCTAssertEqual(calls.list, ["first", "second"], "each handler once")
    // Registered after the switch was flipped: runs at once.
    cancellation.onCancel { calls.add("late") }
    XCTAssertEqual(calls.list, ["first", "second", "late"])
    // Work started after the cancel is cancelled at once (it would otherwise sleep 30 s).
    let started = Date()
    XCTAssertThrowsError(
      try cancellation.wait { () async throws -> Int in
        try await Task.sleep(nanoseconds: 30_000_000_000)
        return 1
      }
    ) { error in
      XCTAssertTrue(error is CancellationError, "\(error)")
    }
    XCTAssertLessThan(Date().timeIntervalSince(started), 10)
  }

  func testProgressLineText() {
    func line(_ done: Int, _ total: Int, _ bytes: Int, _ elapsed: Double) -> String {
      TileDownloadProgress(done: done, total: total, bytes: bytes, elapsed: elapsed).line
    }
    XCTAssertEqual(line(120, 400, 2_300_000, 4), "tiles 120/400  30%  2.3 MB  30 tiles/s  ETA 0:10")
    XCTAssertEqual(line(5, 100, 812, 2), "tiles 5/100  5%  812 B  2.5 tiles/s  ETA 0:38")
    XCTAssertEqual(line(10, 1_000, 14_200, 10), "tiles 10/1000  1%  14.2 kB  1.0 tiles/s  ETA 16:30")
    XCTAssertEqual(line(1, 10_000, 1_050_000_000, 1), "tiles 1/10000  0%  1.05 GB  1.0 tiles/s  ETA 2:46:39")
    XCTAssertEqual(line(399, 400, 999, 1), "tiles 399/400  99%  999 B  399 tiles/s  ETA 0:01")
    // Done: no ETA.
    XCTAssertEqual(line(400, 400, 14_200, 10), "tiles 400/400  100%  14.2 kB  40 tiles/s")
    // Too early for a rate, or nothing answered yet.
    XCTAssertEqual(line(3, 400, 0, 0.2), "tiles 3/400  0%  0 B")
    XCTAssertEqual(line(0, 400, 0, 5), "tiles 0/400  0%  0 B")
    XCTAssertEqual(line(0, 0, 0, 0), "tiles 0/0  100%  0 B")
    let wide = line(123_456, 999_999, 1_234_567_890, 100)
    XCTAssertEqual(wide, "tiles 123456/999999  12%  1.23 GB  1235 tiles/s  ETA 11:51")
    XCTAssertLessThanOrEqual(wide.count, 60)
  }

  func testByteText() {
    let cases: [(Int, String)] = [
      (0, "0 B"), (812, "812 B"), (999, "999 B"), (1_000, "1.0 kB"), (14_200, "14.2 kB"), (14_249, "14.2 kB"),
      (1_000_000, "1.0 MB"), (2_300_000, "2.3 MB"), (999_000_000, "999.0 MB"), (1_000_000_000, "1.00 GB"),
      (1_050_000_000, "1.05 GB"), (12_340_000_000, "12.34 GB"), (999_949, "999.9 kB"), (999_999, "1.0 MB"),
      (999_999_999, "1.00 GB"),
    ]
    for (bytes, text) in cases {
      XCTAssertEqual(TileDownloadProgress.byteText(bytes), text, "\(bytes)")
    }
  }

  func testDownloadErrorTexts() {
    XCTAssertEqual(
      TileDownloadError.tooManyTiles(needed: 2_500, limit: 2_000).description,
      // The library names no option; the CLI adds how to raise the limit (TilesFetchCommandTests).
      "this would fetch 2500 tiles, more than the limit of 2000 per command (tile servers are shared: fetch"
        + " fewer zooms or a smaller area)")
    XCTAssertEqual(
      TileDownloadError.interrupted(stored: 0, of: 9).description,
      "interrupted: 0 of 9 tiles were fetched and kept; the cache is consistent")
    XCTAssertEqual(TileDownloadError.cache("disk full").description, "disk full")
  }
}
