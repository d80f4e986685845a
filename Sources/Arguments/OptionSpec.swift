/// One named option of a command: a flag (`--quiet`) or an option with a value (`--out PATH`).
///
/// Names are given without dashes (`"out"`, short `"o"`). `--help` and `-h` are reserved for the parser.
public struct OptionSpec: Equatable, Sendable {
  /// The long name, without the leading `--`.
  public let name: String
  /// The one-character alias used as `-x`, if any.
  public let short: Character?
  /// One line of help; wrapped in the help text.
  public let help: String
  /// The placeholder shown in help (`PATH`, `WxH`); `nil` for a flag.
  public let valueName: String?
  /// The value used when the option is not given; shown in help as `(default: …)`.
  public let defaultValue: String?
  /// Whether the option may be given more than once (`--category A --category B`).
  public let isRepeatable: Bool
  /// Whether the command cannot run without the option; the parser reports it missing.
  public let isRequired: Bool

  /// A flag: present or absent, never takes a value.
  public static func flag(_ name: String, short: Character? = nil, help: String) -> OptionSpec {
    OptionSpec(
      name: name, short: short, help: help, valueName: nil, defaultValue: nil, isRepeatable: false,
      isRequired: false)
  }

  /// An option that takes a value: `--name value`, `--name=value` or `-x value`.
  public static func value(
    _ name: String, short: Character? = nil, valueName: String, help: String,
    default defaultValue: String? = nil, repeatable: Bool = false, required: Bool = false
  ) -> OptionSpec {
    OptionSpec(
      name: name, short: short, help: help, valueName: valueName, defaultValue: defaultValue,
      isRepeatable: repeatable, isRequired: required)
  }

  /// Whether the option takes a value (`false` for a flag).
  public var takesValue: Bool { valueName != nil }

  /// The option as the user writes it: `--name`.
  public var longForm: String { "--" + name }
}

/// One positional argument of a command (`FILE`, `ID...`).
public struct PositionalSpec: Equatable, Sendable {
  /// How many values a positional argument takes.
  public enum Arity: Equatable, Sendable {
    /// Exactly one value.
    case required
    /// Zero or one value.
    case optional
    /// One or more values; only the last argument may be variadic.
    case oneOrMore
    /// Zero or more values; only the last argument may be variadic.
    case zeroOrMore
  }

  /// The name shown in usage and help, and used to look the value up (`"FILE"`).
  public let name: String
  /// One line of help; wrapped in the help text.
  public let help: String
  /// How many values the argument takes.
  public let arity: Arity

  /// A positional argument; required arguments must come before optional and variadic ones.
  public init(_ name: String, help: String, arity: Arity = .required) {
    self.name = name
    self.help = help
    self.arity = arity
  }

  /// An argument that must be given.
  public static func required(_ name: String, help: String) -> PositionalSpec {
    PositionalSpec(name, help: help, arity: .required)
  }

  /// An argument that may be left out.
  public static func optional(_ name: String, help: String) -> PositionalSpec {
    PositionalSpec(name, help: help, arity: .optional)
  }

  /// The last argument, taking all remaining values: at least one unless `atLeastOne` is false.
  public static func variadic(_ name: String, help: String, atLeastOne: Bool = true) -> PositionalSpec {
    PositionalSpec(name, help: help, arity: atLeastOne ? .oneOrMore : .zeroOrMore)
  }

  /// Whether the argument takes all remaining values.
  public var isVariadic: Bool { arity == .oneOrMore || arity == .zeroOrMore }
}
