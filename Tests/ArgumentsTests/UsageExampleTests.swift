import Arguments
import XCTest

/// The flow `mymap`'s main runs, end to end: select a command, parse, convert, or report one line.
final class UsageExampleTests: XCTestCase {
  private struct Size: Equatable {
    var width: Int
    var height: Int
  }

  private static func parseSize(_ text: String) throws -> Size {
    let parts = text.split(separator: "x").compactMap { Int($0) }
    guard parts.count == 2, parts[0] > 0, parts[1] > 0 else { throw InvalidValue("expected WxH above 0x0") }
    return Size(width: parts[0], height: parts[1])
  }

  /// What main would print (stdout for help, `mymap: error: …` for errors) or the render it would run.
  private func run(_ argv: [String]) -> String {
    let tool = Fixtures.tool
    do {
      switch try tool.select(argv) {
      case .help(let group):
        return tool.overview(group: group)
      case .command(let command, let rest):
        guard case .arguments(let args) = try command.parse(rest) else { return tool.help(for: command) }
        guard command == Fixtures.render else { return command.name }
        let size = try args.value("size", as: Self.parseSize)!
        let categories = args.strings("category").joined(separator: "+")
        return
          "render \(args.string("out")!) \(size.width)x\(size.height) [\(categories)] \(args.flag("quiet"))"
      }
    } catch {
      return "mymap: error: \(error)"
    }
  }

  func testTheFlow() {
    XCTAssertEqual(
      run(["render", "-o", "-", "--category", "Bar", "--category=Park", "-q"]),
      "render - 800x600 [Bar+Park] true")
    XCTAssertEqual(
      run(["render", "--size", "0x600"]),
      "mymap: error: invalid value '0x600' for --size: expected WxH above 0x0")
    XCTAssertEqual(run(["rendr"]), "mymap: error: unknown command 'rendr'; did you mean 'render'?")
    XCTAssertEqual(
      run(["render", "--categry", "Bar"]),
      "mymap: error: unknown option '--categry'; did you mean --category?")
    XCTAssertEqual(run(["tiles", "fetch", "--zoom", "3-6"]), "tiles fetch")
    XCTAssertEqual(run(["render", "--help"]), Fixtures.tool.help(for: Fixtures.render))
    XCTAssertEqual(run(["--help"]), Fixtures.tool.overview())
  }
}
