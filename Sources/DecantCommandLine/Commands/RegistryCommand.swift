import Decant

/// `decant registry`: what the tool's registry contains.
enum RegistryCommand: Command {
    static let name = "registry"
    static let summary = "List the tool's registry's modules, serializers, media ranges, options and conflicts."
    static let usage = """
        Usage: decant registry [--json] [--resolve MEDIA-TYPE]

        Prints every module installed in the tool's registry, each serializer id with its media ranges and
        options (name, type, default), and any conflicts between them.

        Options:
          --resolve T  Print the resolution trace for media type T instead: candidates with scores, skipped
                       serializers with reasons, and the choice. Exits 1 if no serializer accepts T.
          --json       Print one JSON object instead: {"modules": [...], "serializers": [{"id", "module",
                       "mediaRanges", "options": [{"name", "type", "default", "summary"}], "summary"}],
                       "conflicts": [...], "accept": "..."}.
          --help       Show this help.
        """

    static func run(_ arguments: [String], _ context: CommandContext) throws -> Int32 {
        let parsed = try CommandLineArguments(arguments, flags: ["--json"], options: ["--resolve"])
        guard parsed.positionals.isEmpty else {
            throw CommandLineArguments.UsageError(description: "registry takes no arguments")
        }
        let registry = context.registry
        if let text = parsed.value("--resolve") {
            let mediaType: MediaType
            do {
                mediaType = try MediaType(parsing: text)
            } catch {
                Output.error(error.description)
                return 1
            }
            Output.line(registry.resolve(mediaType).description)
            return registry.resolve(mediaType).chosen == nil ? 1 : 0
        }
        if parsed.has("--json") {
            Output.line(json(registry))
            return 0
        }
        Output.line(
            "modules: " + (registry.moduleNames.isEmpty ? "none" : registry.moduleNames.joined(separator: ", ")))
        if registry.entries.isEmpty {
            Output.line("serializers: none")
        }
        for entry in registry.entries {
            Output.line("")
            Output.line("\(entry.id) [\(entry.moduleName)]: \(entry.factory.summary)")
            Output.line("  media ranges: " + entry.mediaRanges.map(\.description).joined(separator: ", "))
            for option in entry.factory.optionSchema {
                let defaultText = option.defaultValue.map { " = \($0)" } ?? ""
                Output.line("  option \(option.name): \(option.kind)\(defaultText). \(option.summary)")
            }
        }
        Output.line("")
        Output.line("conflicts: " + (registry.conflicts.isEmpty ? "none" : ""))
        for conflict in registry.conflicts { Output.line("  - " + conflict.description) }
        Output.line("Accept: " + (registry.entries.isEmpty ? "(none)" : registry.acceptHeader.description))
        return 0
    }

    private static func json(_ registry: SerializerRegistry) -> String {
        let serializers = registry.entries.map { entry -> String in
            let options = entry.factory.optionSchema.map { option in
                "{\"name\":\(Output.jsonString(option.name)),\"type\":\(Output.jsonString(option.kind.description)),"
                    + "\"default\":\(option.defaultValue.map { Output.jsonString($0.description) } ?? "null"),"
                    + "\"summary\":\(Output.jsonString(option.summary))}"
            }
            return "{\"id\":\(Output.jsonString(entry.id.rawValue)),\"module\":\(Output.jsonString(entry.moduleName)),"
                + "\"mediaRanges\":\(Output.jsonArray(entry.mediaRanges.map(\.description))),"
                + "\"options\":[\(options.joined(separator: ","))],"
                + "\"summary\":\(Output.jsonString(entry.factory.summary))}"
        }
        return "{\"modules\":\(Output.jsonArray(registry.moduleNames)),"
            + "\"serializers\":[\(serializers.joined(separator: ","))],"
            + "\"conflicts\":\(Output.jsonArray(registry.conflicts.map(\.description))),"
            + "\"accept\":\(Output.jsonString(registry.acceptHeader.description))}"
    }
}
