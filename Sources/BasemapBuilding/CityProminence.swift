import Foundation

/// Which cities the basemap names, and how prominently: GeoNames lists the sections of a large city beside
/// it ("Paris 13 Gobelins", "Gare", Shanghai's "Puxi") with populations of their own, and ranks a capital
/// by the people inside its city limits (Paris 2.1 M, below Saint Petersburg). A section is dropped; a
/// city's prominence is its agglomeration (itself and the places of its country within 25 km for which it
/// is the largest place near), `capitalFactor` times that when a capital is among them.
public enum CityProminence {
  /// One city as the source lists it.
  public struct City: Sendable, Equatable {
    public var name: String
    public var countryCode: String
    public var latitude: Double
    public var longitude: Double
    public var population: Double

    public init(name: String, countryCode: String, latitude: Double, longitude: Double, population: Double) {
      self.name = name
      self.countryCode = countryCode
      self.latitude = latitude
      self.longitude = longitude
      self.population = population
    }
  }

  /// Places within this distance of a larger city of the same country count into its agglomeration.
  public static let agglomerationRadiusKm = 25.0
  /// The prominence of a capital's agglomeration is its people times this.
  public static let capitalFactor = 1.5

  /// The rough radius of a city's built-up core, from a density of 20,000 people per km².
  static func coreRadiusKm(population: Double) -> Double {
    (max(population, 0) / 20_000 / Double.pi).squareRoot()
  }

  /// True when `city` is a section of the larger `other`: named after it ("Paris 13 Gobelins") within twice
  /// its core radius, or lying within its core radius while `other` has ten times the people, or within
  /// half of it at three times (the districts and quarters GeoNames lists as places of their own: "Gare",
  /// "Picpus", Shanghai's "Puxi"). Never across a border, never a capital.
  static func isSection(_ city: City, of other: City, distanceKm: Double, isCapital: Bool) -> Bool {
    guard !isCapital, city.countryCode == other.countryCode, other.population > city.population else {
      return false
    }
    let radius = coreRadiusKm(population: other.population)
    if city.name.hasPrefix(other.name + " ") && distanceKm <= 2 * radius { return true }
    return (other.population >= 10 * city.population && distanceKm <= radius)
      || (other.population >= 3 * city.population && distanceKm <= radius / 2)
  }

  /// The great-circle distance in kilometres.
  static func distanceKm(_ a: City, _ b: City) -> Double {
    let radians = Double.pi / 180
    let lat1 = a.latitude * radians
    let lat2 = b.latitude * radians
    let dLat = lat2 - lat1
    let dLon = (b.longitude - a.longitude) * radians
    let h = pow(sin(dLat / 2), 2) + cos(lat1) * cos(lat2) * pow(sin(dLon / 2), 2)
    return 12_742 * asin(min(1, h.squareRoot()))
  }

  /// How a capital is known: the country code and the name without case or accents (the country list
  /// writes "Bogota", the city list "Bogotá").
  public static func capitalKey(countryCode: String, name: String) -> String {
    let trimmed = name.trimmingCharacters(in: .whitespaces)
    return countryCode.uppercased() + "|"
      + trimmed.folding(options: [.diacriticInsensitive, .caseInsensitive], locale: nil)
  }

  /// The cities kept, each with its prominence, in the order given (`cities` largest first, as GeoNames
  /// sorts them; a section is only recognised after its city). `capitals` holds `capitalKey`s.
  public static func rank(_ cities: [City], capitals: Set<String>) -> [(city: City, prominence: Double)] {
    // Kept cities binned by whole degrees; the cells searched around a city reach `km` in every direction.
    var grid: [Int64: [Int]] = [:]
    var kept: [City] = []
    func cell(_ city: City, _ dy: Int, _ dx: Int) -> Int64 {
      let row = Int64(floor(city.latitude)) + Int64(dy)
      let column = (Int64(floor(city.longitude)) + Int64(dx) + 360) % 360
      return row * 1000 + column
    }
    func neighbours(_ city: City, within km: Double) -> [(index: Int, distance: Double)] {
      var found: [(Int, Double)] = []
      let degreeKm = 111.0
      let rows = Int((km / degreeKm).rounded(.up))
      let across = degreeKm * cos(min(abs(city.latitude) + Double(rows), 90) * Double.pi / 180)
      // Near a pole every column, each once.
      let columns =
        across * 179 > km
        ? Array(-Int((km / across).rounded(.up))...Int((km / across).rounded(.up))) : Array(0..<360)
      for dy in -rows...rows {
        for dx in columns {
          for index in grid[cell(city, dy, dx)] ?? [] {
            let distance = distanceKm(city, kept[index])
            if distance <= km { found.append((index, distance)) }
          }
        }
      }
      return found.sorted { $0.0 < $1.0 }
    }
    for city in cities {
      let isCapital = capitals.contains(capitalKey(countryCode: city.countryCode, name: city.name))
      let section = neighbours(city, within: 2 * coreRadiusKm(population: 30_000_000)).contains {
        isSection(city, of: kept[$0.index], distanceKm: $0.distance, isCapital: isCapital)
      }
      if section { continue }
      grid[cell(city, 0, 0), default: []].append(kept.count)
      kept.append(city)
    }
    // Each place joins the agglomeration of the largest place of its country within reach (itself when
    // none is larger; the first listed among equals); a capital's status goes to that agglomeration too.
    var people = kept.map { max($0.population, 0) }
    var isCapital = [Bool](repeating: false, count: kept.count)
    for (index, city) in kept.enumerated() {
      var centre = index
      for (other, _) in neighbours(city, within: agglomerationRadiusKm)
      where kept[other].countryCode == city.countryCode && kept[other].population > kept[centre].population {
        centre = other
      }
      if centre != index { people[centre] += max(city.population, 0) }
      if capitals.contains(capitalKey(countryCode: city.countryCode, name: city.name)) {
        isCapital[index] = true
        isCapital[centre] = true
      }
    }
    return kept.indices.map { (kept[$0], people[$0] * (isCapital[$0] ? capitalFactor : 1)) }
  }
}
