/// A section 1 manual page in troff (the `man` macros), written from the same specs as `--help`, so the
/// two never disagree. Deterministic: no date, only what the specs and the arguments say.
public struct ManPage: Sendable {
  /// The tool whose commands the page documents.
  public let tool: ToolSpec
  /// Shown in the page's footer, e.g. `mymap 0.1.0`.
  public let version: String
  /// Sections after the commands (`FILES`, `ENVIRONMENT`, `EXIT STATUS`): a title and its paragraphs,
  /// separated by blank lines.
  public let extraSections: [(title: String, text: String)]

  /// A page for `tool`; `extraSections` follow the commands.
  public init(tool: ToolSpec, version: String, extraSections: [(title: String, text: String)] = []) {
    self.tool = tool
    self.version = version
    self.extraSections = extraSections
  }

  /// The page's troff source, ending with a newline.
  public var troff: String {
    var lines: [String] = []
    let name = tool.name
    lines.append(".TH \(quoted(name.uppercased())) 1 \"\" \(quoted("\(name) \(version)")) \"User Commands\"")
    lines.append(".SH NAME")
    lines.append("\(escaped(name)) \\- \(escaped(tool.abstract))")
    lines.append(".SH SYNOPSIS")
    lines.append(".B \(escaped(name))")
    lines.append(".I COMMAND")
    lines.append("[\\fIOPTIONS\\fR]")
    lines.append(".SH DESCRIPTION")
    lines.append(escaped(tool.abstract))
    lines.append("Run")
    lines.append(".B \(escaped(name)) \\fICOMMAND\\fR \\-\\-help")
    lines.append("for the same text as this page, one command at a time.")
    lines.append(".SH COMMANDS")
    for command in tool.commands { lines += commandLines(command) }
    for section in extraSections {
      lines.append(".SH \(quoted(section.title.uppercased()))")
      lines += paragraphs(section.text)
    }
    return lines.joined(separator: "\n") + "\n"
  }

  private func commandLines(_ command: CommandSpec) -> [String] {
    var lines = [".SS \(quoted(([tool.name] + command.path).joined(separator: " ")))"]
    let usage = HelpFormatter(width: Int.max).usage(for: command, toolName: tool.name)
    lines.append(".B \(escaped(String(usage.dropFirst("USAGE: ".count))))")
    lines.append(".PP")
    lines.append(escaped(command.abstract))
    if let discussion = command.discussion {
      lines.append(".PP")
      lines += paragraphs(discussion)
    }
    for argument in command.arguments {
      lines.append(".TP")
      lines.append(".I \(escaped(argument.name))")
      lines.append(escaped(argument.help))
    }
    for option in command.options {
      lines.append(".TP")
      var label = option.short.map { "\\fB\\-\(escaped(String($0)))\\fR, " } ?? ""
      label += "\\fB\(escaped(option.longForm))\\fR"
      if let value = option.valueName { label += " \\fI\(escaped(value))\\fR" }
      lines.append(label)
      lines.append(escaped(option.helpText))
    }
    if !command.examples.isEmpty {
      lines.append(".PP")
      lines.append("Examples:")
      for example in command.examples {
        lines.append(".PP")
        lines.append(escaped(example.purpose))
        lines.append(".RS 4")
        lines.append(".nf")
        lines.append(escaped(example.command))
        lines.append(".fi")
        lines.append(".RE")
      }
    }
    return lines
  }

  /// Blank-line separated paragraphs; a line's leading spaces keep it on a line of its own.
  private func paragraphs(_ text: String) -> [String] {
    var lines: [String] = []
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      if line.allSatisfy({ $0 == " " }) {
        lines.append(".PP")
      } else if line.hasPrefix(" ") {
        lines.append(".br")
        lines.append(escaped(String(line.drop { $0 == " " })))
      } else {
        lines.append(escaped(String(line)))
      }
    }
    return lines
  }

  /// Text safe on a troff line: backslashes and hyphens escaped, and a leading `.` or `'` (which would
  /// start a request) guarded by the zero-width `\&`.
  func escaped(_ text: String) -> String {
    var result = ""
    for character in text {
      switch character {
      case "\\": result += "\\e"
      case "-": result += "\\-"
      default: result.append(character)
      }
    }
    if result.hasPrefix(".") || result.hasPrefix("'") { result = "\\&" + result }
    return result
  }

  /// An argument of a request, in double quotes (a double quote inside is written `\(dq`).
  private func quoted(_ text: String) -> String {
    "\"" + escaped(text).split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\\(dq")
      + "\""
  }
}
