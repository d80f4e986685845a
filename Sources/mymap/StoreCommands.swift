import Arguments
import Foundation
import MapMath
import Places

/// `mymap add`: the app's Tag Location screen.
enum AddCommand {
  static let spec = CommandSpec(
    "add", abstract: "Save a place; prints its id.",
    discussion: "Give the position with --lat and --lon, or --here LAT,LON. The description may stay empty.",
    options: PlaceOptions.options + [StoreAccess.option])

  static func run(_ arguments: ParsedArguments) throws(CLIError) {
    let fields = try PlaceOptions(arguments)
    guard let coordinate = fields.coordinate else {
      throw .usage("where is the place? give --lat and --lon, or --here LAT,LON")
    }
    let place = Location(
      id: LocationStore.newID(), latitude: coordinate.latitude, longitude: coordinate.longitude,
      locationDescription: fields.description ?? "", category: fields.category ?? Category.default.name,
      date: fields.date ?? Date(), placemark: fields.placemark ?? nil, photoPath: fields.photoPath ?? nil)
    let store = try StoreAccess.open(arguments)
    do {
      try store.add(place)
    } catch {
      throw StoreAccess.map(error)
    }
    Console.print(place.id)
  }
}

/// `mymap edit ID`: changes only the fields given.
enum EditCommand {
  static let spec = CommandSpec(
    "edit", abstract: "Change a saved place.",
    discussion: "Only the fields given change. --address '' removes the address, --photo '' the photo.",
    arguments: [
      .required("ID", help: "The place's id (or its first characters, as 'mymap list' shows them).")
    ],
    options: PlaceOptions.options + [StoreAccess.option])

  static func run(_ arguments: ParsedArguments) throws(CLIError) {
    let fields = try PlaceOptions(arguments)
    let store = try StoreAccess.open(arguments, create: false)
    do {
      var place = try store.resolve(idOrPrefix: arguments.positional("ID")!)
      if let coordinate = fields.coordinate {
        place.latitude = coordinate.latitude
        place.longitude = coordinate.longitude
      }
      if let description = fields.description { place.locationDescription = description }
      if let category = fields.category { place.category = category }
      if let placemark = fields.placemark { place.placemark = placemark }
      if let date = fields.date { place.date = date }
      if let photoPath = fields.photoPath { place.photoPath = photoPath }
      try store.update(place)
    } catch {
      throw StoreAccess.map(error)
    }
  }
}

/// `mymap delete ID…`: all or nothing.
enum DeleteCommand {
  static let spec = CommandSpec(
    "delete", abstract: "Delete saved places and tracks (all of them, or none when an id is unknown).",
    arguments: [.variadic("ID", help: "Ids of the places or tracks (or their first characters).")],
    options: [StoreAccess.option])

  static func run(_ arguments: ParsedArguments) throws(CLIError) {
    let store = try StoreAccess.open(arguments, create: false)
    do {
      var placeIDs: [String] = []
      var trackIDs: [String] = []
      for text in arguments.positionals("ID") {
        switch try resolve(text, in: store) {
        case .place(let id): placeIDs.append(id)
        case .track(let id): trackIDs.append(id)
        }
      }
      let deleted = try store.delete(placeIDs: placeIDs, trackIDs: trackIDs)
      var line = "deleted \(count(deleted.places, "place"))"
      if deleted.tracks > 0 { line += " and \(count(deleted.tracks, "track"))" }
      Console.print(line)
    } catch {
      throw StoreAccess.map(error)
    }
  }
}

extension DeleteCommand {
  private enum Stored {
    case place(String)
    case track(String)
  }

  /// A place's id or prefix, else a track's; `unknownID` when neither has it.
  private static func resolve(_ text: String, in store: LocationStore) throws(LocationStoreError) -> Stored {
    do {
      return .place(try store.resolve(idOrPrefix: text).id)
    } catch {
      guard case .unknownID = error else { throw error }
      guard let track = try store.resolveTrack(idOrPrefix: text) else { throw error }
      return .track(track.id)
    }
  }
}

/// `mymap list`: the Locations screen.
enum ListCommand {
  static let spec = CommandSpec(
    "list", abstract: "List saved places by category, oldest first in each.",
    options: FilterOptions.options + [
      .flag("json", help: "Write mymap locations JSON instead, for scripts."), StoreAccess.option,
    ])

  static func run(_ arguments: ParsedArguments) throws(CLIError) {
    let filter = try FilterOptions.filter(arguments)
    let store = try StoreAccess.open(arguments, create: false, access: .readOnly)
    do {
      let output = BufferedOutput()
      if arguments.flag("json") {
        var writer = LocationsDocumentWriter(format: .mymapJSON)
        output.write { writer.start(user: nil, into: &$0) }
        try store.forEach(filter, order: .categoryThenDate) { place in
          output.write { writer.place(place, into: &$0) }
        }
        output.write { writer.finish(into: &$0) }
        output.flush()
        return
      }
      var section: String?
      try store.forEach(filter, order: .categoryThenDate) { place in
        // The store sorts sections without regard to ASCII case (`park` and `Park` are one section).
        if sectionKey(place.category) != section {
          section = sectionKey(place.category)
          output.write(place.category + "\n")
        }
        // At least 8 characters, more where another id starts the same: enough for show, edit and delete.
        output.write(PlaceText.row(place, shownID: try store.uniquePrefix(of: place.id, minimumLength: 8)))
      }
      output.flush()
    } catch let error as LocationStoreError {
      throw StoreAccess.map(error)
    } catch {
      throw .failure("\(error)")
    }
  }
}

extension ListCommand {
  /// A category with ASCII letters lowercased, as the store's NOCASE order compares it.
  fileprivate static func sectionKey(_ category: String) -> String {
    String(decoding: category.utf8.map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 }, as: UTF8.self)
  }

}

/// `mymap show ID`: the detail view.
enum ShowCommand {
  static let spec = CommandSpec(
    "show", abstract: "Show one saved place in full.",
    arguments: [.required("ID", help: "The place's id (or its first characters).")],
    options: [.flag("json", help: "Write mymap locations JSON instead, for scripts."), StoreAccess.option])

  static func run(_ arguments: ParsedArguments) throws(CLIError) {
    let store = try StoreAccess.open(arguments, create: false, access: .readOnly)
    let place: Location
    do {
      place = try store.resolve(idOrPrefix: arguments.positional("ID")!)
    } catch {
      throw StoreAccess.map(error)
    }
    if arguments.flag("json") {
      Console.print(String(decoding: LocationsFile.encode(LocationSet(locations: [place])), as: UTF8.self))
    } else {
      Console.print(PlaceText.detail(place, dates: UserLocale.dateFormatter()))
    }
  }
}

/// `mymap categories`: the app's list, in its order.
enum CategoriesCommand {
  static let spec = CommandSpec(
    "categories", abstract: "List the categories a place can have, in the app's order.")

  static func run(_ arguments: ParsedArguments) throws(CLIError) {
    Console.print(Category.names.joined(separator: "\n"))
  }
}
