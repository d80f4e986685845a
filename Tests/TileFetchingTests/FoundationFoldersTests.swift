import Foundation
import TestSupport
import XCTest

@testable import TileFetching

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The folders FoundationNetworking makes in HOME whenever a session configuration is made, and that
/// `URLSessionTransport` removes again (no server needed).
final class FoundationFoldersTests: XCTestCase {
  func testOnlyFoldersThatAreNewAndEmptyAreRemoved() throws {
    let root = try TemporaryDirectory(prefix: "mymap-foundation-folders")
    defer { root.remove() }
    let files = FileManager.default
    func path(_ name: String) -> String { root.url(name).path }
    func exists(_ name: String) -> Bool { files.fileExists(atPath: path(name)) }
    // Existed before and empty: kept. New with new parents: all removed. New but not empty: kept. A new
    // folder inside a new parent that something else also filled: the folder goes, the parent stays.
    try files.createDirectory(atPath: path("old/empty"), withIntermediateDirectories: true)
    let folders = ["old/empty", "new/deeper/folder", "filled", "shared/folder"].map(path)
    let made = FoundationFolders.leavingNoneBehind(folders) { () -> Int in
      for name in ["old/empty", "new/deeper/folder", "filled", "shared/folder", "shared/other"] {
        try? files.createDirectory(atPath: path(name), withIntermediateDirectories: true)
      }
      _ = files.createFile(atPath: path("filled/file"), contents: Data("x".utf8))
      return 42
    }
    XCTAssertEqual(made, 42)
    XCTAssertTrue(exists("old/empty"))
    XCTAssertFalse(exists("new"))
    XCTAssertTrue(exists("filled/file"))
    XCTAssertFalse(exists("shared/folder"))
    XCTAssertTrue(exists("shared/other"))
    XCTAssertEqual(try files.contentsOfDirectory(atPath: root.path).sorted(), ["filled", "old", "shared"])
  }

  func testTheURLCacheFolderIsWhereFoundationMakesIt() throws {
    // Each ephemeral configuration makes `<caches>/org.swift.foundation.URLCache/<program>`; the computed
    // folder must be that one. (The cookie folder is made once per process, so CLITests check it with the
    // real binary, in a sandboxed HOME.)
    #if canImport(FoundationNetworking)
      let folders = FoundationFolders.foundationFolders()
      XCTAssertEqual(folders.count, 2)
      let cacheFolder = try XCTUnwrap(folders.last)
      XCTAssertTrue(cacheFolder.contains("/org.swift.foundation.URLCache/"), cacheFolder)
      let existedBefore = FileManager.default.fileExists(atPath: cacheFolder)
      var existedInside = false
      FoundationFolders.leavingNoneBehind {
        _ = URLSessionConfiguration.ephemeral
        existedInside = FileManager.default.fileExists(atPath: cacheFolder)
      }
      XCTAssertTrue(existedInside, "FoundationNetworking did not make \(cacheFolder)")
      XCTAssertEqual(FileManager.default.fileExists(atPath: cacheFolder), existedBefore)
    #endif
  }
}
