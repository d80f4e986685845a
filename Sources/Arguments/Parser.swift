/// What parsing a command's arguments produced.
public enum ParseResult: Equatable, Sendable {
  /// The arguments were valid.
  case arguments(ParsedArguments)
  /// `--help` or `-h` was given (before any `--`); the caller prints the command's help.
  case helpRequested
}

extension CommandSpec {
  /// Parses the arguments that follow the command words.
  ///
  /// Accepts `--name value`, `--name=value`, `-x value`, `-x=value`, flags, and positionals in any order;
  /// `--` ends the options. A lone `-` and negative numbers (`-1`, `-33.9,151.2`) are values, not options.
  public func parse(_ arguments: [String]) throws(ArgumentError) -> ParseResult {
    var parser = Parser(command: self)
    return try parser.parse(arguments)
  }
}

/// Whether a token is an option rather than a value: it starts with `-`, is not a lone `-`, and is not a
/// negative number such as `-1`, `-.5` or `-33.9,151.2`.
func looksLikeOption(_ token: String) -> Bool {
  guard token.hasPrefix("-"), token.count > 1 else { return false }
  let rest = token.dropFirst()
  if rest.first!.isASCII && rest.first!.isNumber { return false }
  if rest.first == ".", let next = rest.dropFirst().first, next.isASCII && next.isNumber { return false }
  return true
}

private struct Parser {
  let command: CommandSpec
  var values: [String: [String]] = [:]
  var flags: Set<String> = []
  var positionals: [String] = []

  init(command: CommandSpec) {
    self.command = command
  }

  mutating func parse(_ tokens: [String]) throws(ArgumentError) -> ParseResult {
    for token in tokens {
      if token == "--" { break }
      if token == "--help" || token == "-h" { return .helpRequested }
    }
    var index = 0
    var optionsEnded = false
    while index < tokens.count {
      let token = tokens[index]
      index += 1
      if optionsEnded || !looksLikeOption(token) {
        positionals.append(token)
      } else if token == "--" {
        optionsEnded = true
      } else {
        let (option, inlineValue) = try resolve(token)
        if option.takesValue {
          var value = inlineValue
          if value == nil, index < tokens.count, !looksLikeOption(tokens[index]) {
            value = tokens[index]
            index += 1
          }
          guard let value else {
            throw .missingValue(option: option.longForm, valueName: option.valueName ?? "")
          }
          if !option.isRepeatable && values[option.name] != nil {
            throw .duplicateOption(option.longForm)
          }
          values[option.name, default: []].append(value)
        } else {
          if let inlineValue { throw .unexpectedValue(option: option.longForm, value: inlineValue) }
          if !flags.insert(option.name).inserted { throw .duplicateOption(option.longForm) }
        }
      }
    }
    if let missing = command.options.first(where: { $0.isRequired && values[$0.name] == nil }) {
      throw .missingOption(option: missing.longForm, valueName: missing.valueName ?? "")
    }
    let byName = try assignPositionals()
    return .arguments(
      ParsedArguments(
        command: command, values: values, flags: flags, positionals: positionals,
        positionalsByName: byName))
  }

  /// Finds the option a token names, with its `=value` part (`--out=x`, `-o=x`).
  private func resolve(_ token: String) throws(ArgumentError) -> (OptionSpec, String?) {
    if token.hasPrefix("--") {
      let body = token.dropFirst(2)
      let name = String(body.prefix { $0 != "=" })
      let inlineValue = body.firstIndex(of: "=").map { String(body[body.index(after: $0)...]) }
      guard let option = command.option(named: name) else {
        throw .unknownOption("--" + name, suggestion: suggestion(for: name))
      }
      return (option, inlineValue)
    }
    let body = token.dropFirst()
    let hasInlineValue = body.dropFirst().first == "="
    if body.count == 1 || hasInlineValue, let option = command.option(short: body.first!) {
      return (option, hasInlineValue ? String(body.dropFirst(2)) : nil)
    }
    throw .unknownOption(token, suggestion: body.count > 1 ? suggestion(for: String(body)) : nil)
  }

  private func suggestion(for name: String) -> String? {
    let names = command.options.map(\.name) + ["help"]
    return closestMatch(to: name, among: names).map { "--" + $0 }
  }

  /// Hands the positionals to the declared arguments left to right; required ones come first.
  private func assignPositionals() throws(ArgumentError) -> [String: [String]] {
    var byName: [String: [String]] = [:]
    var remaining = positionals[...]
    for argument in command.arguments {
      switch argument.arity {
      case .required, .optional:
        if let value = remaining.popFirst() {
          byName[argument.name] = [value]
        } else if argument.arity == .required {
          throw .missingPositional(argument.name)
        }
      case .oneOrMore, .zeroOrMore:
        if remaining.isEmpty && argument.arity == .oneOrMore {
          throw .missingPositional(argument.name)
        }
        byName[argument.name] = Array(remaining)
        remaining = []
      }
    }
    if let extra = remaining.first { throw .unexpectedPositional(extra) }
    return byName
  }
}
