import Journal

/// `help [COMMAND]` and `help --man`: the overview, a command's help, or the
/// manual page (troff, for `man -l`), all generated from the commands' declarations.
enum HelpCommand {
  static let name = "help"
  static let abstract = "Show the overview, a command's help (help COMMAND) or the manual page (--man)"
  static let help = """
    usage: spatial-replay help [COMMAND | --man]

    Without COMMAND, the overview of the commands; with COMMAND, its help (as
    'spatial-replay COMMAND --help'); with --man, the manual page in troff,
    for 'spatial-replay help --man | man -l -'.

    exit status: 0 printed, 64 usage error (not a command).

    """

  static func run(_ arguments: [String], context: inout Context) -> Int32 {
    switch arguments.first {
    case "--help", "-h":
      context.stdout.write(help)
      return ExitCode.ok
    case nil:
      context.stdout.write(SpatialReplay.overview)
      return ExitCode.ok
    case "--man":
      context.stdout.write(ManPage.text)
      return ExitCode.ok
    case let name?:
      guard arguments.count == 1, let command = SpatialReplay.command(named: name) else {
        var message = "no help for '\(displayText(name))': not a command"
        if let near = closestWord(to: name, in: SpatialReplay.commands.map { $0.name }) {
          message += " (did you mean '\(near)'?)"
        }
        context.error(message + "; see 'spatial-replay --help'")
        return ExitCode.usage
      }
      context.stdout.write(command.help)
      return ExitCode.ok
    }
  }
}

/// `completion bash|zsh|fish`: a shell completion script.
struct CompletionCommand: Command {
  static let name = "completion"
  static let abstract = "Print a shell completion script (bash, zsh or fish)"
  static let usage = ["spatial-replay completion SHELL"]
  static let discussion = """
    Prints a completion script for SHELL (bash, zsh or fish), generated from
    the same option declarations the parser uses: commands, every option,
    the words an option takes (rules, tables, formats, profiles, event types)
    and file names.
    """
  static let options: [Option] = []
  static let exitStatus = "0 printed, 64 usage error."
  static let examples = [
    "source <(spatial-replay completion bash)",
    "spatial-replay completion zsh > ~/.zfunc/_spatial-replay",
    "spatial-replay completion fish > ~/.config/fish/completions/spatial-replay.fish",
  ]

  let shell: Completion.Shell

  init(_ arguments: ParsedArguments) throws(UsageError) {
    let names = Completion.Shell.allCases.map(\.rawValue)
    guard arguments.positionals.count == 1, let shell = Completion.Shell(rawValue: arguments.positionals[0]) else {
      throw UsageError("completion takes one SHELL: \(names.joined(separator: ", "))")
    }
    self.shell = shell
  }

  func run(_ context: inout Context) throws -> Int32 {
    context.stdout.write(Completion.script(for: shell))
    return ExitCode.ok
  }
}
