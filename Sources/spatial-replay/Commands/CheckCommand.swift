import Journal

struct CheckCommand: Command {
  static let name = "check"
  static let abstract = "(being written)"
  static let help = "usage: spatial-replay check\n"
  static let spec = ArgumentSpec()
  init(_ arguments: ParsedArguments) throws(UsageError) {}
  func run(_ context: inout Context) throws -> Int32 {
    throw CommandFailure("check is being written")
  }
}
