import Foundation
import TileFetching
import Tiles
import XCTest

final class HTTPCacheHeadersTests: XCTestCase {
  /// Wed, 21 Oct 2015 07:28:00 GMT.
  private let now = Date(timeIntervalSince1970: 1_445_412_480)
  private let hour: TimeInterval = 3600
  private let day: TimeInterval = 86_400

  private func freshness(_ headers: [String: String], defaultLifetime: TimeInterval? = nil) -> TileFreshness {
    if let defaultLifetime {
      return TileFreshness(responseHeaders: headers, now: now, defaultLifetime: defaultLifetime)
    }
    return TileFreshness(responseHeaders: headers, now: now)
  }

  /// Seconds from `now` until the record expires.
  private func lifetime(_ headers: [String: String]) -> TimeInterval {
    freshness(headers).expires.timeIntervalSince(now)
  }

  private func httpDate(_ offset: TimeInterval) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "GMT")
    formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
    return formatter.string(from: now.addingTimeInterval(offset))
  }

  // MARK: HTTP dates

  func testParsesTheThreeHTTPDateFormats() {
    let expected = Date(timeIntervalSince1970: 784_111_777)
    XCTAssertEqual(TileFreshness.parseHTTPDate("Sun, 06 Nov 1994 08:49:37 GMT"), expected)
    XCTAssertEqual(TileFreshness.parseHTTPDate("Sunday, 06-Nov-94 08:49:37 GMT"), expected)
    XCTAssertEqual(TileFreshness.parseHTTPDate("Sun Nov  6 08:49:37 1994"), expected)
    XCTAssertEqual(TileFreshness.parseHTTPDate("Sun Nov 06 08:49:37 1994"), expected)
    XCTAssertEqual(TileFreshness.parseHTTPDate("Wed, 21 Oct 2015 07:28:00 GMT"), now)
    XCTAssertEqual(
      TileFreshness.parseHTTPDate("Thu, 29 Feb 2024 12:00:00 GMT"), Date(timeIntervalSince1970: 1_709_208_000)
    )
    XCTAssertEqual(
      TileFreshness.parseHTTPDate("Wed, 01 Mar 2000 00:00:00 GMT"), Date(timeIntervalSince1970: 951_868_800))
    XCTAssertEqual(
      TileFreshness.parseHTTPDate("Thu, 01 Jan 1970 00:00:00 GMT"), Date(timeIntervalSince1970: 0))
  }

  func testTwoDigitYearsFollowTheFiftyYearRule() {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "GMT")!
    let thisYear = calendar.component(.year, from: Date())
    func parsedYear(_ twoDigits: Int) -> Int? {
      let text = String(format: "Monday, 01-Jan-%02d 00:00:00 GMT", twoDigits)
      return TileFreshness.parseHTTPDate(text).map { calendar.component(.year, from: $0) }
    }
    // Up to 50 years ahead is in the future; 51 years ahead is the past century.
    XCTAssertEqual(parsedYear((thisYear + 50) % 100), thisYear + 50)
    XCTAssertEqual(parsedYear((thisYear + 51) % 100), thisYear + 51 - 100)
    XCTAssertEqual(parsedYear(thisYear % 100), thisYear)
    XCTAssertEqual(parsedYear((thisYear - 1) % 100), thisYear - 1)
    // A four-digit year is taken as it is.
    XCTAssertEqual(
      TileFreshness.parseHTTPDate("Thursday, 01-Jan-1970 00:00:00 GMT"), Date(timeIntervalSince1970: 0))
  }

  func testRejectsWhatIsNotAnHTTPDate() {
    for text in [
      "", "0", "-1", "soon", "1994-11-06T08:49:37Z", "Sun, 06 Nov 1994 08:49:37 PST",
      "Sun, 06 Nov 1994 08:49:37", "Sun, 31 Feb 1994 08:49:37 GMT", "Sun, 29 Feb 2100 08:49:37 GMT",
      "Sun, 06 Nov 1994 24:00:00 GMT", "Sun, 06 Nov 1994 08:60:00 GMT", "Sun, 06 Nov 1994 8:49:37 GMT",
      "Sun, 06 Foo 1994 08:49:37 GMT", "Sun, 06 Nov 94 08:49:37 GMT", "Xyz, 06 Nov 1994 08:49:37 GMT",
      "Sun 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-994 08:49:37 GMT", "Sun Nov  6 08:49:37 94",
      "Sün, 06 Nov 1994 08:49:37 GMT", "Sun, 00 Nov 1994 08:49:37 GMT", "Sun, +6 Nov 1994 08:49:37 GMT",
    ] {
      XCTAssertNil(TileFreshness.parseHTTPDate(text), text)
    }
  }

  func testRetryAfterReadsEveryHTTPDateFormat() {
    let later = now.addingTimeInterval(-90)
    XCTAssertEqual(TileFetcher.parseRetryAfter("Wednesday, 21-Oct-15 07:28:00 GMT", now: later), 90)
    XCTAssertEqual(TileFetcher.parseRetryAfter("Wed Oct 21 07:28:00 2015", now: later), 90)
    XCTAssertEqual(TileFetcher.parseRetryAfter("Wed, 21 Oct 2015 07:28:00 GMT", now: later), 90)
    XCTAssertNil(TileFetcher.parseRetryAfter("Wed, 21 Oct 2015 07:28:00 CET", now: later))
  }

  // MARK: Cache-Control

  func testMaxAgeSetsTheExpiry() {
    let record = freshness(["Cache-Control": "public, max-age=3600"])
    XCTAssertEqual(record, TileFreshness(expires: now.addingTimeInterval(hour), fetched: now))
    XCTAssertTrue(record.isFresh(at: now.addingTimeInterval(hour - 1)))
    XCTAssertFalse(record.isFresh(at: now.addingTimeInterval(hour)))
  }

  func testMaxAgeWinsOverExpires() {
    XCTAssertEqual(lifetime(["Cache-Control": "max-age=60", "Expires": httpDate(5 * day)]), 60)
    XCTAssertEqual(
      lifetime(["Cache-Control": "max-age=60", "Expires": "0", "Date": httpDate(0)]), 60)
  }

  func testAgeIsSubtractedFromMaxAgeButNeverBelowZero() {
    XCTAssertEqual(lifetime(["Cache-Control": "max-age=3600", "Age": "600"]), 3000)
    XCTAssertEqual(lifetime(["Cache-Control": "max-age=3600", "Age": "7200"]), 0)
    XCTAssertEqual(lifetime(["Cache-Control": "max-age=3600", "Age": "100, 200"]), 3500)
    // An unreadable Age is ignored.
    XCTAssertEqual(lifetime(["Cache-Control": "max-age=3600", "Age": "soon"]), 3600)
  }

  func testNoStoreAndNoCacheMeanRevalidateNextTime() {
    for value in [
      "no-store", "no-cache", "NO-CACHE", "max-age=3600, no-cache", "private, no-store, max-age=60",
    ] {
      let record = freshness(["Cache-Control": value, "Expires": httpDate(day), "ETag": "\"a\""])
      XCTAssertEqual(record.expires, now, value)
      XCTAssertFalse(record.isFresh(at: now), value)
      XCTAssertEqual(record.etag, "\"a\"", value)
    }
  }

  func testInvalidMaxAgeMeansStale() {
    XCTAssertEqual(lifetime(["Cache-Control": "max-age=soon"]), 0)
    XCTAssertEqual(lifetime(["Cache-Control": "max-age=-5"]), 0)
    XCTAssertEqual(lifetime(["Cache-Control": "max-age"]), 0)
    XCTAssertEqual(lifetime(["Cache-Control": "max-age=\"120\""]), 120)
    XCTAssertEqual(lifetime(["Cache-Control": "max-age=120, max-age=5"]), 120)
  }

  func testOtherDirectivesAndQuotedCommasAreIgnored() {
    XCTAssertEqual(
      lifetime(["Cache-Control": "public, s-maxage=10, stale-while-revalidate=5, max-age=90"]), 90)
    XCTAssertEqual(lifetime(["Cache-Control": "private=\"a, no-cache\", max-age=90"]), 90)
    XCTAssertEqual(lifetime(["Cache-Control": "public"]), 7 * day)
  }

  func testHeaderNamesAreCaseInsensitive() {
    let record = freshness([
      "cache-control": "MAX-AGE=50", "etag": "\"x\"", "LAST-MODIFIED": "Wed, 21 Oct 2015 07:00:00 GMT",
    ])
    XCTAssertEqual(record.expires, now.addingTimeInterval(50))
    XCTAssertEqual(record.etag, "\"x\"")
    XCTAssertEqual(record.lastModified, "Wed, 21 Oct 2015 07:00:00 GMT")
    XCTAssertEqual(lifetime(["EXPIRES": httpDate(hour), "dAtE": httpDate(0)]), hour)
  }

  // MARK: Expires

  func testExpiresIsReadRelativeToTheServersDate() {
    // The server's clock is a day behind ours: its Expires is in our past, but 2 hours after its Date.
    XCTAssertEqual(lifetime(["Date": httpDate(-day), "Expires": httpDate(-day + 2 * hour)]), 2 * hour)
    // A day ahead: Expires is 26 hours from our now, but only 2 hours after the server's Date.
    XCTAssertEqual(lifetime(["Date": httpDate(day), "Expires": httpDate(day + 2 * hour)]), 2 * hour)
    // The three date formats work for both headers.
    XCTAssertEqual(
      lifetime(["Date": "Sunday, 06-Nov-94 08:49:37 GMT", "Expires": "Sun Nov  6 09:49:37 1994"]), hour)
  }

  func testExpiresWithAgeCountsTheTimeSpentInACache() {
    XCTAssertEqual(
      lifetime(["Date": httpDate(-hour), "Expires": httpDate(hour), "Age": "1800"]), 2 * hour - 1800)
  }

  func testExpiresWithoutAReadableDateIsAbsolute() {
    XCTAssertEqual(lifetime(["Expires": httpDate(hour)]), hour)
    XCTAssertEqual(lifetime(["Expires": httpDate(hour), "Date": "yesterday"]), hour)
    XCTAssertEqual(lifetime(["Expires": httpDate(-hour)]), 0)
    // Age does not apply: an absolute Expires already includes the time spent in caches.
    XCTAssertEqual(lifetime(["Expires": httpDate(hour), "Age": "600"]), hour)
  }

  func testExpiresBeforeDateIsExpired() {
    XCTAssertEqual(lifetime(["Date": httpDate(0), "Expires": httpDate(-hour)]), 0)
  }

  func testUnreadableExpiresMeansAlreadyExpired() {
    for value in ["0", "-1", "", "never", "Sun, 06 Nov 1994 08:49:37 PST"] {
      let record = freshness(["Expires": value, "Date": httpDate(0)])
      XCTAssertEqual(record.expires, now, value.debugDescription)
      XCTAssertFalse(record.isFresh(at: now), value.debugDescription)
    }
  }

  // MARK: Defaults and the cap

  func testWithoutCacheHeadersTheDefaultLifetimeApplies() {
    XCTAssertEqual(lifetime([:]), 7 * day)
    XCTAssertEqual(lifetime(["Content-Type": "image/png", "Date": httpDate(-day)]), 7 * day)
    XCTAssertEqual(TileFreshness.defaultLifetime, 7 * day)
    XCTAssertEqual(freshness([:], defaultLifetime: hour).expires, now.addingTimeInterval(hour))
    XCTAssertEqual(freshness([:], defaultLifetime: -hour).expires, now)
  }

  func testLifetimeIsCappedAtOneYear() {
    let year = 365 * day
    XCTAssertEqual(TileFreshness.maximumLifetime, year)
    XCTAssertEqual(lifetime(["Cache-Control": "max-age=999999999"]), year)
    XCTAssertEqual(lifetime(["Cache-Control": "max-age=99999999999999999999999999999"]), year)
    XCTAssertEqual(lifetime(["Expires": httpDate(5 * year)]), year)
    XCTAssertEqual(lifetime(["Date": httpDate(0), "Expires": httpDate(3 * year)]), year)
    XCTAssertEqual(freshness([:], defaultLifetime: 10 * year).expires, now.addingTimeInterval(year))
    XCTAssertEqual(freshness([:], defaultLifetime: .infinity).expires, now.addingTimeInterval(year))
  }

  // MARK: Validators

  func testValidatorsAreKeptVerbatim() {
    let weak = freshness(["ETag": "W/\"5e-1a2b\"", "Last-Modified": "Wed, 21 Oct 2015 07:28:00 GMT"])
    XCTAssertEqual(weak.etag, "W/\"5e-1a2b\"")
    XCTAssertEqual(weak.lastModified, "Wed, 21 Oct 2015 07:28:00 GMT")
    XCTAssertEqual(weak.fetched, now)
    XCTAssertTrue(weak.canRevalidate)
    // An unparsable Last-Modified is still sent back as it came.
    XCTAssertEqual(freshness(["Last-Modified": "yesterday-ish"]).lastModified, "yesterday-ish")
    XCTAssertEqual(freshness(["ETag": " \"abc\" "]).etag, "\"abc\"")
    let none = freshness(["ETag": "", "Cache-Control": "max-age=5"])
    XCTAssertNil(none.etag)
    XCTAssertNil(none.lastModified)
    XCTAssertFalse(none.canRevalidate)
  }

  // MARK: After a 304

  private var stored: TileFreshness {
    TileFreshness(
      etag: "\"v1\"", lastModified: "Tue, 20 Oct 2015 07:28:00 GMT", expires: now.addingTimeInterval(-hour),
      fetched: now.addingTimeInterval(-2 * day))
  }

  func testNotModifiedUpdatesTheExpiryAndKeepsValidatorsItDoesNotCarry() {
    let merged = stored.merged(
      withNotModified: ["Cache-Control": "max-age=600", "Date": httpDate(0)], now: now)
    XCTAssertEqual(
      merged,
      TileFreshness(
        etag: "\"v1\"", lastModified: "Tue, 20 Oct 2015 07:28:00 GMT", expires: now.addingTimeInterval(600),
        fetched: now))
    XCTAssertTrue(merged.isFresh(at: now))
  }

  func testNotModifiedReplacesTheValidatorsItCarries() {
    let merged = stored.merged(withNotModified: ["etag": "W/\"v2\"", "Expires": httpDate(hour)], now: now)
    XCTAssertEqual(merged.etag, "W/\"v2\"")
    XCTAssertEqual(merged.lastModified, "Tue, 20 Oct 2015 07:28:00 GMT")
    XCTAssertEqual(merged.expires, now.addingTimeInterval(hour))

    let newDate = stored.merged(withNotModified: ["Last-Modified": "Wed, 21 Oct 2015 07:00:00 GMT"], now: now)
    XCTAssertEqual(newDate.etag, "\"v1\"")
    XCTAssertEqual(newDate.lastModified, "Wed, 21 Oct 2015 07:00:00 GMT")
  }

  func testNotModifiedWithoutCacheHeadersGetsTheDefaultLifetime() {
    XCTAssertEqual(stored.merged(withNotModified: [:], now: now).expires, now.addingTimeInterval(7 * day))
    XCTAssertEqual(
      stored.merged(withNotModified: [:], now: now, defaultLifetime: hour).expires,
      now.addingTimeInterval(hour))
    let noCache = stored.merged(withNotModified: ["Cache-Control": "no-cache"], now: now)
    XCTAssertEqual(noCache.expires, now)
    XCTAssertEqual(noCache.fetched, now)
    XCTAssertEqual(noCache.etag, "\"v1\"")
  }
}
