/// The file formats a map can be written as.
public enum OutputFormat: String, CaseIterable, Sendable {
  case png, svg, pdf

  /// The format named by a file's extension (case-insensitive), or nil.
  public init?(pathExtension: String) {
    self.init(rawValue: pathExtension.lowercased())
  }
}
