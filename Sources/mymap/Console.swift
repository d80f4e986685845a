import Foundation

/// Standard error and terminal facts. Swift 6 rejects the C `stderr` global, so this uses FileHandle.
enum Console {
  static func error(_ message: String) {
    FileHandle.standardError.write(Data("mymap: error: \(message)\n".utf8))
  }

  static func warning(_ message: String) {
    FileHandle.standardError.write(Data("mymap: warning: \(message)\n".utf8))
  }

  static func note(_ message: String) {
    FileHandle.standardError.write(Data("mymap: \(message)\n".utf8))
  }

  static func print(_ text: String) {
    standardOutput(Array((text.hasSuffix("\n") ? text : text + "\n").utf8))
  }

  /// Writes to standard output; a failure (a full disk, a closed pipe) ends the command with one line.
  static func standardOutput(_ bytes: [UInt8]) {
    guard writeAll(bytes, to: STDOUT_FILENO) else {
      error("cannot write to standard output: \(OutputFile.systemError())")
      exit(1)
    }
  }

  static var stderrIsTerminal: Bool { isatty(2) == 1 }
}

/// `1 place`, `2 places`.
func count(_ number: Int, _ noun: String) -> String {
  "\(number) \(noun)\(number == 1 ? "" : "s")"
}
