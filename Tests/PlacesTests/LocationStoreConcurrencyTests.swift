import Foundation
import Places
import TestSupport
import XCTest

/// Errors and figures gathered from several threads.
private final class Collected: @unchecked Sendable {
  // `@unchecked Sendable`: every property is read and written only while `lock` is held.
  private let lock = NSLock()
  private var errorsSeen: [String] = []
  private var readsSeen = 0

  func record(_ error: Error) { record("\(error)") }

  func record(_ message: String) {
    lock.lock()
    errorsSeen.append(message)
    lock.unlock()
  }

  func countRead() {
    lock.lock()
    readsSeen += 1
    lock.unlock()
  }

  var errors: [String] {
    lock.lock()
    defer { lock.unlock() }
    return errorsSeen
  }

  var reads: Int {
    lock.lock()
    defer { lock.unlock() }
    return readsSeen
  }
}

/// Two connections to one file used at the same time (to SQLite, two connections in one process are what
/// two processes are), and a real second process: the sqlite3 shell.
final class LocationStoreConcurrencyTests: XCTestCase {
  private func run(_ jobs: [@Sendable () -> Void]) {
    let group = DispatchGroup()
    for job in jobs {
      let thread = Thread {
        job()
        group.leave()
      }
      group.enter()
      thread.start()
    }
    XCTAssertEqual(group.wait(timeout: .now() + 120), .success, "the threads did not finish")
  }

  func testAWriterAndAReaderOnTwoConnections() throws {
    let folder = try TemporaryDirectory(prefix: "mymap-store-concurrency")
    let path = folder.url("locations.sqlite").path
    _ = try LocationStore(path: path)
    let collected = Collected()
    let writerDone = Done()
    run([
      {
        defer { writerDone.set() }
        do {
          let store = try LocationStore(path: path)
          for index in 0..<500 {
            try store.add(storePlace("w\(index)", category: index % 2 == 0 ? "Park" : "Bar", day: index))
          }
        } catch {
          collected.record(error)
        }
      },
      {
        do {
          let store = try LocationStore(path: path)
          var last = 0
          repeat {
            let count = try store.count()
            // Committed writes only, and never fewer than before.
            if count < last { collected.record("count went down from \(last) to \(count)") }
            last = count
            let parks = try store.locations(LocationFilter(categories: ["park"]))
            if parks.contains(where: { $0.category != "Park" }) { collected.record("filter broke") }
            collected.countRead()
          } while !writerDone.isSet
        } catch {
          collected.record(error)
        }
      },
    ])
    XCTAssertEqual(collected.errors, [])
    XCTAssertGreaterThan(collected.reads, 1)
    XCTAssertEqual(try LocationStore(path: path).count(), 500)
  }

  func testTwoWritersOnTwoConnections() throws {
    let folder = try TemporaryDirectory(prefix: "mymap-store-concurrency")
    let path = folder.url("locations.sqlite").path
    let collected = Collected()
    // Both open (and so create and migrate) the new store at the same moment, too.
    run(
      ["a", "b"].map { prefix in
        {
          do {
            let store = try LocationStore(path: path)
            for index in 0..<300 {
              try store.add(storePlace("\(prefix)\(index)", day: index))
              if index % 50 == 0 {
                _ = try store.importLocations(
                  [storePlace("\(prefix)-batch\(index)")], idsWereGiven: [true], dryRun: false)
              }
            }
          } catch {
            collected.record(error)
          }
        }
      })
    XCTAssertEqual(collected.errors, [])
    XCTAssertEqual(try LocationStore(path: path).count(), 2 * (300 + 6))
  }

  func testManyConnectionsCreatingOneStoreAtOnce() throws {
    let folder = try TemporaryDirectory(prefix: "mymap-store-concurrency")
    let collected = Collected()
    for round in 0..<10 {
      let path = folder.url("round-\(round)/locations.sqlite").path
      run(
        (0..<4).map { thread in
          {
            do {
              try LocationStore(path: path).add(storePlace("t\(thread)"))
            } catch {
              collected.record(error)
            }
          }
        })
      XCTAssertEqual(try LocationStore(path: path).count(), 4)
    }
    XCTAssertEqual(collected.errors, [])
  }

  func testOneStoreSharedByThreads() throws {
    let scratch = try ScratchStore()
    let store = scratch.store
    let collected = Collected()
    run(
      (0..<4).map { thread in
        {
          do {
            for index in 0..<100 {
              try store.add(storePlace("t\(thread)-\(index)", day: index))
              _ = try store.count(LocationFilter(categories: ["park"]))
            }
          } catch {
            collected.record(error)
          }
        }
      })
    XCTAssertEqual(collected.errors, [])
    XCTAssertEqual(try store.count(), 400)
  }

  func testTheSQLiteShellWritingWhileThisProcessWrites() throws {
    let shell = "/usr/bin/sqlite3"
    guard FileManager.default.isExecutableFile(atPath: shell) else {
      throw TestPrerequisiteMissing(
        "\(shell) is not installed (Debian package sqlite3); this test needs a second process")
    }
    let folder = try TemporaryDirectory(prefix: "mymap-store-concurrency")
    let path = folder.url("locations.sqlite").path
    let store = try LocationStore(path: path)

    // 300 inserts, each its own transaction, waiting up to 10 s for the lock as mymap does.
    var script = ".bail on\n.timeout 10000\n"
    for index in 0..<300 {
      script +=
        "INSERT INTO location (id, latitude, longitude, description, category, date)"
        + " VALUES ('shell-\(index)', 1.5, 2.5, 'from the shell', 'Bar', \(1_764_000_000 + index));\n"
    }
    let scriptFile = try folder.write(script, to: "insert.sql")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: shell)
    process.arguments = [path]
    process.standardInput = try FileHandle(forReadingFrom: scriptFile)
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = FileHandle.nullDevice
    try process.run()

    for index in 0..<300 {
      try store.add(storePlace("here-\(index)", day: index))
      if index % 10 == 0 { _ = try store.count(LocationFilter(categories: ["bar"])) }
    }
    process.waitUntilExit()
    let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    XCTAssertEqual(process.terminationStatus, 0, stderr)
    XCTAssertEqual(stderr, "")
    XCTAssertEqual(try store.count(), 600)
    XCTAssertEqual(try store.count(LocationFilter(categories: ["BAR"])), 300)
    XCTAssertEqual(try store.location(id: "shell-7")?.locationDescription, "from the shell")
    XCTAssertNil(try store.location(id: "shell-7")?.placemark)
  }
}

/// A flag one thread sets and another polls.
private final class Done: @unchecked Sendable {
  // `@unchecked Sendable`: `value` is touched only while `lock` is held.
  private let lock = NSLock()
  private var value = false

  func set() {
    lock.lock()
    value = true
    lock.unlock()
  }

  var isSet: Bool {
    lock.lock()
    defer { lock.unlock() }
    return value
  }
}
