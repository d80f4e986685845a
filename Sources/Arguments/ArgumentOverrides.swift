extension ParsedArguments {
  /// These arguments with some options given anew, as one line of a batch sets them over the command
  /// line's: each name in `values` replaces every value the option had (an empty list takes it back to
  /// its default), each name in `flags` gives or clears the flag. The names must be the command's options
  /// of that kind (anything else is a programming error: check them with `CommandSpec.option(named:)`).
  public func overriding(values newValues: [String: [String]], flags newFlags: [String: Bool])
    -> ParsedArguments
  {
    var values = self.values
    var flags = self.flags
    for (name, given) in newValues {
      guard let option = command.option(named: name), option.takesValue,
        option.isRepeatable || given.count <= 1
      else {
        preconditionFailure("'\(name)' cannot take \(given.count) values in '\(command.name)'")
      }
      values[name] = given.isEmpty ? nil : given
    }
    for (name, given) in newFlags {
      guard let option = command.option(named: name), !option.takesValue else {
        preconditionFailure("'\(name)' is not a flag of '\(command.name)'")
      }
      if given { flags.insert(name) } else { flags.remove(name) }
    }
    return ParsedArguments(
      command: command, values: values, flags: flags, positionals: positionals,
      positionalsByName: positionalsByName)
  }
}
