/// How a ``JournalReader`` reads: the decoder's limits, and whether warnings count as errors.
public struct ReadOptions: Sendable, Hashable {
  /// Longest line and deepest nesting accepted (1 MiB and 64 by default).
  public var limits: DecodeLimits
  /// Strict mode: every warning (`bom`, `crlf`, `blank-line`, `torn-tail`,
  /// `unknown-type`, `format-version`) is reported as an error with the same rule id.
  public var strict: Bool

  public init(limits: DecodeLimits = .init(), strict: Bool = false) {
    self.limits = limits
    self.strict = strict
  }
}
