/// Builds help text for commands and command lists: deterministic, wrapped at `width` columns, with
/// labels and help aligned in two columns. The text has no trailing newline.
public struct HelpFormatter: Sendable {
  /// The widest a line may be (a single word longer than that still gets a line of its own).
  public let width: Int
  /// Labels longer than this start their help on the next line instead of widening the column.
  public let maximumLabelWidth: Int

  /// A formatter for lines of at most `width` columns.
  public init(width: Int = 80, maximumLabelWidth: Int = 26) {
    self.width = width
    self.maximumLabelWidth = maximumLabelWidth
  }

  /// The full help of one command: overview, discussion, usage, arguments and options.
  public func help(for command: CommandSpec, toolName: String) -> String {
    var sections: [String] = []
    if !command.abstract.isEmpty {
      sections.append(lines(words(command.abstract), lead: "OVERVIEW: ").joined(separator: "\n"))
    }
    if let discussion = command.discussion { sections.append(paragraphs(discussion)) }
    sections.append(usage(for: command, toolName: toolName))
    let argumentRows = command.arguments.map { ($0.name, $0.help) }
    let optionRows = command.options.map { ($0.helpLabel, $0.helpText) }
    let helpRow = ("-h, --help", "Show help for this command.")
    let column = labelColumn(for: (argumentRows + optionRows + [helpRow]).map(\.0))
    if !argumentRows.isEmpty { sections.append(table("ARGUMENTS:", argumentRows, column: column)) }
    sections.append(table("OPTIONS:", optionRows + [helpRow], column: column))
    if !command.examples.isEmpty { sections.append(examples(command.examples)) }
    return sections.joined(separator: "\n\n")
  }

  /// `EXAMPLES:`, each purpose wrapped, its command line below it unwrapped (it is meant to be copied).
  private func examples(_ examples: [CommandSpec.Example]) -> String {
    var output = ["EXAMPLES:"]
    for (index, example) in examples.enumerated() {
      if index > 0 { output.append("") }
      output += lines(words(example.purpose), lead: "  ")
      output.append("    " + example.command)
    }
    return output.joined(separator: "\n")
  }

  /// The usage line(s): `USAGE: tool command ARG [--option VALUE] [--flag]`, wrapped under the command.
  public func usage(for command: CommandSpec, toolName: String) -> String {
    let argumentUnits = command.arguments.map { argument in
      switch argument.arity {
      case .required: argument.name
      case .optional: "[\(argument.name)]"
      case .oneOrMore: "\(argument.name)..."
      case .zeroOrMore: "[\(argument.name)...]"
      }
    }
    let optionUnits = command.options.map { option in
      let bare = option.longForm + (option.valueName.map { " " + $0 } ?? "")
      let unit = option.isRequired ? bare : "[\(bare)]"
      return option.isRepeatable ? unit + "..." : unit
    }
    let lead = "USAGE: \(([toolName] + command.path).joined(separator: " ")) "
    return lines(argumentUnits + optionUnits, lead: lead).joined(separator: "\n")
  }

  /// A list of commands: all of them, or those under `group` (e.g. `["tiles"]`), with their abstracts.
  public func overview(
    toolName: String, abstract: String?, commands: [CommandSpec], group: [String] = []
  ) -> String {
    var sections: [String] = []
    if let abstract, !abstract.isEmpty {
      sections.append(lines(words(abstract), lead: "OVERVIEW: ").joined(separator: "\n"))
    }
    let prefix = ([toolName] + group).joined(separator: " ")
    sections.append("USAGE: \(prefix) COMMAND [OPTIONS]")
    let rows = commands.filter { $0.path.starts(with: group) && $0.path.count > group.count }.map {
      ($0.path.dropFirst(group.count).joined(separator: " "), $0.abstract)
    }
    sections.append(table("COMMANDS:", rows, column: labelColumn(for: rows.map(\.0))))
    sections.append(
      lines(words("Run '\(prefix) COMMAND --help' for a command's arguments and options."), lead: "  ")
        .joined(separator: "\n"))
    return sections.joined(separator: "\n\n")
  }

  private func labelColumn(for labels: [String]) -> Int {
    4 + (labels.map(\.count).filter { $0 <= maximumLabelWidth }.max() ?? 0)
  }

  private func table(_ title: String, _ rows: [(String, String)], column: Int) -> String {
    var output = [title]
    for (label, help) in rows {
      let start = "  " + label
      let helpWords = words(help)
      if helpWords.isEmpty {
        output.append(start)
      } else if start.count + 2 <= column {
        let lead = start + String(repeating: " ", count: column - start.count)
        output += lines(helpWords, lead: lead, indent: column)
      } else {
        output.append(start)
        output += lines(helpWords, lead: String(repeating: " ", count: column), indent: column)
      }
    }
    return output.joined(separator: "\n")
  }

  /// Keeps the text's line breaks and each line's leading spaces; wraps each line.
  private func paragraphs(_ text: String) -> String {
    text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
      let indent = String(line.prefix { $0 == " " })
      return lines(words(String(line)), lead: indent, indent: indent.count).joined(separator: "\n")
    }.joined(separator: "\n")
  }

  private func words(_ text: String) -> [String] {
    text.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init)
  }

  /// Lays `units` out separated by spaces; the first line starts with `lead`, later ones are indented
  /// by `indent` columns (by default, to the width of `lead`, or 4 when `lead` is wider than half a line).
  private func lines(_ units: [String], lead: String, indent: Int? = nil) -> [String] {
    let indent = String(repeating: " ", count: indent ?? (lead.count <= width / 2 ? lead.count : 4))
    var result: [String] = []
    var line = lead
    var lineHasUnit = false
    for unit in units {
      let separator = lineHasUnit ? " " : ""
      let lineHasText = lineHasUnit || line.contains { $0 != " " }
      if lineHasText && line.count + separator.count + unit.count > width {
        result.append(withoutTrailingSpaces(line))
        line = indent + unit
      } else {
        line += separator + unit
      }
      lineHasUnit = true
    }
    result.append(withoutTrailingSpaces(line))
    return result
  }

  private func withoutTrailingSpaces(_ line: String) -> String {
    String(line.reversed().drop { $0 == " " }.reversed())
  }
}

extension OptionSpec {
  var helpLabel: String {
    let long = valueName.map { "\(longForm) \($0)" } ?? longForm
    return short.map { "-\($0), \(long)" } ?? long
  }

  var helpText: String {
    defaultValue.map { "\(help) (default: \($0))" } ?? help
  }
}
