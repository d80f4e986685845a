import Arguments

/// `mymap completions SHELL`: the shell completion script, written from the same specs as `--help`.
enum CompletionsCommand {
  static let spec = CommandSpec(
    "completions", abstract: "Print the shell completion script for bash, zsh or fish.",
    discussion: """
      Scripts/install puts them where each shell looks: share/bash-completion/completions/mymap, \
      share/zsh/site-functions/_mymap and share/fish/vendor_completions.d/mymap.fish under the prefix.
      """,
    arguments: [.required("SHELL", help: "bash, zsh or fish.")],
    examples: [
      .init("Complete mymap in this bash session:", "source <(mymap completions bash)"),
      .init(
        "Install the zsh completion for yourself:", "mymap completions zsh > ~/.zfunc/_mymap"),
    ])

  static func run(_ arguments: ParsedArguments, tool: ToolSpec) throws(CLIError) {
    let name = arguments.positional("SHELL")!
    guard let shell = CompletionScript.Shell(rawValue: name) else {
      let names = CompletionScript.Shell.allCases.map(\.rawValue)
      let suggestion = closestMatch(to: name, among: names).map { "; did you mean \($0)?" } ?? ""
      throw .usage("unknown shell '\(name)' (expected \(names.joined(separator: ", ")))\(suggestion)")
    }
    // The style names found now (installed, or in the checkout) complete --style besides files.
    let scripts = CompletionScript(tool: tool, knownValues: ["style": StyleResolver.availableNames()])
    Console.print(scripts.script(for: shell))
  }
}
