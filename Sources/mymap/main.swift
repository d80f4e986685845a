import Arguments
import Foundation

/// The CLI entry point: choose the command, run it, map its failure to an exit code and one line on stderr.
let version = "0.1.0"
let tool = ToolSpec(
  name: "mymap", abstract: "Turn saved places into a finished static map image (PNG, SVG or PDF), offline.",
  commands: [RenderCommand.spec, DiffCommand.spec, HelpCommand.spec])

func main() -> Int32 {
  let argv = Array(CommandLine.arguments.dropFirst())
  if argv == ["--version"] || argv == ["version"] {
    Console.print("mymap \(version)")
    return 0
  }
  do {
    switch try tool.select(argv) {
    case .help(let group):
      Console.print(tool.overview(group: group))
      return argv.isEmpty ? 2 : 0
    case .command(let command, let rest):
      guard case .arguments(let arguments) = try command.parse(rest) else {
        Console.print(tool.help(for: command))
        return 0
      }
      switch command.name {
      case RenderCommand.spec.name: try RenderCommand.run(arguments)
      case DiffCommand.spec.name: try DiffCommand.run(arguments)
      default: try HelpCommand.run(arguments, tool: tool)
      }
      return 0
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

exit(main())
