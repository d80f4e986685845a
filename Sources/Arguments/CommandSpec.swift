/// The declaration of one command: its words, help text, options and positional arguments.
///
/// A malformed spec (duplicate names, a required argument after an optional one, …) is a programming
/// error and stops the program when the spec is created.
public struct CommandSpec: Equatable, Sendable {
  /// The command words after the tool name: `["render"]`, `["tiles", "fetch"]`.
  public let path: [String]
  /// One line saying what the command does.
  public let abstract: String
  /// Longer help shown after the abstract; line breaks are kept, each line is wrapped.
  public let discussion: String?
  /// Positional arguments, in order.
  public let arguments: [PositionalSpec]
  /// Options and flags, in the order help lists them.
  public let options: [OptionSpec]
  /// Command lines to copy, shown at the end of the help and in the man page.
  public let examples: [Example]

  /// One example: what it does, then the command line.
  public struct Example: Equatable, Sendable {
    /// What the command line does, one sentence.
    public let purpose: String
    /// The command line as typed, tool name included.
    public let command: String

    /// An example; `command` is shown as is.
    public init(_ purpose: String, _ command: String) {
      self.purpose = purpose
      self.command = command
    }
  }

  /// Declares a command; `path` is its words separated by spaces (`"tiles fetch"`).
  public init(
    _ path: String, abstract: String, discussion: String? = nil,
    arguments: [PositionalSpec] = [], options: [OptionSpec] = [], examples: [Example] = []
  ) {
    self.path = path.split(separator: " ").map(String.init)
    self.abstract = abstract
    self.discussion = discussion
    self.arguments = arguments
    self.options = options
    self.examples = examples
    let problems = Self.problems(path: self.path, arguments: arguments, options: options)
    precondition(problems.isEmpty, "CommandSpec '\(path)': " + problems.joined(separator: "; "))
  }

  /// The same command with these examples (kept apart from a spec that many hands edit).
  public func with(examples: [Example]) -> CommandSpec {
    CommandSpec(
      name, abstract: abstract, discussion: discussion, arguments: arguments, options: options,
      examples: examples)
  }

  /// The command words joined by spaces: `"tiles fetch"`.
  public var name: String { path.joined(separator: " ") }

  /// The option with this long name (without dashes), if the command declares it.
  public func option(named name: String) -> OptionSpec? {
    options.first { $0.name == name }
  }

  func option(short: Character) -> OptionSpec? {
    options.first { $0.short == short }
  }

  func positional(named name: String) -> PositionalSpec? {
    arguments.first { $0.name == name }
  }

  /// What is wrong with a declaration; empty when it is well formed.
  static func problems(path: [String], arguments: [PositionalSpec], options: [OptionSpec]) -> [String] {
    var problems: [String] = []
    if path.isEmpty { problems.append("empty command path") }
    var longNames: Set<String> = ["help"]
    var shortNames: Set<Character> = ["h"]
    for option in options {
      if option.name.isEmpty || option.name.hasPrefix("-") || option.name.contains("=")
        || option.name.contains(" ")
      {
        problems.append("bad option name '\(option.name)'")
      }
      if !longNames.insert(option.name).inserted {
        problems.append("option '\(option.name)' declared twice or reserved")
      }
      if let short = option.short {
        if short == "-" || short == "=" || short.isNumber || short.isWhitespace {
          problems.append("bad short name '\(short)'")
        }
        if !shortNames.insert(short).inserted {
          problems.append("short name '\(short)' declared twice or reserved")
        }
      }
    }
    var positionalNames: Set<String> = []
    var sawOptionalOrVariadic = false
    for (index, argument) in arguments.enumerated() {
      if !positionalNames.insert(argument.name).inserted {
        problems.append("argument '\(argument.name)' declared twice")
      }
      if argument.isVariadic && index != arguments.count - 1 {
        problems.append("variadic argument '\(argument.name)' is not last")
      }
      if argument.arity == .required && sawOptionalOrVariadic {
        problems.append("required argument '\(argument.name)' after an optional one")
      }
      if argument.arity != .required { sawOptionalOrVariadic = true }
    }
    return problems
  }
}
