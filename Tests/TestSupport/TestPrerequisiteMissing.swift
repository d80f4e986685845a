/// Something a test needs from the machine (a program, a socket, a mount, a fixture's shape) is not there.
/// Thrown, it fails the test with the reason: a test that cannot run its check must not pass as skipped.
/// (Only the shared data folder, absent outside this workplace, is a reason to skip: `RepositoryPaths`.)
public struct TestPrerequisiteMissing: Error, CustomStringConvertible {
  public let description: String

  public init(_ description: String) {
    self.description = description
  }
}
