import Arguments

/// `mymap help [COMMAND]`: the command list, or one command's help.
enum HelpCommand {
  static let spec = CommandSpec(
    "help", abstract: "Show the commands, or the help of one command.",
    arguments: [.variadic("COMMAND", help: "The command to explain (e.g. render).", atLeastOne: false)])

  static func run(_ arguments: ParsedArguments, tool: ToolSpec) throws(CLIError) {
    let words = arguments.positionals("COMMAND")
    guard !words.isEmpty else {
      Console.print(tool.overview())
      return
    }
    do {
      switch try tool.select(words + ["--help"]) {
      case .help(let group): Console.print(tool.overview(group: group))
      case .command(let command, _): Console.print(tool.help(for: command))
      }
    } catch {
      throw .usage(error.description)
    }
  }
}
