/// The error a conversion closure throws to reject a value; the parser turns it into
/// `ArgumentError.invalidValue` naming the option and the value.
public struct InvalidValue: Error, Equatable, Sendable {
  /// Why the value was rejected, e.g. `"expected WIDTHxHEIGHT with both above zero"`.
  public let reason: String

  /// A rejection with a reason the user can act on.
  public init(_ reason: String) {
    self.reason = reason
  }
}

/// The options, flags and positionals given to one command.
///
/// Look values up by the names declared in the command's spec. Asking for a name the spec does not
/// declare (or a flag as a value) is a programming error and stops the program.
public struct ParsedArguments: Equatable, Sendable {
  /// The command these arguments were parsed for.
  public let command: CommandSpec
  /// All positional arguments, in order (including those after `--`).
  public let positionals: [String]
  let values: [String: [String]]
  let flags: Set<String>
  let positionalsByName: [String: [String]]

  init(
    command: CommandSpec, values: [String: [String]], flags: Set<String>, positionals: [String],
    positionalsByName: [String: [String]]
  ) {
    self.command = command
    self.values = values
    self.flags = flags
    self.positionals = positionals
    self.positionalsByName = positionalsByName
  }

  /// The value of an option: the last one given, else its declared default, else `nil`.
  public func string(_ name: String) -> String? {
    let option = valueOption(name)
    return values[name]?.last ?? option.defaultValue
  }

  /// Every value of a (repeatable) option in the order given; the default alone if none was given.
  public func strings(_ name: String) -> [String] {
    let option = valueOption(name)
    return values[name] ?? option.defaultValue.map { [$0] } ?? []
  }

  /// Whether a flag was given.
  public func flag(_ name: String) -> Bool {
    guard let option = command.option(named: name), !option.takesValue else {
      preconditionFailure("'\(name)' is not a flag of '\(command.name)'")
    }
    return flags.contains(name)
  }

  /// Whether an option or flag was given on the command line (a default does not count).
  public func isGiven(_ name: String) -> Bool {
    guard command.option(named: name) != nil else {
      preconditionFailure("'\(name)' is not an option of '\(command.name)'")
    }
    return values[name] != nil || flags.contains(name)
  }

  /// The value of a single (required or optional) positional argument, if given.
  public func positional(_ name: String) -> String? {
    positionalValues(name).first
  }

  /// The values of a positional argument (all of them for a variadic one).
  public func positionals(_ name: String) -> [String] {
    positionalValues(name)
  }

  /// The option's value converted by `convert`, or `nil` when absent with no default.
  /// A conversion error becomes `ArgumentError.invalidValue` for `--name`.
  public func value<T>(_ name: String, as convert: (String) throws -> T) throws(ArgumentError) -> T? {
    guard let text = string(name) else { return nil }
    return try converted(text, for: "--" + name, convert)
  }

  /// Every value of a repeatable option, converted by `convert`.
  public func values<T>(_ name: String, as convert: (String) throws -> T) throws(ArgumentError) -> [T] {
    var result: [T] = []
    for text in strings(name) { result.append(try converted(text, for: "--" + name, convert)) }
    return result
  }

  /// A single positional argument converted by `convert`, or `nil` when not given.
  public func positional<T>(_ name: String, as convert: (String) throws -> T) throws(ArgumentError) -> T? {
    guard let text = positional(name) else { return nil }
    return try converted(text, for: name, convert)
  }

  /// Every value of a positional argument, converted by `convert`.
  public func positionals<T>(_ name: String, as convert: (String) throws -> T) throws(ArgumentError) -> [T] {
    var result: [T] = []
    for text in positionalValues(name) { result.append(try converted(text, for: name, convert)) }
    return result
  }

  private func valueOption(_ name: String) -> OptionSpec {
    guard let option = command.option(named: name), option.takesValue else {
      preconditionFailure("'\(name)' is not an option with a value of '\(command.name)'")
    }
    return option
  }

  private func positionalValues(_ name: String) -> [String] {
    guard command.positional(named: name) != nil else {
      preconditionFailure("'\(name)' is not an argument of '\(command.name)'")
    }
    return positionalsByName[name] ?? []
  }

  private func converted<T>(
    _ text: String, for option: String, _ convert: (String) throws -> T
  ) throws(ArgumentError) -> T {
    do {
      return try convert(text)
    } catch let error as InvalidValue {
      throw .invalidValue(option: option, value: text, reason: error.reason)
    } catch let error as ArgumentError {
      throw error
    } catch {
      throw .invalidValue(option: option, value: text, reason: String(describing: error))
    }
  }
}
