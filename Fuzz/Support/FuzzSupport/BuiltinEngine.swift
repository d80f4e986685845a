import CFuzz
import Foundation

/// The fuzzer used where libFuzzer does not build: blind, seeded mutation of the corpus (`Mutator`),
/// with the crash, timeout and memory guard of `CFuzz`. It reads libFuzzer's flags that matter here
/// (`-seed`, `-runs`, `-max_total_time`, `-max_len`, `-timeout`, `-rss_limit_mb`, `-dict`,
/// `-artifact_prefix`) and ignores the others; arguments that are files are replayed once each, folders
/// are the corpus. It prints libFuzzer's final `stat::` lines, so scripts read either engine alike.
struct BuiltinEngine {
  var seed: UInt64 = 1
  var runs = Int.max
  var maximumSeconds = 0.0
  var maximumLength = 4096
  var timeout = 1200.0
  var rssLimit = 2048
  var dictionaryPath: String?
  var artifactPrefix = "./"
  var files: [String] = []
  var folders: [String] = []

  init(arguments: [String]) {
    for argument in arguments {
      guard argument.hasPrefix("-"), let equals = argument.firstIndex(of: "=") else {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: argument, isDirectory: &isFolder), isFolder.boolValue {
          folders.append(argument)
        } else {
          files.append(argument)
        }
        continue
      }
      let value = String(argument[argument.index(after: equals)...])
      switch argument[argument.index(after: argument.startIndex)..<equals] {
      case "seed": seed = UInt64(value) ?? seed
      case "runs": runs = Int(value).map { $0 < 0 ? Int.max : $0 } ?? runs
      case "max_total_time": maximumSeconds = Double(value) ?? 0
      case "max_len": maximumLength = Int(value) ?? maximumLength
      case "timeout": timeout = Double(value) ?? timeout
      case "rss_limit_mb": rssLimit = Int(value) ?? rssLimit
      case "dict": dictionaryPath = value
      case "artifact_prefix": artifactPrefix = value
      default: break
      }
    }
  }

  /// Replays the files, or fuzzes the corpus; 0 when no input failed (a failing one ends the process).
  func run(_ testOneInput: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32) -> Int32 {
    cfuzz_guard_install(artifactPrefix, timeout, rssLimit)
    if !files.isEmpty {
      for file in files {
        let bytes = [UInt8](FileManager.default.contents(atPath: file) ?? Data())
        FileHandle.standardError.write(Data("Running: \(file)\n".utf8))
        execute(bytes, testOneInput)
      }
      FileHandle.standardError.write(Data("Executed \(files.count) inputs\n".utf8))
      return 0
    }
    let corpus = loadCorpus()
    // Seed 0, as in libFuzzer, asks for a seed that differs from run to run.
    let seed = self.seed != 0 ? self.seed : UInt64(DispatchTime.now().uptimeNanoseconds)
    FileHandle.standardError.write(Data("INFO: Seed: \(seed)\n".utf8))
    var mutator = Mutator(seed: seed, dictionary: loadDictionary(), maximumLength: maximumLength)
    let start = Date()
    var executed = 0
    for seedInput in corpus where executed < runs {
      execute(seedInput, testOneInput)
      executed += 1
    }
    while executed < runs {
      // Checking the clock every 64 inputs keeps its cost out of the measurement.
      if executed % 64 == 0, maximumSeconds > 0, Date().timeIntervalSince(start) >= maximumSeconds { break }
      execute(mutator.mutant(of: corpus), testOneInput)
      executed += 1
    }
    let seconds = max(Date().timeIntervalSince(start), 1e-9)
    let rate = Int(Double(executed) / seconds)
    let rss = cfuzz_peak_rss_mb()
    let lines = [
      "#\(executed)\tDONE   cov: 0 ft: 0 corp: \(corpus.count) exec/s: \(rate) rss: \(rss)Mb",
      "Done \(executed) runs in \(Int(seconds)) second(s)",
      "stat::number_of_executed_units: \(executed)",
      "stat::average_exec_per_sec:     \(rate)",
      "stat::peak_rss_mb:              \(rss)",
    ]
    FileHandle.standardError.write(Data((lines.joined(separator: "\n") + "\n").utf8))
    return 0
  }

  private func execute(_ bytes: [UInt8], _ testOneInput: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32)
  {
    bytes.withUnsafeBufferPointer { buffer in
      cfuzz_guard_begin(buffer.baseAddress, buffer.count)
      _ = testOneInput(buffer.baseAddress, buffer.count)
      cfuzz_guard_end()
    }
  }

  /// Every file of the corpus folders, in name order (so a seed gives the same run), cut to `-max_len`.
  private func loadCorpus() -> [[UInt8]] {
    var corpus: [[UInt8]] = []
    for folder in folders {
      let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
      for name in names {
        guard let data = FileManager.default.contents(atPath: folder + "/" + name) else { continue }
        corpus.append(Array([UInt8](data).prefix(maximumLength)))
      }
    }
    return corpus.isEmpty ? [[]] : corpus
  }

  private func loadDictionary() -> [[UInt8]] {
    guard let path = dictionaryPath, let data = FileManager.default.contents(atPath: path) else { return [] }
    return FuzzDictionary.tokens(String(decoding: data, as: UTF8.self))
  }
}
