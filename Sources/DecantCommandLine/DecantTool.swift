public import Decant

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The `decant` command-line tool as a library: `decode`, `get`, `encode`, `media-type`, `sniff`, `conformance`, `registry`
/// and `config check`, run against the registry you give it.
///
/// A package that adds a format gets the whole tool for its own registry with an executable target of three lines:
///
/// ```swift
/// import DecantCommandLine
///
/// DecantTool(name: "mytool", registry: .standard).main()
/// ```
///
/// (install your module in the registry: `.standard.installing(MyFormatModule())`). `decant` itself is this type
/// with the standard registry and the plugins of Decant's repository; `--no-plugins` before or after the command runs
/// it against ``registryWithoutPlugins`` instead. The output format of every command is the `decant` tool's
/// documented contract, whatever the name.
public struct DecantTool: Sendable {
    /// The name printed in usage lines and messages, such as `decant`.
    public var name: String
    /// The registry every command resolves, decodes and checks against.
    public var registry: SerializerRegistry
    /// The registry `--no-plugins` selects; `nil` when the tool has no plugins to leave out (the flag then changes
    /// nothing).
    public var registryWithoutPlugins: SerializerRegistry?
    /// Reads reconnecting event streams for `get --stream` (the `decant` tool's reads them with the
    /// `DecantEventSource` plugin); `nil` when the tool has none, and under `--no-plugins`: `get --stream` then says
    /// that an event stream needs the plugin.
    public var eventSource: EventSourceOpener?

    /// Creates a tool.
    ///
    /// - Parameters:
    ///   - name: The name printed in usage lines and messages.
    ///   - registry: The registry the commands use.
    ///   - registryWithoutPlugins: The registry `--no-plugins` selects, or `nil`.
    ///   - eventSource: Reads reconnecting event streams for `get --stream`, or `nil`.
    public init(
        name: String = "decant", registry: SerializerRegistry = .standard,
        registryWithoutPlugins: SerializerRegistry? = nil, eventSource: EventSourceOpener? = nil
    ) {
        self.name = name
        self.registry = registry
        self.registryWithoutPlugins = registryWithoutPlugins
        self.eventSource = eventSource
    }

    /// What one run printed and its exit status, from ``capture(_:)``.
    public struct Outcome: Sendable {
        /// Everything written to standard output, as UTF-8 text.
        public var standardOutput: String { String(decoding: standardOutputBytes, as: UTF8.self) }
        /// Everything written to standard output, as bytes (a body `encode` wrote, say).
        public var standardOutputBytes: Data
        /// Everything written to standard error.
        public var standardError: String
        /// The exit status: 0 success, 1 failure, 2 usage error (and, for `get --stream`, 3 when an event stream
        /// gave up and 130 when it was interrupted).
        public var status: Int32
    }

    /// Runs the process's command-line arguments and exits with the command's status.
    public func main() -> Never {
        exit(run(Array(CommandLine.arguments.dropFirst())))
    }

    /// Runs one command line (without the executable's name), writing to standard output and standard error.
    ///
    /// - Parameter arguments: The arguments, such as `["decode", "--json", "response.http"]`.
    /// - Returns: The exit status: 0 success, 1 failure, 2 usage error.
    public func run(_ arguments: [String]) -> Int32 {
        var arguments = arguments
        let optionsEnd = arguments.firstIndex(of: "--") ?? arguments.endIndex
        let withoutPlugins = arguments[..<optionsEnd].contains("--no-plugins")
        if withoutPlugins {
            arguments = arguments[..<optionsEnd].filter { $0 != "--no-plugins" } + arguments[optionsEnd...]
        }
        let context = CommandContext(
            toolName: name, registry: withoutPlugins ? (registryWithoutPlugins ?? registry) : registry,
            eventSource: withoutPlugins ? nil : eventSource)
        let status = Self.dispatch(arguments, context)
        Output.flush()
        return status
    }

    /// Runs one command line like ``run(_:)``, but returns what it printed instead of writing it: for tests and
    /// for embedding the tool. Standard input is still read for `-`.
    ///
    /// `get` (and `decode --stream`) wait on the calling thread for work that runs in Swift concurrency's global
    /// executor (`URLSession`'s response, the stream's records). Call them from a thread of your own, as the tool's
    /// main thread is, not from a synchronous function running in a task: on a machine with few cores, tasks
    /// blocked that way can take every thread the executor has and wait for ever.
    ///
    /// - Parameter arguments: The arguments, such as `["registry", "--json"]`.
    public func capture(_ arguments: [String]) -> Outcome {
        let capture = OutputCapture()
        let status = Output.$capture.withValue(capture) { run(arguments) }
        let (standardOutput, standardError) = capture.contents
        return Outcome(standardOutputBytes: standardOutput, standardError: standardError, status: status)
    }

    /// The subcommands, in the order `--help` lists them.
    static var commands: [any Command.Type] {
        [
            DecodeCommand.self, GetCommand.self, ArchiveCommand.self, EncodeCommand.self, MediaTypeCommand.self,
            SniffCommand.self,
            ConformanceCommand.self,
            RegistryCommand.self, ConfigCommand.self,
        ]
    }

    static func usage(_ name: String) -> String {
        """
        \(name) \(DecantVersion.current): turn HTTP response bodies into values, chosen by media type.

        Usage: \(name) [--no-plugins] COMMAND [OPTIONS] [ARGUMENTS]

        Commands:
        \(commands.map { "  " + $0.name + String(repeating: " ", count: max(1, 12 - $0.name.count)) + $0.summary }
            .joined(separator: "\n"))

        Run `\(name) COMMAND --help` for a command's options. `--no-plugins` uses the registry without the tool's
        plugins. Exit status: 0 success, 1 failure, 2 usage error.
        """
    }

    private static func dispatch(_ arguments: [String], _ context: CommandContext) -> Int32 {
        let name = context.toolName
        guard let first = arguments.first else {
            Output.error(usage(name))
            return 2
        }
        switch first {
        case "--help", "-h", "help":
            Output.line(usage(name))
            return 0
        case "--version":
            Output.line("\(name) \(DecantVersion.current)")
            return 0
        default:
            break
        }
        guard let command = commands.first(where: { $0.name == first }) else {
            Output.error("\(name): unknown command '\(first)'.\n\n" + usage(name))
            return 2
        }
        let rest = Array(arguments.dropFirst())
        let options = rest.prefix { $0 != "--" }
        let commandUsage = context.named(command.usage)
        if options.contains("--help") || options.contains("-h") {
            Output.line(commandUsage)
            return 0
        }
        do {
            return try command.run(rest, context)
        } catch let error as CommandLineArguments.UsageError {
            Output.error("\(name) \(command.name): \(error.description)\n\n" + commandUsage)
            return 2
        } catch {
            Output.error("\(name) \(command.name): \(error)")
            return 1
        }
    }
}
