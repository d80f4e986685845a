import Foundation
import TestSupport
import VectorTiles
import XCTest

/// A feature reduced to plain values, so a decoded feature and a fixture's JSON compare with `==`.
struct FeatureContents: Equatable, CustomStringConvertible {
  struct Property: Equatable {
    let key: String
    let value: VectorTileValue
  }

  let id: UInt64?
  let type: String
  let properties: [Property]
  let parts: [[[Int]]]
  /// Rings per polygon, for polygon features.
  let polygons: [Int]

  init(_ feature: VectorTileFeature) {
    id = feature.id
    type = feature.type.description
    properties = feature.properties.map { Property(key: $0.key, value: $0.value) }
    parts = feature.geometry.parts.map { part in part.map { [Int($0.x), Int($0.y)] } }
    polygons = feature.geometry.polygons.map(\.count)
  }

  /// A feature as make-fixtures.py writes it.
  init(json: [String: Any]) throws {
    id = (json["id"] as? NSNumber).map { $0.uint64Value }
    type = try XCTUnwrap(json["type"] as? String)
    let pairs = try XCTUnwrap(json["properties"] as? [[Any]])
    properties = try pairs.map { pair in
      let typed = try XCTUnwrap(pair[1] as? [String: Any])
      return Property(key: try XCTUnwrap(pair[0] as? String), value: try Self.value(typed))
    }
    parts = try XCTUnwrap(json["parts"] as? [[[Int]]])
    polygons = try XCTUnwrap(json["polygons"] as? [Int])
  }

  private static func value(_ typed: [String: Any]) throws -> VectorTileValue {
    let (kind, raw) = try XCTUnwrap(typed.first)
    switch kind {
    case "string": return .string(try XCTUnwrap(raw as? String))
    case "float": return .float(try XCTUnwrap(raw as? NSNumber).floatValue)
    case "double": return .double(try XCTUnwrap(raw as? NSNumber).doubleValue)
    case "int": return .int(try XCTUnwrap(raw as? NSNumber).int64Value)
    case "uint": return .uint(try XCTUnwrap(UInt64(try XCTUnwrap(raw as? String))))
    case "bool": return .bool(try XCTUnwrap(raw as? Bool))
    default: throw TestPrerequisiteMissing("unknown value kind \(kind) in fixture")
    }
  }

  var description: String { "\(type) id \(id.map(String.init) ?? "none") \(properties) \(parts) \(polygons)" }
}

enum VectorFixtures {
  static func bytes(_ name: String) throws -> [UInt8] {
    Array(try Data(contentsOf: RepositoryPaths.fixture("vector/\(name)")))
  }

  static func json(_ name: String) throws -> [String: Any] {
    try XCTUnwrap(JSONSerialization.jsonObject(with: Data(try bytes(name))) as? [String: Any])
  }

  /// The layers of a fixture's JSON: name, version, extent and features.
  static func layers(_ json: [String: Any]) throws -> [[String: Any]] {
    try XCTUnwrap(json["layers"] as? [[String: Any]])
  }
}
