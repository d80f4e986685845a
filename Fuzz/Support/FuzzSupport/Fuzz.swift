import CFuzz
import Foundation

/// The entry point of every harness: `Fuzz.run { input in … }` as the harness file's only statement.
///
/// Built with `-DMYMAP_FUZZ_LIBFUZZER` (and `-sanitize=fuzzer`), libFuzzer drives the body; otherwise the
/// built-in engine does (`BuiltinEngine`), taking the same command-line flags.
public enum Fuzz {
  /// The harness body; set once by `run`, before any input.
  nonisolated(unsafe) private static var body: (FuzzInput) -> Void = { _ in }
  nonisolated(unsafe) private static var slowest = SlowestInputs()

  /// Runs the harness under the engine the binary was built with; never returns.
  public static func run(_ body: @escaping (FuzzInput) -> Void) -> Never {
    Self.body = body
    atexit { Fuzz.slowest.report(timing: Fuzz.body) }
    #if MYMAP_FUZZ_LIBFUZZER
      var argc = CommandLine.argc
      var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
      exit(LLVMFuzzerRunDriver(&argc, &argv, testOneInput))
    #else
      exit(BuiltinEngine(arguments: Array(CommandLine.arguments.dropFirst())).run(testOneInput))
    #endif
  }

  /// Runs the body on one input, timing it.
  static let testOneInput: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32 = { data, size in
    let start = DispatchTime.now().uptimeNanoseconds
    body(FuzzInput(UnsafeBufferPointer(start: data, count: size)))
    slowest.note(DispatchTime.now().uptimeNanoseconds - start, data, size)
    return 0
  }
}

/// The bytes of one input, as the parser under test wants them.
public struct FuzzInput {
  public let buffer: UnsafeBufferPointer<UInt8>

  init(_ buffer: UnsafeBufferPointer<UInt8>) { self.buffer = buffer }

  public var bytes: [UInt8] { Array(buffer) }
  public var data: Data { Data(buffer) }
  /// The bytes as UTF-8 text, invalid sequences replaced.
  public var text: String { String(decoding: buffer, as: UTF8.self) }
}

/// Stops the run as a crash when an invariant does not hold, so the engine keeps the input.
public func require(
  _ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String, file: StaticString = #file,
  line: UInt = #line
) {
  if !condition() {
    FileHandle.standardError.write(Data("==mymap-fuzz== invariant broken: \(message())\n".utf8))
    fatalError("invariant broken", file: file, line: line)
  }
}

/// Requires a message for the user to be one line that quotes only short excerpts of the input: at most
/// `limit` characters, an escape such as `\u0000` counting as the one character it stands for. (The
/// longest messages by design name eight CSV columns of up to 80 characters each: about 860.)
public func requireShortMessage(_ message: String, limit: Int = 1_000) {
  require(!message.contains("\n"), "a message spans lines: \(message.prefix(300))")
  var length = 0
  var rest = Substring(message)
  while let character = rest.first {
    length += 1
    if character == "\\", rest.dropFirst().first == "u" {
      rest = rest.dropFirst(6)
    } else {
      rest = rest.dropFirst(character == "\\" ? 2 : 1)
    }
  }
  require(length <= limit, "a message of \(length) characters: \(message.prefix(300))…")
}

/// The slowest inputs of the run, timed again at exit (one slow run may be the machine's doing, not the
/// input's): the slowest on the second timing is reported, and written to `$MYMAP_FUZZ_SLOWEST` when set.
private struct SlowestInputs {
  static let kept = 8
  var inputs: [(nanoseconds: UInt64, bytes: [UInt8])] = []

  mutating func note(_ elapsed: UInt64, _ data: UnsafePointer<UInt8>?, _ size: Int) {
    guard inputs.count < Self.kept || elapsed > inputs[inputs.count - 1].nanoseconds else { return }
    inputs.append((elapsed, Array(UnsafeBufferPointer(start: data, count: size))))
    inputs.sort { $0.nanoseconds > $1.nanoseconds }
    if inputs.count > Self.kept { inputs.removeLast() }
  }

  func report(timing body: (FuzzInput) -> Void) {
    let retimed = inputs.map { input -> (nanoseconds: UInt64, bytes: [UInt8]) in
      let best =
        (0..<3).map { _ in
          input.bytes.withUnsafeBufferPointer { buffer -> UInt64 in
            let start = DispatchTime.now().uptimeNanoseconds
            body(FuzzInput(buffer))
            return DispatchTime.now().uptimeNanoseconds - start
          }
        }.min() ?? 0
      return (best, input.bytes)
    }
    guard let slowest = retimed.max(by: { $0.nanoseconds < $1.nanoseconds }) else { return }
    let milliseconds = String(format: "%.3f", Double(slowest.nanoseconds) / 1e6)
    var line = "==mymap-fuzz== slowest input: \(milliseconds) ms (\(slowest.bytes.count) bytes)"
    if let path = ProcessInfo.processInfo.environment["MYMAP_FUZZ_SLOWEST"], !path.isEmpty {
      _ = FileManager.default.createFile(atPath: path, contents: Data(slowest.bytes))
      line += ", written to \(path)"
    }
    line += "; peak RSS \(cfuzz_peak_rss_mb()) MB\n"
    FileHandle.standardError.write(Data(line.utf8))
  }
}
