/// A tool and all its commands: selects the command argv names and builds command lists for help.
public struct ToolSpec: Equatable, Sendable {
  /// What the command words in argv select.
  public enum Selection: Equatable, Sendable {
    /// A command, with the arguments that follow its words (to pass to `CommandSpec.parse`).
    case command(CommandSpec, arguments: [String])
    /// `--help`/`-h` in place of a command: show the list of commands under `group` (`[]` for all).
    case help(group: [String])
  }

  /// The tool's name as used in usage lines (`"mymap"`).
  public let name: String
  /// One line saying what the tool does.
  public let abstract: String
  /// Every command, in the order help lists them; paths may have one or more words.
  public let commands: [CommandSpec]

  /// A tool with its commands; two commands with the same path are a programming error.
  public init(name: String, abstract: String, commands: [CommandSpec]) {
    self.name = name
    self.abstract = abstract
    self.commands = commands
    precondition(
      Set(commands.map(\.path)).count == commands.count,
      "ToolSpec '\(name)': a command path is declared twice")
  }

  /// Finds the command `argv` (without the program name) selects: the longest command path argv starts
  /// with. Throws `unknownCommand` (with a suggestion) or `missingCommand`.
  public func select(_ argv: [String]) throws(ArgumentError) -> Selection {
    var best: CommandSpec?
    for command in commands where argv.starts(with: command.path) {
      if command.path.count > (best?.path.count ?? 0) { best = command }
    }
    if let best { return .command(best, arguments: Array(argv.dropFirst(best.path.count))) }

    var group: [String] = []
    while true {
      let next = nextWords(after: group)
      let index = group.count
      guard index < argv.count, !looksLikeOption(argv[index]) || isHelp(argv[index]) else {
        throw .missingCommand(group: group.isEmpty ? nil : group.joined(separator: " "), expected: next)
      }
      if isHelp(argv[index]) { return .help(group: group) }
      if next.contains(argv[index]) {
        group.append(argv[index])
        continue
      }
      let typed = (group + [argv[index]]).joined(separator: " ")
      let suggestion = closestMatch(to: argv[index], among: next).map {
        (group + [$0]).joined(separator: " ")
      }
      throw .unknownCommand(typed, suggestion: suggestion)
    }
  }

  /// The help of one command, for `--help` after it.
  public func help(for command: CommandSpec, width: Int = 80) -> String {
    HelpFormatter(width: width).help(for: command, toolName: name)
  }

  /// The list of commands (under `group`, e.g. `["tiles"]`), for `--help` in place of a command.
  public func overview(group: [String] = [], width: Int = 80) -> String {
    HelpFormatter(width: width).overview(
      toolName: name, abstract: group.isEmpty ? abstract : nil, commands: commands, group: group)
  }

  /// The distinct words that can follow `group`, in declaration order.
  private func nextWords(after group: [String]) -> [String] {
    var words: [String] = []
    for command in commands where command.path.count > group.count && command.path.starts(with: group) {
      let word = command.path[group.count]
      if !words.contains(word) { words.append(word) }
    }
    return words
  }

  private func isHelp(_ token: String) -> Bool {
    token == "--help" || token == "-h"
  }
}
