import Journal

struct AppendCommand: Command {
  static let name = "append"
  static let abstract = "(being written)"
  static let help = "usage: spatial-replay append\n"
  static let spec = ArgumentSpec()
  init(_ arguments: ParsedArguments) throws(UsageError) {}
  func run(_ context: inout Context) throws -> Int32 {
    throw CommandFailure("append is being written")
  }
}
