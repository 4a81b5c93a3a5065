import Journal

struct CatCommand: Command {
  static let name = "cat"
  static let abstract = "(being written)"
  static let help = "usage: spatial-replay cat\n"
  static let spec = ArgumentSpec()
  init(_ arguments: ParsedArguments) throws(UsageError) {}
  func run(_ context: inout Context) throws -> Int32 {
    throw CommandFailure("cat is being written")
  }
}
