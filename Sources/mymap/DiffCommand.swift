import Arguments
import Foundation
import ImageCodecs
import JSON
import Rendering
import Tiles

/// `mymap diff A.png B.png`: compares two images with tolerances, as the golden-image tests do.
enum DiffCommand {
  static let spec = CommandSpec(
    "diff", abstract: "Compare two PNG images with tolerances (for golden-image tests).",
    discussion: """
      Exit code 0 when the images match within the tolerances, 1 when they differ, 3 when one cannot be \
      read. A pixel differs when one of its channels differs by more than --tolerance from the same place \
      in the other image or, from --scale 2, from every pixel within one pixel of it (so an antialiased \
      edge drawn by another Cairo or FreeType build still matches). The images match when at most --max-fraction of the pixels \
      differ and no block of 16 points (16 × --scale pixels) holds more than 2 × scale² differing pixels: \
      one changed letter in a callout fails at any image size.
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
      .value(
        "scale", valueName: "N",
        help: "Pixels per point the images were drawn at (1-8): sets the block size.",
        default: "1"),
      .value(
        "block-pixels", valueName: "N",
        help: "Differing pixels one block may hold (default: 2 × scale²; the block is 16 × scale pixels)."),
      .value("out", short: "o", valueName: "PATH", help: "Write a diff image here: differences in magenta."),
      .flag("json", help: "Print the figures as one JSON object instead of a line of text."),
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
      let scale = try arguments.value("scale", as: ValueParsers.positiveNumber)!
      guard scale == scale.rounded(), scale <= 8 else {
        throw ArgumentError.invalidValue(
          option: "--scale", value: arguments.string("scale")!, reason: "expected a whole number from 1 to 8")
      }
      var local = LocalTolerance.scaled(Int(scale))
      if let pixels = try arguments.value("block-pixels", as: ValueParsers.nonNegativeNumber) {
        guard pixels == pixels.rounded(), pixels <= 1e9 else {
          throw ArgumentError.invalidValue(
            option: "--block-pixels", value: arguments.string("block-pixels")!,
            reason: "expected a whole number")
        }
        local.maxPixelsPerBlock = Int(pixels)
      }
      tolerance = ImageTolerance(maxChannelDifference: channel, maxDifferingFraction: fraction, local: local)
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
    Console.print(arguments.flag("json") ? JSONWriter.text(figures(result)) : result.summary)
    if !result.passes { throw .failure("the images differ beyond the tolerance") }
  }

  /// What `--json` prints: the sizes, the counts, the worst block and the smallest change that fails.
  static func figures(_ result: ImageComparisonResult) -> JSONValue {
    let local = result.tolerance.local
    let block: JSONValue =
      result.worstBlock.map { block in
        .object([
          .init("x", .number(Double(block.x))), .init("y", .number(Double(block.y))),
          .init("size", .number(Double(block.size))),
          .init("differingPixels", .number(Double(block.differingPixels))),
        ])
      } ?? .null
    func number(_ value: Int) -> JSONValue { .number(Double(value)) }
    return .object([
      .init("passes", .bool(result.passes)),
      .init("sizesMatch", .bool(result.sizesMatch)),
      .init(
        "expected",
        .object([
          .init("width", number(result.expectedWidth)), .init("height", number(result.expectedHeight)),
        ])),
      .init(
        "actual",
        .object([.init("width", number(result.actualWidth)), .init("height", number(result.actualHeight))])),
      .init("pixels", number(result.pixelCount)),
      .init("differingPixels", number(result.differingPixelCount)),
      .init("differingFraction", .number(result.differingFraction)),
      .init("pixelsOverTolerance", number(result.rawDifferingPixelCount)),
      .init("maximumDifference", number(result.maximumDifference)),
      .init("worstBlock", block),
      .init(
        "tolerance",
        .object([
          .init("channel", .number(result.tolerance.maxChannelDifference)),
          .init("fraction", .number(result.tolerance.maxDifferingFraction)),
          .init("blockSize", local.map { number($0.blockSize) } ?? .null),
          .init("pixelsPerBlock", local.map { number($0.maxPixelsPerBlock) } ?? .null),
          .init("smallestDetectedChange", local.map { number($0.smallestDetectedChange) } ?? .null),
        ])),
      .init("summary", .string(result.summary)),
    ])
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
