/// A shell's completion script for a tool, written from its specs: the commands (one word at a time, so
/// `tiles` then `fetch`), each command's options, and for an option's value either its choices (a value
/// name such as `all|none`) or file names.
public struct CompletionScript: Sendable {
  /// The shells a script can be written for.
  public enum Shell: String, CaseIterable, Sendable {
    case bash, zsh, fish
  }

  /// The tool whose commands are completed.
  public let tool: ToolSpec
  /// Names an option's value may be, by the option's long name, offered along with file names (the
  /// style names for `--style NAME|FILE`): known when the script is written, not when it runs.
  public let knownValues: [String: [String]]

  /// A script generator for `tool`; `knownValues` adds names to options that take files.
  public init(tool: ToolSpec, knownValues: [String: [String]] = [:]) {
    self.tool = tool
    self.knownValues = knownValues.mapValues { $0.filter(Self.isPlainWord) }
  }

  /// A value safe to put in every shell's word list unquoted.
  static func isPlainWord(_ word: String) -> Bool {
    !word.isEmpty && word.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) }
  }

  /// The known names offered for `option` besides file names.
  private func knownNames(_ option: OptionSpec) -> [String] {
    Self.takesFile(option) ? knownValues[option.name] ?? [] : []
  }

  /// The script for `shell`, ending with a newline; source it, or install it where the shell looks.
  public func script(for shell: Shell) -> String {
    switch shell {
    case .bash: bash
    case .zsh: zsh
    case .fish: fish
    }
  }

  /// The command paths and their prefixes (`tiles`, `tiles fetch`), each once, in declaration order.
  var paths: [String] {
    var result: [String] = []
    for command in tool.commands {
      for length in 1...command.path.count {
        let path = command.path.prefix(length).joined(separator: " ")
        if !result.contains(path) { result.append(path) }
      }
    }
    return result
  }

  /// The words that can follow `path` ("" for the first word), with a one-line description each.
  func nextWords(after path: String) -> [(word: String, help: String)] {
    let group = path.isEmpty ? [] : path.split(separator: " ").map(String.init)
    var result: [(String, String)] = []
    for command in tool.commands where command.path.count > group.count && command.path.starts(with: group) {
      let word = command.path[group.count]
      guard !result.contains(where: { $0.0 == word }) else { continue }
      let isLeaf = command.path.count == group.count + 1
      result.append((word, isLeaf ? command.abstract : "\(word) commands"))
    }
    return result
  }

  /// The fixed values an option takes when its value name lists them (`all|none`, `png|svg|pdf`); empty
  /// for a placeholder such as `PATH` or `NAME|FILE`.
  static func choices(_ option: OptionSpec) -> [String] {
    guard let name = option.valueName else { return [] }
    let parts = name.split(separator: "|").map(String.init)
    let isChoice =
      parts.count > 1 && parts.allSatisfy { part in part.allSatisfy { $0.isLowercase || $0.isNumber } }
    return isChoice ? parts : []
  }

  /// Whether an option's value is a file name (its value name says `PATH`, `FILE`, `DIR` or `SOURCE`),
  /// so that file names are offered; other values (`WxH`, `N`) are left to the user.
  static func takesFile(_ option: OptionSpec) -> Bool {
    guard let name = option.valueName?.uppercased() else { return false }
    return ["PATH", "FILE", "DIR", "SOURCE"].contains { name.contains($0) }
  }

  /// A help line trimmed to its first sentence, so that menus stay one line.
  static func summary(_ help: String) -> String {
    var text = ""
    var previous: Character = " "
    for character in help {
      if previous == "." && character == " " { break }
      text.append(character)
      previous = character
    }
    if text.hasSuffix(".") { text.removeLast() }
    return text
  }

  private var bash: String {
    let function = "_\(identifier)"
    var lines = [
      "# bash completion for \(tool.name), written by '\(tool.name) completions bash'.",
      "\(function)() {",
      "  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} path= word i",
      "  for ((i = 1; i < COMP_CWORD; i++)); do",
      "    word=${COMP_WORDS[i]}",
      "    case \"$path${path:+ }$word\" in",
      "      \(paths.map(bashPattern).joined(separator: "|"))) path=\"$path${path:+ }$word\" ;;",
      "      *) break ;;",
      "    esac",
      "  done",
      "  case \"$path\" in",
    ]
    for path in [""] + paths {
      let words = nextWords(after: path).map(\.word)
      let command = tool.commands.first { $0.name == path }
      guard !words.isEmpty || command != nil else { continue }
      lines.append("    \(bashQuoted(path)))")
      if let command {
        lines.append("      case \"$prev\" in")
        for option in command.options where option.takesValue {
          let names = ([option.longForm] + (option.short.map { ["-\($0)"] } ?? [])).joined(separator: "|")
          let choices = Self.choices(option)
          let known = knownNames(option)
          let reply =
            !choices.isEmpty
            ? "($(compgen -W \(bashQuoted(choices.joined(separator: " "))) -- \"$cur\"))"
            : !known.isEmpty
              ? "($(compgen -W \(bashQuoted(known.joined(separator: " "))) -- \"$cur\") $(compgen -f -- \"$cur\"))"
              : Self.takesFile(option) ? "($(compgen -f -- \"$cur\"))" : "()"
          lines.append("        \(names)) COMPREPLY=\(reply); return ;;")
        }
        lines.append("      esac")
      }
      var candidates = words
      if let command {
        candidates += command.options.flatMap { [$0.longForm] + ($0.short.map { ["-\($0)"] } ?? []) }
        candidates.append("--help")
      }
      lines.append(
        "      COMPREPLY=($(compgen -W \(bashQuoted(candidates.joined(separator: " "))) -- \"$cur\"))")
      if command.map({ !$0.arguments.isEmpty }) == true {
        lines.append("      [[ $cur != -* ]] && COMPREPLY+=($(compgen -f -- \"$cur\"))")
      }
      lines.append("      ;;")
    }
    lines += ["  esac", "}", "complete -o filenames -F \(function) \(tool.name)"]
    return lines.joined(separator: "\n") + "\n"
  }

  private var zsh: String {
    let function = "_\(identifier)"
    var lines = [
      "#compdef \(tool.name)",
      "# zsh completion for \(tool.name), written by '\(tool.name) completions zsh'.",
      "\(function)() {",
      "  local path_words= word",
      "  local -i i=2",
      "  while (( i < CURRENT )); do",
      "    word=${words[i]}",
      "    case \"$path_words${path_words:+ }$word\" in",
      "      (\(paths.map(bashPattern).joined(separator: "|")))",
      "        path_words=\"$path_words${path_words:+ }$word\" ;;",
      "      (*) break ;;",
      "    esac",
      "    (( i++ ))",
      "  done",
      "  case \"$path_words\" in",
    ]
    for path in [""] + paths {
      let words = nextWords(after: path)
      let command = tool.commands.first { $0.name == path }
      if let command {
        lines.append("    (\(bashQuoted(path)))")
        lines.append("      words=(\"${(@)words[i-1,-1]}\"); (( CURRENT -= i - 2 ))")
        var specs = command.options.map(zshSpec)
        specs.append("'(- *)'{-h,--help}'[Show help for this command]'")
        if !command.arguments.isEmpty { specs.append("'*:file:_files'") }
        lines.append("      _arguments -s \\")
        lines += specs.map { "        \($0) \\" }
        lines.append("        && return ;;")
      } else if !words.isEmpty {
        lines.append("    (\(bashQuoted(path)))")
        let values = words.map { "'\($0.word)[\(zshEscaped(Self.summary($0.help)))]'" }
        lines.append("      _values command \(values.joined(separator: " ")) ;;")
      }
    }
    lines += ["  esac", "}", "\(function) \"$@\""]
    return lines.joined(separator: "\n") + "\n"
  }

  private func zshSpec(_ option: OptionSpec) -> String {
    let help = "[\(zshEscaped(Self.summary(option.help)))]"
    var value = ""
    if let name = option.valueName {
      let choices = Self.choices(option)
      let known = knownNames(option)
      let action =
        !choices.isEmpty
        ? "(\(choices.joined(separator: " ")))"
        : !known.isEmpty
          ? "{compadd -- \(known.joined(separator: " ")); _files}" : Self.takesFile(option) ? "_files" : " "
      value = ":\(zshEscaped(name)):\(action)"
    }
    let repeated = option.isRepeatable ? "*" : ""
    if let short = option.short {
      let exclusion = option.isRepeatable ? "'*'" : "'(-\(short) \(option.longForm))'"
      return "\(exclusion){-\(short),\(option.longForm)}'\(help)\(value)'"
    }
    return "'\(repeated)\(option.longForm)\(help)\(value)'"
  }

  private var fish: String {
    let helper = "__\(identifier)_command"
    var lines = [
      "# fish completion for \(tool.name), written by '\(tool.name) completions fish'.",
      "function \(helper)",
      "    set -l path",
      "    set -l words (commandline -opc)",
      "    set -e words[1]",
      "    for word in $words",
      "        set -l next (string join -- ' ' $path $word)",
      "        contains -- $next \(paths.map(fishQuoted).joined(separator: " ")); or break",
      "        set path $path $word",
      "    end",
      "    # One line even at the top level, where the path is empty.",
      "    echo \"-$path\"",
      "end",
      "complete -c \(tool.name) -f",
    ]
    for path in [""] + paths {
      let condition = "-n \(fishQuoted("test (\(helper)) = \(fishInnerQuoted("-" + path))"))"
      for next in nextWords(after: path) {
        lines.append(
          "complete -c \(tool.name) \(condition) -a \(fishQuoted(next.word)) -d \(fishQuoted(Self.summary(next.help)))"
        )
      }
      guard let command = tool.commands.first(where: { $0.name == path }) else { continue }
      for option in command.options {
        var line = "complete -c \(tool.name) \(condition) -l \(option.name)"
        if let short = option.short { line += " -s \(short)" }
        if option.takesValue {
          let choices = Self.choices(option)
          if !choices.isEmpty {
            line += " -x -a \(fishQuoted(choices.joined(separator: " ")))"
          } else {
            line += Self.takesFile(option) ? " -r -F" : " -x"
            let known = knownNames(option)
            if !known.isEmpty { line += " -a \(fishQuoted(known.joined(separator: " ")))" }
          }
        }
        lines.append(line + " -d \(fishQuoted(Self.summary(option.help)))")
      }
      if !command.arguments.isEmpty { lines.append("complete -c \(tool.name) \(condition) -F") }
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// The tool's name as a shell function name.
  private var identifier: String {
    String(tool.name.map { $0.isLetter || $0.isNumber ? $0 : "_" })
  }

  /// A `case` pattern matching exactly `path` (its spaces escaped).
  private func bashPattern(_ path: String) -> String {
    path.split(separator: " ").joined(separator: "\\ ")
  }

  private func bashQuoted(_ text: String) -> String {
    "'" + text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
  }

  private func fishQuoted(_ text: String) -> String {
    "'" + fishInner(text) + "'"
  }

  /// For a quoted string inside a fish single-quoted string: double quotes (the outer quote is `'`).
  private func fishInnerQuoted(_ text: String) -> String {
    "\"" + text.filter { $0 != "\"" && $0 != "'" && $0 != "\\" && $0 != "$" } + "\""
  }

  private func fishInner(_ text: String) -> String {
    var result = ""
    for character in text {
      if character == "'" || character == "\\" { result.append("\\") }
      result.append(character)
    }
    return result
  }

  /// Text for an `_arguments` or `_values` description inside single quotes.
  private func zshEscaped(_ text: String) -> String {
    var result = ""
    for character in text {
      switch character {
      case "'": result += "'\\''"
      case "[", "]", ":", "\\": result += "\\" + String(character)
      default: result.append(character)
      }
    }
    return result
  }
}
