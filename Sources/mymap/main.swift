import Arguments
import Foundation
import Rendering

/// The CLI entry point: choose the command, run it, map its failure to an exit code and one line on stderr.
let version = "0.1.0"

/// Every command's spec: made after `--version` has had its answer, which needs none of them.
func makeTool() -> ToolSpec {
  ToolSpec(
    name: "mymap", abstract: "Turn saved places into a finished static map image (PNG, SVG or PDF), offline.",
    commands: [
      RenderCommand.spec, AddCommand.spec, ListCommand.spec, ShowCommand.spec, EditCommand.spec,
      DeleteCommand.spec,
      TracksCommand.spec, CategoriesCommand.spec, ImportCommand.spec, ExportCommand.spec,
      TilesFetchCommand.spec,
      TilesInfoCommand.spec, TilesPruneCommand.spec, DiffCommand.spec, HelpCommand.spec,
      CompletionsCommand.spec,
    ].map(CommandExamples.adding))
}

func main() -> Int32 {
  let argv = Array(CommandLine.arguments.dropFirst())
  if argv == ["--version"] || argv == ["-V"] || argv == ["version"] {
    Console.print("mymap \(version)")
    return 0
  }
  // A render's fonts load on the other core while the commands' specs are made and the places, style
  // and tiles are read.
  if argv.first == RenderCommand.name { FontSetup.startLoading() }
  let tool = makeTool()
  /// Each command's code, by name.
  let runners: [String: (ParsedArguments) throws(CLIError) -> Void] = [
    RenderCommand.spec.name: RenderCommand.run, AddCommand.spec.name: AddCommand.run,
    ListCommand.spec.name: ListCommand.run, ShowCommand.spec.name: ShowCommand.run,
    EditCommand.spec.name: EditCommand.run, DeleteCommand.spec.name: DeleteCommand.run,
    CategoriesCommand.spec.name: CategoriesCommand.run, ImportCommand.spec.name: ImportCommand.run,
    TracksCommand.spec.name: TracksCommand.run,
    ExportCommand.spec.name: ExportCommand.run, DiffCommand.spec.name: DiffCommand.run,
    TilesFetchCommand.spec.name: TilesFetchCommand.run, TilesInfoCommand.spec.name: TilesInfoCommand.run,
    TilesPruneCommand.spec.name: TilesPruneCommand.run,
    HelpCommand.spec.name: { arguments throws(CLIError) in try HelpCommand.run(arguments, tool: tool) },
    CompletionsCommand.spec.name: { arguments throws(CLIError) in
      try CompletionsCommand.run(arguments, tool: tool)
    },
  ]
  do {
    switch try tool.select(argv) {
    case .help(let group):
      Console.print(tool.overview(group: group))
      return argv.isEmpty ? 2 : 0
    case .command(let command, let rest):
      // A usage error points to the help of the command it was made in.
      // `help` itself lists the commands: its usage errors (a command that does not exist) point there.
      let helpTarget = command.name == HelpCommand.spec.name ? "help" : "\(command.name) --help"
      let pointer = " (see 'mymap \(helpTarget)')"
      do {
        guard case .arguments(let arguments) = try command.parse(rest) else {
          Console.print(tool.help(for: command))
          return 0
        }
        try runners[command.name]!(arguments)
        return 0
      } catch let error as ArgumentError {
        Console.error("\(error)" + pointer)
        return 2
      } catch let error as CLIError where error.exitCode == 2 {
        Console.error(error.message + pointer)
        return 2
      }
    }
  } catch let error as ArgumentError {
    Console.error("\(error) (see 'mymap help')")
    return 2
  } catch let error as CLIError {
    Console.error(error.message)
    return error.exitCode
  } catch {
    Console.error("\(error)")
    return 1
  }
}

let status = main()
FontSetup.finishLoading()
exit(status)
