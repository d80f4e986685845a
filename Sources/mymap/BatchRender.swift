import Arguments
import Dispatch
import Foundation

/// `render --batch FILE`: many maps in one process (a month's map for each month, say), drawn by a few
/// workers at once that share what `RenderResources` opens and the decoded tiles. Each map is its own
/// `render`: written atomically, its failure its own. One JSON result line per map on standard output,
/// in the file's order (`BatchReport`); the exit status is the highest of the maps' exit codes.
enum BatchRender {
  static let option = OptionSpec.value(
    "batch", valueName: "FILE",
    help:
      "Make many maps in one go: FILE (- for standard input) has a JSON object of options per line,"
      + " keys without dashes, like {\"out\": \"2026-11.png\", \"month\": \"2026-11\"} (flags true, repeated"
      + " options arrays); the options given beside --batch apply to every line. Prints one JSON result"
      + " line per map, in order; exits with the highest exit code of the maps.")

  /// The workers: the cores, at most 4 (each holds one map's image at a time).
  static var workerCount: Int { min(max(ProcessInfo.processInfo.activeProcessorCount, 1), 4) }

  /// One map of the batch: its line, where it goes, and its options or what is wrong with them.
  private struct Job: Sendable {
    let line: Int
    let out: String?
    var arguments: Result<ParsedArguments, CLIError>
  }

  static func run(_ defaults: ParsedArguments) throws(CLIError) {
    let path = defaults.string(option.name)!
    if defaults.flag(WatchRender.option.name) {
      throw .usage("--batch and --watch cannot be used together; watch one map at a time")
    }
    try refuseStandardStreams(defaults)
    let started = DispatchTime.now()
    var jobs = try BatchFile.lines(path: path).map { line in
      Job(
        line: line.number, out: nil,
        arguments: Result { () throws(CLIError) in try BatchFile.arguments(of: line, over: defaults) })
    }
    jobs = jobs.map(checked)
    try refuseSharedOutputs(&jobs)
    let inputs = path == "-" ? [] : [ProtectedInput(path: path, role: "the batch file")]
    let resources = RenderResources(sharing: true)
    let queue = BatchQueue(count: jobs.count)
    let work = jobs
    DispatchQueue.concurrentPerform(iterations: min(workerCount, max(jobs.count, 1))) { _ in
      while let index = queue.take() {
        queue.finish(index, report: make(work[index], resources: resources, inputs: inputs))
      }
    }
    let (worst, failed) = queue.outcome
    if worst != 0 {
      let listed = failed.prefix(10).map(String.init).joined(separator: ", ")
      let more = failed.count > 10 ? ", …" : ""
      throw exiting(
        worst,
        "\(failed.count) of \(count(jobs.count, "map")) failed (line\(failed.count == 1 ? "" : "s")"
          + " \(listed)\(more)); their result lines say why")
    }
    if !defaults.flag("quiet") && Console.stderrIsTerminal {
      let seconds = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
      Console.note("made \(count(jobs.count, "map")) in \(String(format: "%.2f", seconds)) s")
    }
  }

  /// Standard output carries the result lines and standard input is read once: no map may use either.
  private static func refuseStandardStreams(_ arguments: ParsedArguments) throws(CLIError) {
    for name in ["out", "layout-json"] where arguments.string(name) == "-" {
      throw .usage(
        "--\(name) - cannot be used with --batch: standard output carries the result lines; give a file")
    }
    if arguments.string("locations") == "-" {
      throw .usage("--locations - cannot be used with --batch; give each map a file")
    }
  }

  /// The job with its out known, or its line's usage error.
  private static func checked(_ job: Job) -> Job {
    guard case .success(let arguments) = job.arguments else { return job }
    var checked = Job(line: job.line, out: arguments.string("out"), arguments: job.arguments)
    do throws(CLIError) {
      try refuseStandardStreams(arguments)
    } catch {
      checked.arguments = .failure(error)
    }
    return checked
  }

  /// Two maps writing one file would race: refused (exit 2) before any map is made. An output that cannot
  /// be written at all is its own line's failure.
  private static func refuseSharedOutputs(_ jobs: inout [Job]) throws(CLIError) {
    var written: [String: (line: Int, path: String)] = [:]
    for index in jobs.indices {
      guard case .success(let arguments) = jobs[index].arguments else { continue }
      let line = jobs[index].line
      for path in [arguments.string("out"), arguments.string("layout-json")].compactMap({ $0 }) {
        let key: String
        do throws(CLIError) {
          key = try OutputTarget(path).sameFileKey
        } catch {
          jobs[index].arguments = .failure(error)
          break
        }
        if let earlier = written[key], earlier.line != line {
          throw .usage(
            "lines \(earlier.line) and \(line) of the batch both write \(path); give each map its own files")
        }
        written[key] = (line, path)
      }
    }
  }

  /// Makes one map and says how it went.
  private static func make(_ job: Job, resources: RenderResources, inputs: [ProtectedInput]) -> BatchReport {
    let started = DispatchTime.now()
    var report = BatchReport(line: job.line, out: job.out)
    var fileWarnings: [String] = []
    do throws(CLIError) {
      let arguments = try job.arguments.get()
      let map = try RenderCommand.makeMap(
        arguments, resources: resources, progress: nil, interruptible: false, inputs: inputs,
        fileWarnings: &fileWarnings)
      report.places = map.places
      report.warnings = fileWarnings + map.warnings
    } catch {
      report.exit = error.exitCode
      report.error = error.message
      report.warnings = fileWarnings
    }
    report.seconds = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
    return report
  }

  /// The error that ends the command with `code`.
  private static func exiting(_ code: Int32, _ message: String) -> CLIError {
    switch code {
    case 2: return .usage(message)
    case 3: return .badInput(message)
    case 4: return .incomplete(message)
    case 130: return .interrupted(message)
    default: return .failure(message)
    }
  }
}
