/// A usage error found while selecting a command or parsing its arguments.
///
/// `description` is one line a user can act on, without an "error:" prefix: the caller prints
/// `mymap: error: \(error)` and exits with the usage-error code.
public enum ArgumentError: Error, CustomStringConvertible, Equatable, Sendable {
  /// An option the command does not declare, as typed, with the nearest declared option if one is close.
  case unknownOption(String, suggestion: String?)
  /// An option that takes a value came last, or was followed by another option or `--`.
  case missingValue(option: String, valueName: String)
  /// A required option was not given.
  case missingOption(option: String, valueName: String)
  /// A flag was given a value (`--quiet=yes`).
  case unexpectedValue(option: String, value: String)
  /// An option that is not repeatable (or a flag) was given more than once.
  case duplicateOption(String)
  /// A positional argument beyond those the command takes.
  case unexpectedPositional(String)
  /// A required positional argument is missing.
  case missingPositional(String)
  /// A value the caller's conversion rejected; `option` is `--name` for options, the name for positionals.
  case invalidValue(option: String, value: String, reason: String)
  /// The command words name no command, with the nearest command if one is close.
  case unknownCommand(String, suggestion: String?)
  /// No command was given, or only a command group such as `tiles`; `expected` lists what may follow.
  case missingCommand(group: String?, expected: [String])

  public var description: String {
    switch self {
    case .unknownOption(let option, let suggestion):
      return "unknown option '\(option)'" + (suggestion.map { "; did you mean \($0)?" } ?? "")
    case .missingValue(let option, let valueName):
      return "missing value for \(option) (expected \(valueName))"
    case .missingOption(let option, let valueName):
      return "missing \(option) \(valueName)"
    case .unexpectedValue(let option, let value):
      return "\(option) does not take a value (got '\(value)')"
    case .duplicateOption(let option):
      return "\(option) can be given only once"
    case .unexpectedPositional(let argument):
      return "unexpected argument '\(argument)'"
    case .missingPositional(let name):
      return "missing argument \(name)"
    case .invalidValue(let option, let value, let reason):
      return "invalid value '\(value)' for \(option): \(reason)"
    case .unknownCommand(let command, let suggestion):
      return "unknown command '\(command)'" + (suggestion.map { "; did you mean '\($0)'?" } ?? "")
    case .missingCommand(let group, let expected):
      let head = group.map { "missing command after '\($0)'" } ?? "missing command"
      return head + "; expected one of: " + expected.joined(separator: ", ")
    }
  }
}
