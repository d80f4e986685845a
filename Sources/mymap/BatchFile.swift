import Arguments
import FileSystem
import Foundation
import JSON

/// The file of `render --batch`: JSON lines, one map each, whose keys are `render`'s options without
/// dashes (`{"out": "2026-11.png", "month": "2026-11", "title": "November"}`); a flag is `true` (or
/// `false` to clear one given on the command line), a repeatable option an array, a number may stand for
/// its text, and `null` takes an option back to its default. Blank lines are skipped; lines keep their
/// numbers in the file for the results.
enum BatchFile {
  /// The largest batch file read (a file, standard input or a pipe).
  static let maximumBytes = 16 << 20
  /// The most maps in one batch.
  static let maximumMaps = 10_000
  /// The longest line; a longer one is that line's usage error.
  static let maximumLineBytes = 64 << 10
  /// Options only the command line gives: a line cannot start another batch or a watch.
  static let commandLineOnly: Set<String> = ["batch", "watch"]

  /// One map's line: its number in the file (from 1) and its bytes, without the line break.
  struct Line: Sendable {
    let number: Int
    let bytes: ArraySlice<UInt8>
  }

  /// The non-blank lines of the file at `path` (`-`: standard input). A file that cannot be read, is too
  /// large or holds too many maps is bad input (exit 3), before any map is made.
  static func lines(path: String) throws(CLIError) -> [Line] {
    let name = path == "-" ? "standard input" : path
    let data: Data
    do throws(InputFileError) {
      data =
        path == "-"
        ? try InputFile.read(descriptor: STDIN_FILENO, limit: maximumBytes)
        : try InputFile.read(path: path, limit: maximumBytes)
    } catch {
      throw .badInput("cannot read the batch file \(name): \(error.reason)")
    }
    let bytes = [UInt8](data)
    var lines: [Line] = []
    var number = 0
    for var slice in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
      number += 1
      if slice.last == UInt8(ascii: "\r") { slice = slice.dropLast() }
      guard slice.contains(where: { !isBlank($0) }) else { continue }
      guard lines.count < maximumMaps else {
        throw .badInput(
          "the batch file \(name) holds more than \(maximumMaps) maps (line \(number)); split it")
      }
      lines.append(Line(number: number, bytes: slice))
    }
    return lines
  }

  /// The options of one line given over `defaults` (the command line's). Whatever is wrong with the line
  /// is its usage error (exit 2).
  static func arguments(of line: Line, over defaults: ParsedArguments) throws(CLIError) -> ParsedArguments {
    guard line.bytes.count <= maximumLineBytes else {
      throw .usage("the line is longer than \(ByteCount.text(maximumLineBytes))")
    }
    let object: JSONValue
    do throws(JSONSyntaxError) {
      // Objects of strings, numbers and arrays of them: nothing deeper is an option.
      object = try JSONParser.parse(line.bytes, maximumDepth: 3)
    } catch {
      throw .usage("not JSON: column \(error.column): \(error.message)")
    }
    guard case .object(let members) = object else {
      throw .usage(
        "expected a JSON object of render options, like {\"out\": \"map.png\"}, not \(object.summary)")
    }
    var values: [String: [String]] = [:]
    var flags: [String: Bool] = [:]
    let spec = defaults.command
    for member in members {
      guard !commandLineOnly.contains(member.name), let option = spec.option(named: member.name) else {
        let known = spec.options.map(\.name).filter { !commandLineOnly.contains($0) }
        let suggestion = closestMatch(to: member.name, among: known).map { "; did you mean \"\($0)\"?" }
        throw .usage("unknown key \(JSONWriter.quotedExcerpt(member.name))" + (suggestion ?? ""))
      }
      let key = JSONWriter.quoted(member.name)
      if !option.takesValue {
        guard case .bool(let given) = member.value else {
          throw .usage("\(key) is a flag: give true or false, not \(member.value.summary)")
        }
        flags[member.name] = given
        continue
      }
      switch member.value {
      case .null: values[member.name] = []
      case .array(let elements) where option.isRepeatable:
        values[member.name] = try elements.map { (element) throws(CLIError) in
          try text(element, key: key, option: option)
        }
      default: values[member.name] = [try text(member.value, key: key, option: option)]
      }
    }
    return defaults.overriding(values: values, flags: flags)
  }

  /// The text of one option value: a string, or a number written as JSON writes it.
  private static func text(_ value: JSONValue, key: String, option: OptionSpec) throws(CLIError) -> String {
    switch value {
    case .string(let text): return text
    case .number(let number): return JSONWriter.numberText(number)
    default:
      let many = option.isRepeatable ? " (or an array of them)" : ""
      throw .usage("\(key) takes a \(option.valueName ?? "value") as a string\(many), not \(value.summary)")
    }
  }

  private static func isBlank(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r")
  }
}
