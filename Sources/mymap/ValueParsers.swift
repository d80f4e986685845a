import Arguments
import Foundation
import MapMath
import Places
import Rendering

/// Turns option values into typed values; each failure says what was expected.
enum ValueParsers {
  static func size(_ text: String) throws -> PixelSize {
    let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
    guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]) else {
      throw InvalidValue("expected WIDTHxHEIGHT in points, like 800x600")
    }
    guard width >= 1, height >= 1 else { throw InvalidValue("width and height must be at least 1") }
    guard width <= 100_000, height <= 100_000 else {
      throw InvalidValue("width and height must be at most 100000")
    }
    return PixelSize(width: Double(width), height: Double(height))
  }

  static func scale(_ text: String) throws -> Double {
    guard let value = Int(text), (1...3).contains(value) else { throw InvalidValue("expected 1, 2 or 3") }
    return Double(value)
  }

  static func coordinate(_ text: String) throws -> Coordinate {
    let numbers = try decimals(text, count: 2...2, expected: "LAT,LON in degrees, like 48.8566,2.3522")
    return try validated(Coordinate(latitude: numbers[0], longitude: numbers[1]))
  }

  static func latitude(_ text: String) throws -> Double {
    guard let value = Double(text), value.isFinite else {
      throw InvalidValue("expected a latitude in degrees")
    }
    guard abs(value) <= 90 else { throw InvalidValue("latitude must be between -90 and 90") }
    return value
  }

  static func longitude(_ text: String) throws -> Double {
    guard let value = Double(text), value.isFinite else {
      throw InvalidValue("expected a longitude in degrees")
    }
    guard abs(value) <= 180 else { throw InvalidValue("longitude must be between -180 and 180") }
    return value
  }

  static func userPosition(_ text: String) throws -> UserPosition {
    let numbers = try decimals(
      text, count: 2...3, expected: "LAT,LON or LAT,LON,ACCURACY_M, like 48.8566,2.3522,65")
    let coordinate = try validated(Coordinate(latitude: numbers[0], longitude: numbers[1]))
    if numbers.count == 3 && !(0...20_000_000).contains(numbers[2]) {
      throw InvalidValue("the accuracy must be between 0 and 20000000 metres")
    }
    return UserPosition(coordinate: coordinate, accuracy: numbers.count == 3 ? numbers[2] : nil)
  }

  static func zoom(_ text: String) throws -> Double {
    guard let value = Double(text), value.isFinite, (0...22).contains(value) else {
      throw InvalidValue("expected a zoom from 0 to 22")
    }
    return value
  }

  static func positiveNumber(_ text: String) throws -> Double {
    guard let value = Double(text), value.isFinite, value > 0 else {
      throw InvalidValue("expected a number above 0")
    }
    return value
  }

  static func nonNegativeNumber(_ text: String) throws -> Double {
    guard let value = Double(text), value.isFinite, value >= 0 else {
      throw InvalidValue("expected a number ≥ 0")
    }
    return value
  }

  static func date(_ text: String) throws -> Date {
    guard let parsed = ISO8601Date.parse(text) else {
      throw InvalidValue("expected an ISO 8601 date like 2026-11-29 or 2026-11-29T10:00:00Z")
    }
    return parsed.date
  }

  static func format(_ text: String) throws -> OutputFormat {
    guard let format = OutputFormat(rawValue: text.lowercased()) else {
      throw InvalidValue("expected png, svg or pdf")
    }
    return format
  }

  static func callouts(_ text: String) throws -> Bool {
    switch text.lowercased() {
    case "all": return true
    case "none": return false
    default: throw InvalidValue("expected all or none")
    }
  }

  static func clustering(_ text: String) throws -> Clustering {
    guard let mode = Clustering(rawValue: text.lowercased()) else {
      throw InvalidValue("expected auto, always or never")
    }
    return mode
  }

  private static func decimals(_ text: String, count: ClosedRange<Int>, expected: String) throws -> [Double] {
    let parts = text.split(separator: ",", omittingEmptySubsequences: false)
    let numbers = parts.compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
    guard count.contains(parts.count), numbers.count == parts.count, numbers.allSatisfy(\.isFinite) else {
      throw InvalidValue("expected \(expected)")
    }
    return numbers
  }

  private static func validated(_ coordinate: Coordinate) throws -> Coordinate {
    guard abs(coordinate.latitude) <= 90 else { throw InvalidValue("latitude must be between -90 and 90") }
    guard abs(coordinate.longitude) <= 180 else {
      throw InvalidValue("longitude must be between -180 and 180")
    }
    return coordinate
  }
}
