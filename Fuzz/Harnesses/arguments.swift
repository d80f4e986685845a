import Arguments
import FuzzSupport

// The argument parser: an argv (one argument a line) selects a command of a tool shaped like mymap's
// (groups, flags, repeatable, required and defaulted options, optional and variadic positionals) and
// parses it. Any argv gives a result or a usage error; help for what was selected renders.
let tool = ToolSpec(
  name: "mymap", abstract: "Turn saved places into a map.",
  commands: [
    CommandSpec(
      "render", abstract: "Render a map.", arguments: [.optional("FILE", help: "A locations file.")],
      options: [
        .value("out", short: "o", valueName: "PATH", help: "The image.", required: true),
        .value("size", valueName: "WxH", help: "Pixels.", default: "1200x800"),
        .value("only", valueName: "CATEGORY", help: "Categories.", repeatable: true),
        .flag("offline", help: "No network."), .flag("quiet", short: "q", help: "Say less."),
      ]),
    CommandSpec(
      "delete", abstract: "Delete places.", arguments: [.variadic("ID", help: "Place ids.")],
      options: [.flag("all", help: "Every place."), .value("store", valueName: "PATH", help: "The store.")]),
    CommandSpec(
      "list", abstract: "List places.", arguments: [.variadic("ID", help: "Ids.", atLeastOne: false)]),
    CommandSpec(
      "tiles fetch", abstract: "Fetch tiles.", arguments: [.required("AREA", help: "An area.")],
      options: [.value("zoom", short: "z", valueName: "Z", help: "Zooms.", repeatable: true)]),
    CommandSpec("tiles info", abstract: "Describe a cache."),
  ])

Fuzz.run { input in
  let argv = input.bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map {
    String(decoding: $0, as: UTF8.self)
  }
  do {
    switch try tool.select(argv) {
    case .help(let group):
      _ = tool.overview(group: group)
    case .command(let command, let arguments):
      guard case .arguments(let parsed) = try command.parse(arguments) else {
        _ = tool.help(for: command)
        return
      }
      for option in command.options {
        if option.takesValue {
          _ = (parsed.string(option.name), parsed.strings(option.name))
        } else {
          _ = parsed.flag(option.name)
        }
        _ = parsed.isGiven(option.name)
      }
    }
  } catch {
    require(!"\(error)".isEmpty, "an empty usage error")
  }
}
