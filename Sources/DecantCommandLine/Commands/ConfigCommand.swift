import Decant
import DecantJSON
import Foundation

/// `decant config check FILE`: validate a chain configuration against the tool's registry.
enum ConfigCommand: Command {
    static let name = "config"
    static let summary = "Check a chain configuration file: `decant config check FILE`."
    static let usage = """
        Usage: decant config check [--json] FILE

        Reads a chain configuration (JSON or property list), checks it against the tool's registry and prints
        each chain: its serializers with media ranges and options, its validation settings, and its resolution (for
        each media range the chain claims, the order its serializers are tried in). On any problem it prints every
        problem with the file, the key path and what is allowed, on stderr, and exits 1.

        Options:
          --json   Print {"valid": true, "chains": [{"name", "serializers": [{"id", "mediaRanges", "options"}],
                   "resolution": [{"mediaType", "order": [ids]}]}]} or {"valid": false, "problems": [{"file",
                   "keyPath", "message"}]} on stdout instead.
          --help   Show this help.
        """

    static func run(_ arguments: [String], _ context: CommandContext) throws -> Int32 {
        let parsed = try CommandLineArguments(arguments, flags: ["--json"], options: [])
        guard parsed.positionals.first == "check" else {
            throw CommandLineArguments.UsageError(description: "the only config subcommand is `check FILE`")
        }
        guard parsed.positionals.count == 2 else {
            throw CommandLineArguments.UsageError(description: "config check takes exactly one FILE")
        }
        let path = parsed.positionals[1]
        let loaded: LoadedConfiguration
        do {
            loaded = try context.registry.loadConfiguration(contentsOf: URL(fileURLWithPath: path))
        } catch {
            if parsed.has("--json") {
                let problems = error.problems.map { problem -> JSONValue in
                    .object([
                        ("file", error.file.map { JSONValue($0) } ?? nil), ("keyPath", JSONValue(problem.keyPath)),
                        ("message", JSONValue(problem.message)),
                    ])
                }
                let document = JSONValue.object([("valid", false), ("problems", .array(problems))])
                Output.line(String(decoding: document.jsonData(), as: UTF8.self))
            } else {
                Output.error(error.description)
            }
            return 1
        }
        let chains = loaded.configuration.chains.compactMap { settings in loaded.chains[settings.name] }
        if parsed.has("--json") {
            let document = JSONValue.object([("valid", true), ("chains", .array(chains.map(json)))])
            Output.line(String(decoding: document.jsonData(), as: UTF8.self))
            return 0
        }
        let count = chains.count == 1 ? "1 chain" : "\(chains.count) chains"
        Output.line("\(path): valid (version \(loaded.configuration.version), \(count))")
        for alias in loaded.configuration.aliases { Output.line("alias: " + describe(alias)) }
        for chain in chains {
            let settings = chain.settings
            Output.line("")
            Output.line("chain \(settings.name)")
            for (reference, serializer) in zip(settings.serializers, chain.chain.serializer.compound.serializers) {
                let options =
                    reference.options.isEmpty
                    ? "" : " " + ConfigurationValue.object(reference.options).description
                let ranges = serializer.mediaRanges.map(\.description).joined(separator: ", ")
                Output.line("  serializer \(reference.id)\(options): \(ranges)")
            }
            Output.line("  order: \(settings.order.rawValue)\(settings.triesNonMatching ? ", tries non-matching" : "")")
            Output.line("  acceptable status codes: \(settings.acceptableStatusCodes)")
            Output.line("  empty body: \(describe(settings.emptyBody))")
            let sniffing = SniffingPolicy.named.first { $0.policy == settings.sniffing }?.name ?? "custom"
            Output.line("  sniffing: \(sniffing)")
            Output.line("  max body bytes: \(settings.maxBodyBytes)")
            if let charset = settings.defaultCharset { Output.line("  default charset: \(charset)") }
            if !settings.preprocessors.isEmpty {
                Output.line("  preprocessors: " + settings.preprocessors.map(\.id.rawValue).joined(separator: ", "))
            }
            for alias in settings.aliases { Output.line("  alias: " + describe(alias)) }
            Output.line("  resolution:")
            for (mediaType, order) in resolution(of: chain) {
                Output.line("    \(mediaType) -> " + order.map(\.rawValue).joined(separator: ", "))
            }
        }
        return 0
    }

    /// For each media range the chain claims, a representative media type and the serializers tried for it.
    static func resolution(of chain: ConfiguredChain) -> [(String, [SerializerID])] {
        let compound = chain.chain.serializer.compound
        var seen = Set<String>()
        var rows: [(String, [SerializerID])] = []
        for range in compound.mediaRanges {
            let example: String
            switch range.pattern {
            case .any: example = "application/octet-stream"
            case .type(let type): example = "\(type)/example"
            case .suffix(let type, let suffix): example = "\(type ?? "application")/example+\(suffix)"
            case .exact(let type, let subtype): example = "\(type)/\(subtype)"
            }
            let text = example + range.parameters.description
            guard seen.insert(text).inserted, let mediaType = try? MediaType(parsing: text) else { continue }
            let response = Response(status: 200, headers: ["Content-Type": mediaType.description])
            rows.append((text, compound.plan(for: response).map(\.serializer.id)))
        }
        return rows
    }

    static func describe(_ alias: ChainConfiguration.MediaTypeAlias) -> String {
        var text = "\(alias.mediaType) as \(alias.treatAs)"
        if let host = alias.host { text += " for host \(host)" }
        if let prefix = alias.pathPrefix { text += " under \(prefix)" }
        return text
    }

    static func describe(_ policy: EmptyBodyPolicy) -> String {
        let outcome = EmptyBodyPolicy.Outcome.named.first { $0.outcome == policy.outcome }?.name ?? "custom"
        return outcome + (policy.treatsWhitespaceAsEmpty ? " (whitespace counts as empty)" : "")
    }

    static func json(_ chain: ConfiguredChain) -> JSONValue {
        let serializers = zip(chain.settings.serializers, chain.chain.serializer.compound.serializers).map {
            reference, serializer -> JSONValue in
            .object([
                ("id", JSONValue(reference.id.rawValue)),
                ("mediaRanges", .array(serializer.mediaRanges.map { JSONValue($0.description) })),
                ("options", JSONValue(ConfigurationValue.object(reference.options))),
            ])
        }
        let resolution = resolution(of: chain).map { mediaType, order -> JSONValue in
            .object([("mediaType", JSONValue(mediaType)), ("order", .array(order.map { JSONValue($0.rawValue) }))])
        }
        return .object([
            ("name", JSONValue(chain.settings.name)), ("serializers", .array(serializers)),
            ("resolution", .array(resolution)),
        ])
    }
}
