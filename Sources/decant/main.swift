import Decant

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The subcommands, in the order `decant --help` lists them.
let commands: [any Command.Type] = [
    DecodeCommand.self, MediaTypeCommand.self, SniffCommand.self, ConformanceCommand.self, RegistryCommand.self,
    ConfigCommand.self,
]

let toolUsage = """
    decant \(DecantVersion.current): turn HTTP response bodies into values, chosen by media type.

    Usage: decant COMMAND [OPTIONS] [ARGUMENTS]

    Commands:
    \(commands.map { "  " + $0.name + String(repeating: " ", count: max(1, 12 - $0.name.count)) + $0.summary }
        .joined(separator: "\n"))

    Run `decant COMMAND --help` for a command's options. Exit status: 0 success, 1 failure, 2 usage error.
    """

@MainActor
func runTool(_ arguments: [String]) -> Int32 {
    guard let first = arguments.first else {
        Output.error(toolUsage)
        return 2
    }
    switch first {
    case "--help", "-h", "help":
        Output.line(toolUsage)
        return 0
    case "--version":
        Output.line("decant \(DecantVersion.current)")
        return 0
    default:
        break
    }
    guard let command = commands.first(where: { $0.name == first }) else {
        Output.error("decant: unknown command '\(first)'.\n\n" + toolUsage)
        return 2
    }
    let rest = Array(arguments.dropFirst())
    let options = rest.prefix { $0 != "--" }
    if options.contains("--help") || options.contains("-h") {
        Output.line(command.usage)
        return 0
    }
    do {
        return try command.run(rest)
    } catch let error as CommandLineArguments.UsageError {
        Output.error("decant \(command.name): \(error.description)\n\n" + command.usage)
        return 2
    } catch {
        Output.error("decant \(command.name): \(error)")
        return 1
    }
}

exit(runTool(Array(CommandLine.arguments.dropFirst())))
