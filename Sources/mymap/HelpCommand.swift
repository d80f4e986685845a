import Arguments

/// `mymap help [COMMAND]`: the command list, or one command's help; `--man` the whole manual page.
enum HelpCommand {
  static let spec = CommandSpec(
    "help", abstract: "Show the commands, or the help of one command.",
    arguments: [.variadic("COMMAND", help: "The command to explain (e.g. render).", atLeastOne: false)],
    options: [.flag("man", help: "Print the manual page (troff, section 1) of every command instead.")],
    examples: [
      .init("The help of one command:", "mymap help tiles fetch"),
      .init("Read the manual page without installing it:", "mymap help --man | man -l -"),
    ])

  static func run(_ arguments: ParsedArguments, tool: ToolSpec) throws(CLIError) {
    let words = arguments.positionals("COMMAND")
    if arguments.flag("man") {
      guard words.isEmpty else { throw .usage("--man prints the page of every command; name none") }
      Console.print(ManPage(tool: tool, version: version, extraSections: manSections).troff)
      return
    }
    guard !words.isEmpty else {
      Console.print(tool.overview())
      return
    }
    do {
      switch try tool.select(words + ["--help"]) {
      case .help(let group): Console.print(tool.overview(group: group))
      case .command(let command, _): Console.print(tool.help(for: command))
      }
    } catch {
      throw .usage(error.description)
    }
  }

  /// What the manual says beyond the commands (ARCHITECTURE.md §4).
  static let manSections: [(title: String, text: String)] = [
    (
      "Exit status",
      """
      0 done; 1 anything else (cannot write, a drawing failure, a store that cannot be opened; diff: the \
      images differ); 2 bad usage; 3 bad input data (places, store file, style, tile source, missing basemap \
      data); 4 the map could not be completed as asked (--offline and a tile missing); 130 stopped with Ctrl-C.
      """
    ),
    (
      "Files",
      """
      PREFIX/share/mymap/basemap.sqlite, the built-in basemap; PREFIX/share/mymap/styles/NAME.json, the \
      styles (styles/vector/ the MapLibre styles). They are looked for beside the real executable \
      (../share/mymap), then in $MYMAP_DATA, then in $XDG_DATA_HOME/mymap and each of $XDG_DATA_DIRS \
      followed by /mymap.

      The store: $MYMAP_HOME/locations.sqlite, else $XDG_DATA_HOME/mymap/locations.sqlite, else \
      ~/.local/share/mymap/locations.sqlite. The tile cache: $XDG_CACHE_HOME/mymap/tiles, else \
      ~/.cache/mymap/tiles.
      """
    ),
    (
      "Environment",
      """
      MYMAP_BASEMAP (the basemap file), MYMAP_STYLES (a styles folder, searched first), MYMAP_DATA (a \
      share/mymap folder), MYMAP_HOME, MYMAP_CONTACT, XDG_DATA_HOME, XDG_DATA_DIRS, XDG_CACHE_HOME; dates \
      use TZ and LC_ALL, LC_TIME, LANG. TERM=dumb turns off the progress line.
      """
    ),
  ]
}
