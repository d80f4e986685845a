import Arguments
import Foundation
import ImageCodecs
import Rendering
import Tiles

/// `mymap diff A.png B.png`: compares two images with tolerances, as the golden-image tests do.
enum DiffCommand {
  static let spec = CommandSpec(
    "diff", abstract: "Compare two PNG images with tolerances (for golden-image tests).",
    discussion: """
      Exit code 0 when the images match within the tolerances, 1 when they differ, 3 when one cannot be \
      read. A pixel differs when one of its channels differs by more than --tolerance; the images match \
      when at most --max-fraction of the pixels differ.
      """,
    arguments: [
      .required("EXPECTED", help: "The reference image (PNG)."),
      .required("ACTUAL", help: "The image to check (PNG)."),
    ],
    options: [
      .value(
        "tolerance", valueName: "N", help: "Largest channel difference (0-255) that still counts as equal.",
        default: String(Int(ImageTolerance.standard.maxChannelDifference))),
      .value(
        "max-fraction", valueName: "F", help: "Fraction of pixels (0-1) allowed to differ.",
        default: String(ImageTolerance.standard.maxDifferingFraction)),
      .value("out", short: "o", valueName: "PATH", help: "Write a diff image here: differences in magenta."),
    ])

  static func run(_ arguments: ParsedArguments) throws(CLIError) {
    let tolerance: ImageTolerance
    do {
      let channel = try arguments.value("tolerance", as: ValueParsers.nonNegativeNumber)!
      let fraction = try arguments.value("max-fraction", as: ValueParsers.nonNegativeNumber)!
      guard channel <= 255 else {
        throw ArgumentError.invalidValue(
          option: "--tolerance", value: arguments.string("tolerance")!, reason: "expected 0 to 255")
      }
      guard fraction <= 1 else {
        throw ArgumentError.invalidValue(
          option: "--max-fraction", value: arguments.string("max-fraction")!, reason: "expected 0 to 1")
      }
      tolerance = ImageTolerance(maxChannelDifference: channel, maxDifferingFraction: fraction)
    } catch {
      throw .usage("\(error)")
    }
    let expected = try image(arguments.positional("EXPECTED")!)
    let actual = try image(arguments.positional("ACTUAL")!)
    let result = ImageComparison.compare(expected, actual, tolerance: tolerance)
    if let out = arguments.string("out"), let diff = result.diffImage() {
      do {
        try OutputFile.write(
          [UInt8](PNGCodec.encode(diff)), to: out,
          inputs: ["EXPECTED", "ACTUAL"].map {
            ProtectedInput(path: arguments.positional($0)!, role: "an image this command compares")
          })
      } catch let error as CLIError {
        throw error
      } catch {
        throw .failure("cannot encode the diff image: \(error)")
      }
    }
    Console.print(result.summary)
    if !result.passes { throw .failure("the images differ beyond the tolerance") }
  }

  private static func image(_ path: String) throws(CLIError) -> RasterImage {
    guard let data = FileManager.default.contents(atPath: path) else {
      throw .badInput("cannot read \(path)")
    }
    do {
      return try PNGCodec.decode(data)
    } catch {
      throw .badInput("\(path): \(error)")
    }
  }
}
