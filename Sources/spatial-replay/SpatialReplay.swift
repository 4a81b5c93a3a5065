import Journal

#if canImport(Glibc)
  import Glibc
#endif

/// The `spatial-replay` command: lists the subcommands and dispatches.
@main
enum SpatialReplay {
  static let version = "0.1.0"

  /// Every subcommand, in the order `--help` lists them.
  static var commands: [any Command.Type] {
    [
      CheckCommand.self,
      CatCommand.self,
      AppendCommand.self,
      RecordCommand.self,
      ScriptCommand.self,
      ShrinkCommand.self,
      TestgenCommand.self,
      DiffCommand.self,
      BisectCommand.self,
      AtCommand.self,
      MapCommand.self,
      LogCommand.self,
      StepCommand.self,
      ReportCommand.self,
      StatsCommand.self,
      PathsCommand.self,
      FunnelCommand.self,
      LatencyCommand.self,
      ExportCommand.self,
      TraceCommand.self,
      SimulateCommand.self,
      TailCommand.self,
      CompletionCommand.self,
    ]
  }

  static func main() {
    var context = Context()
    var status = run(Array(CommandLine.arguments.dropFirst()), context: &context)
    context.flush()
    if context.stdout.failed {
      // Results that never reached stdout (a full disk, a file closed under us) are no success.
      context.error("cannot write to standard output: \(context.stdout.failureText)")
      context.stderr.flush()
      if status == ExitCode.ok || status == ExitCode.findings { status = ExitCode.badInput }
    }
    exit(status)
  }

  /// Runs one command line and returns its exit status (testable without a process).
  static func run(_ arguments: [String], context: inout Context) -> Int32 {
    // Options every command takes may come before the command too: `--color always check x`.
    var arguments = arguments
    var global: [String] = []
    while let first = arguments.first, first == "--color" || first.hasPrefix("--color=") {
      let count = first == "--color" ? min(2, arguments.count) : 1
      global += arguments.prefix(count)
      arguments.removeFirst(count)
    }
    if !global.isEmpty, let name = arguments.first, command(named: name) != nil {
      arguments = [name] + global + arguments.dropFirst()
    }
    guard let first = arguments.first else {
      context.stderr.write(overview)
      return ExitCode.usage
    }
    switch first {
    case "--help", "-h":
      context.stdout.write(overview)
      return ExitCode.ok
    case "help":
      return HelpCommand.run(Array(arguments.dropFirst()), context: &context)
    case "--version":
      context.stdout.write("spatial-replay \(version)\n")
      return ExitCode.ok
    default:
      break
    }
    guard let command = command(named: first) else {
      var message = "unknown command '\(displayText(first))'"
      if let near = closestWord(to: first, in: commands.map { $0.name }) { message += " (did you mean '\(near)'?)" }
      context.error(message + "; see 'spatial-replay --help'")
      return ExitCode.usage
    }
    let rest = Array(arguments.dropFirst())
    // --help and --version win wherever they stand before a `--`.
    let options = rest.prefix { $0 != "--" }
    if options.contains("--help") || options.contains("-h") {
      context.stdout.write(command.help)
      return ExitCode.ok
    }
    if options.contains("--version") {
      context.stdout.write("spatial-replay \(version)\n")
      return ExitCode.ok
    }
    do {
      let parsed = try ParsedArguments(rest, options: command.allOptions)
      if let color = parsed.choice(Option.color, as: ColorChoice.self) { context.color = color }
      let instance = try command.init(parsed)
      // Data shown on a terminal: nothing in a journal may change the terminal's state
      // (text output is escaped where it is made; data keeps its bytes in files and pipes).
      if context.stdoutIsTerminal && (dataCommands.contains(command.name) || command.writesJSON(parsed)) {
        context.stdout.escapesForTerminal = true
      }
      return try instance.run(&context)
    } catch let error as UsageError {
      context.error("\(error.message)")
      context.stderr.write("usage: see 'spatial-replay \(command.name) --help'\n")
      return ExitCode.usage
    } catch let failure as CommandFailure {
      context.error(failure.message)
      return failure.exitCode
    } catch {
      context.error("\(error)")
      return ExitCode.badInput
    }
  }

  /// The commands whose standard output is data (journal lines, tables), not text.
  static let dataCommands: Set<String> = ["cat", "export", "append", "record", "simulate", "script", "shrink"]

  static func command(named name: String) -> (any Command.Type)? {
    commands.first { $0.name == name }
  }

  static var overview: String {
    var s = """
      spatial-replay \(version): record, replay, audit and compare journals of a spatial view-controller map.

      usage: spatial-replay <command> [options] <files>

      commands:

      """
    let entries = commands.map { ($0.name, $0.abstract) } + [(HelpCommand.name, HelpCommand.abstract)]
    let width = entries.map { $0.0.count }.max() ?? 0
    for (name, abstract) in entries {
      s += "  " + name + String(repeating: " ", count: width - name.count + 2) + abstract + "\n"
    }
    s += """

      Run 'spatial-replay <command> --help' for a command's options and examples.
      '-' as a file means standard input. --json gives machine-readable output.

      options every command takes (before or after the command's name):
        --color WHEN   colour: auto (on a terminal, unless NO_COLOR is set and not
                       empty, or TERM=dumb), always, never
        -h, --help     the command's help, with examples
        --version      the version

      exit status, the same for every command: 0 fine; 1 findings or differences;
      2 input that cannot be read correctly (a file that cannot be opened, a
      line that does not decode, a seq gap or repeat, time going backwards, no
      session header, an empty journal; with --strict any format warning), even
      when findings were also made; 64 usage error.

      'spatial-replay help --man' prints the manual page; 'spatial-replay
      completion bash|zsh|fish' prints a shell completion script.

      """
    return s
  }
}
