/// A failure of one command, with the exit code ARCHITECTURE.md §4 gives it. The message is one line.
enum CLIError: Error {
  /// Exit 2: an unknown flag, a bad value, a missing argument.
  case usage(String)
  /// Exit 3: unreadable or malformed input data (locations, style, tile source).
  case badInput(String)
  /// Exit 4: the map could not be completed as asked (tiles missing with --offline).
  case incomplete(String)
  /// Exit 130 (the shell's code for Ctrl-C): the user stopped the command; the text says what was kept.
  case interrupted(String)
  /// Exit 1: anything else (cannot write the output, a drawing failure).
  case failure(String)

  var exitCode: Int32 {
    switch self {
    case .usage: return 2
    case .badInput: return 3
    case .incomplete: return 4
    case .failure: return 1
    case .interrupted: return 130
    }
  }

  /// The same failure with `text` after its message.
  func appending(_ text: String) -> CLIError {
    switch self {
    case .usage(let message): .usage(message + text)
    case .badInput(let message): .badInput(message + text)
    case .incomplete(let message): .incomplete(message + text)
    case .interrupted(let message): .interrupted(message + text)
    case .failure(let message): .failure(message + text)
    }
  }

  var message: String {
    switch self {
    case .usage(let text), .badInput(let text), .incomplete(let text), .failure(let text),
      .interrupted(let text):
      return text
    }
  }
}
