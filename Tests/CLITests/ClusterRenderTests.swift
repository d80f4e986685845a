import Foundation
import XCTest

/// `mymap render --cluster`: crowded places from a file or the store become cluster markers counted in the
/// layout JSON; `never` keeps every pin; a bad value is a usage error.
final class ClusterRenderTests: XCTestCase {
  /// `count` places on a 30×30 grid over central Paris, as CSV.
  private func crowdedCSV(count: Int) -> String {
    var lines = ["id,latitude,longitude,description,category"]
    for index in 0..<count {
      let latitude = 48.84 + Double(index / 30) * 0.001
      let longitude = 2.33 + Double(index % 30) * 0.0015
      lines.append("p\(index),\(latitude),\(longitude),Place \(index),Bar")
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// The layout JSON of a 200×150 render without callouts, plus `arguments`.
  private func renderLayout(_ sandbox: Sandbox, _ arguments: [String]) throws -> Layout {
    let result = try sandbox.run(
      ["render", "--out", "map.png", "--size", "200x150", "--callouts", "none", "--layout-json", "-"]
        + arguments)
    assertSucceeded(result)
    return try Layout(result.stdout)
  }

  private func clusters(_ layout: Layout) -> [[String: Any]] {
    layout.json["clusters"] as? [[String: Any]] ?? []
  }

  func testTheStoreIsDrawnAsClustersThatCountEveryPlace() throws {
    let sandbox = try Sandbox()
    let file = try sandbox.write(crowdedCSV(count: 500), to: "places.csv")
    assertSucceeded(try sandbox.run(["import", file]))
    let result = try sandbox.run([
      "render", "--size", "400x300", "--out", "map.png", "--layout-json", "map.json",
    ])
    assertSucceeded(result)
    assertPNG(sandbox.contents(of: "map.png"), width: 400, height: 300)
    let layout = try Layout(try XCTUnwrap(sandbox.contents(of: "map.json")))
    let found = clusters(layout)
    XCTAssertFalse(found.isEmpty)
    let counted = found.compactMap { ($0["count"] as? NSNumber)?.intValue }.reduce(0, +)
    XCTAssertEqual(counted + layout.annotations.count, 500)
    for cluster in found {
      let members = try XCTUnwrap(cluster["members"] as? [String])
      let count = try XCTUnwrap((cluster["count"] as? NSNumber)?.intValue)
      XCTAssertEqual(members.count, min(count, 100))
      XCTAssertTrue(members.allSatisfy { $0.hasPrefix("p") })
    }

    let never = try renderLayout(sandbox, ["--cluster", "never"])
    XCTAssertEqual(never.annotations.count, 500)
    XCTAssertTrue(clusters(never).isEmpty)
  }

  /// Stored places, some clustered, numbered with a legend: the pins left alone are numbered in date order
  /// and the legend names them (it once read the numbers from the places before clustering, and crashed).
  func testTheLonePinsAmongClustersAreNumberedByDateWithTheirLegend() throws {
    let sandbox = try Sandbox()
    var lines = ["id,latitude,longitude,description,category,date"]
    // Ten places in one Paris street, then three far apart, added in reverse date order.
    for index in 0..<10 {
      lines.append(
        "crowd\(index),48.8600,\(2.3400 + Double(index) * 0.0001),Crowd \(index),Bar,2026-01-0\(index % 9 + 1)"
      )
    }
    lines += [
      "lyon,45.7640,4.8357,Lyon,Landmark,2026-03-03", "lille,50.6292,3.0573,Lille,Landmark,2026-03-02",
      "brest,48.3904,-4.4861,Brest,Landmark,2026-03-01",
    ]
    let file = try sandbox.write(lines.joined(separator: "\n") + "\n", to: "places.csv")
    assertSucceeded(try sandbox.run(["import", file]))
    let result = try sandbox.run([
      "render", "--size", "600x450", "--labels", "numbers", "--out", "map.png", "--layout-json", "-",
    ])
    assertSucceeded(result)
    let layout = try Layout(result.stdout)
    XCTAssertEqual(clusters(layout).compactMap { ($0["count"] as? NSNumber)?.intValue }, [10])
    let numbered = layout.annotations.compactMap { item -> (String, Int)? in
      guard let id = item["id"] as? String, let number = (item["number"] as? NSNumber)?.intValue else {
        return nil
      }
      return (id, number)
    }.sorted { $0.1 < $1.1 }
    XCTAssertEqual(numbered.map(\.0), ["brest", "lille", "lyon"], "numbered by date")
    let legend = try XCTUnwrap(layout.json["legend"] as? [String: Any])
    let rows = try XCTUnwrap(legend["rows"] as? [[String: Any]])
    XCTAssertEqual(rows.compactMap { $0["title"] as? String }, ["Brest", "Lille", "Lyon"])
  }

  func testAFileIsClusteredTheSameWay() throws {
    let sandbox = try Sandbox()
    let file = try sandbox.write(crowdedCSV(count: 200), to: "places.csv")
    let layout = try renderLayout(sandbox, ["--locations", file, "--cluster", "always"])
    let counted = clusters(layout).compactMap { ($0["count"] as? NSNumber)?.intValue }.reduce(0, +)
    XCTAssertEqual(counted + layout.annotations.count, 200)
  }

  func testABadClusterModeIsAUsageError() throws {
    let sandbox = try Sandbox()
    let result = try sandbox.run(["render", "--center", "0,0", "--cluster", "sometimes"])
    assertFailed(
      result, status: 2, message: "invalid value 'sometimes' for --cluster: expected auto, always or never")
    XCTAssertEqual(try sandbox.files(), [])
    let help = try sandbox.run(["render", "--help"])
    XCTAssertTrue(help.stdoutText.contains("--cluster auto|always|never"), help.stdoutText)
  }

  func testAGivenViewReadsOnlyTheStoredPlacesInIt() throws {
    let sandbox = try Sandbox()
    let file = try sandbox.write(
      crowdedCSV(count: 50) + "tokyo,35.6586,139.7454,Tokyo Tower,Landmark\n", to: "places.csv")
    assertSucceeded(try sandbox.run(["import", file]))
    let layout = try renderLayout(sandbox, ["--center", "48.85,2.35", "--zoom", "13", "--cluster", "never"])
    XCTAssertEqual(layout.annotations.count, 50)
    XCTAssertFalse(layout.ids.contains("tokyo"), "Tokyo is not on a map of Paris")
  }
}
