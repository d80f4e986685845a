import Arguments
import XCTest

/// The man page and completion scripts written from specs, with awkward text in them.
final class ManPageAndCompletionScriptTests: XCTestCase {
  private let awkward = CommandSpec(
    "show", abstract: ".starts with a dot, has a \\ and a \"quote\"",
    discussion: "First line.\n  'an indented line that starts with a quote\n\nA new paragraph.",
    arguments: [.required("ID", help: "The place.")],
    options: [
      .value("callouts", valueName: "all|none", help: "Callouts. More text."),
      .value("out", short: "o", valueName: "PATH", help: "Where it goes."),
      .value("size", valueName: "WxH", help: "How big."),
      .value("category", short: "c", valueName: "NAME", help: "Repeat it.", repeatable: true),
    ],
    examples: [.init("Show one:", "mymap show abc --out -")])

  private var tool: ToolSpec {
    ToolSpec(name: "mymap", abstract: "Maps.", commands: [awkward, Fixtures.tilesFetch, Fixtures.tilesInfo])
  }

  func testTheManPageEscapesWhatTroffWouldRead() {
    let page = ManPage(tool: tool, version: "9.9").troff
    let lines = page.split(separator: "\n").map(String.init)
    XCTAssertEqual(lines.first, ".TH \"MYMAP\" 1 \"\" \"mymap 9.9\" \"User Commands\"")
    XCTAssertTrue(lines.contains("\\&.starts with a dot, has a \\e and a \"quote\""), page)
    XCTAssertTrue(lines.contains("\\&'an indented line that starts with a quote"), page)
    XCTAssertTrue(lines.contains("\\fB\\-o\\fR, \\fB\\-\\-out\\fR \\fIPATH\\fR"), page)
    XCTAssertTrue(lines.contains(".SS \"mymap tiles fetch\""), page)
    XCTAssertTrue(page.contains(".nf\nmymap show abc \\-\\-out \\-\n.fi"), page)
    // Every line is a request or text that cannot be read as one.
    for line in lines where line.hasPrefix(".") || line.hasPrefix("'") {
      XCTAssertTrue(line.first == "." && line.dropFirst().first?.isLetter == true, line)
    }
    XCTAssertEqual(page, ManPage(tool: tool, version: "9.9").troff, "deterministic")
  }

  func testCompletionsOfferChoicesFilesAndNothing() {
    let scripts = CompletionScript(tool: tool)
    let bash = scripts.script(for: .bash)
    XCTAssertTrue(
      bash.contains("--callouts) COMPREPLY=($(compgen -W 'all none' -- \"$cur\")); return ;;"), bash)
    XCTAssertTrue(bash.contains("--out|-o) COMPREPLY=($(compgen -f -- \"$cur\")); return ;;"), bash)
    XCTAssertTrue(bash.contains("--size) COMPREPLY=(); return ;;"), bash)
    XCTAssertTrue(bash.contains("show|tiles|tiles\\ fetch|tiles\\ info) path="), bash)
    let zsh = scripts.script(for: .zsh)
    XCTAssertTrue(zsh.hasPrefix("#compdef mymap\n"))
    XCTAssertTrue(zsh.contains("'--callouts[Callouts]:all|none:(all none)'"), zsh)
    XCTAssertTrue(zsh.contains("'*'{-c,--category}'[Repeat it]:NAME: '"), zsh)
    XCTAssertTrue(zsh.contains("_values command 'fetch[Download the tiles"), zsh)
    let fish = scripts.script(for: .fish)
    XCTAssertTrue(
      fish.contains(
        "complete -c mymap -n 'test (__mymap_command) = \"-show\"' -l callouts -x -a 'all none' -d 'Callouts'"
      ),
      fish)
    XCTAssertTrue(fish.contains("-l out -s o -r -F -d 'Where it goes'"), fish)
    XCTAssertTrue(fish.contains("-n 'test (__mymap_command) = \"-tiles\"' -a 'fetch'"), fish)
  }

  func testKnownNamesAreOfferedWithFilesAndOddNamesLeftOut() {
    let scripts = CompletionScript(tool: tool, knownValues: ["out": ["dark", "my style", "a'b", "light"]])
    XCTAssertTrue(
      scripts.script(for: .bash).contains(
        "--out|-o) COMPREPLY=($(compgen -W 'dark light' -- \"$cur\") $(compgen -f -- \"$cur\")); return ;;"))
    XCTAssertTrue(scripts.script(for: .zsh).contains(":PATH:{compadd -- dark light; _files}'"))
    XCTAssertTrue(scripts.script(for: .fish).contains("-l out -s o -r -F -a 'dark light' -d"))
    // Only options that take files get names: --size WxH does not.
    let sized = CompletionScript(tool: tool, knownValues: ["size": ["big"]])
    XCTAssertFalse(sized.script(for: .bash).contains("big"))
  }

  func testExamplesEndTheHelp() {
    let help = HelpFormatter().help(for: awkward, toolName: "mymap")
    XCTAssertTrue(help.hasSuffix("EXAMPLES:\n  Show one:\n    mymap show abc --out -"), help)
  }
}
