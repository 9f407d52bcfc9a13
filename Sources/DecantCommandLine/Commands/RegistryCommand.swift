import Decant

/// `decant registry`: what the tool's registry contains.
enum RegistryCommand: Command {
    static let name = "registry"
    static let summary = "List the tool's registry's modules, serializers, media ranges, options and conflicts."
    static let usage = """
        Usage: decant registry [--json] [--resolve MEDIA-TYPE]

        Prints every module installed in the tool's registry, each serializer id with its media ranges and
        options (name, type, default), the stages chain files can name in "preprocessors", and any conflicts.

        Options:
          --resolve T  Print the resolution trace for media type T instead: candidates with scores, skipped
                       serializers with reasons, and the choice. Exits 1 if no serializer accepts T.
          --json       Print one JSON object instead: {"modules": [...], "serializers": [{"id", "module",
                       "mediaRanges", "options": [{"name", "type", "default", "summary"}], "summary"}],
                       "stages": [{"id", "module", "options", "summary"}], "conflicts": [...],
                       "accept": "..."}.
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
            for option in entry.factory.optionSchema { Output.line("  " + optionLine(option)) }
        }
        Output.line("")
        Output.line("stages (chain files' \"preprocessors\"):")
        for stage in registry.stages {
            Output.line("  \(stage.factory.id) [\(stage.moduleName)]: \(stage.factory.summary)")
            for option in stage.factory.optionSchema {
                Output.line("    " + optionLine(option))
            }
        }
        Output.line("")
        Output.line("conflicts: " + (registry.conflicts.isEmpty ? "none" : ""))
        for conflict in registry.conflicts { Output.line("  - " + conflict.description) }
        Output.line("Accept: " + (registry.entries.isEmpty ? "(none)" : registry.acceptHeader.description))
        return 0
    }

    /// An option as a line of the text listing.
    private static func optionLine(_ option: SerializerOption) -> String {
        let defaultText = option.defaultValue.map { " = \($0)" } ?? ""
        return "option \(option.name): \(option.kind)\(defaultText). \(option.summary)"
    }

    /// Options as a JSON array.
    private static func jsonOptions(_ schema: [SerializerOption]) -> String {
        let options = schema.map { option in
            "{\"name\":\(Output.jsonString(option.name)),\"type\":\(Output.jsonString(option.kind.description)),"
                + "\"default\":\(option.defaultValue.map { Output.jsonString($0.description) } ?? "null"),"
                + "\"summary\":\(Output.jsonString(option.summary))}"
        }
        return "[" + options.joined(separator: ",") + "]"
    }

    private static func json(_ registry: SerializerRegistry) -> String {
        let stages = registry.stages.map { stage in
            "{\"id\":\(Output.jsonString(stage.factory.id.rawValue)),\"module\":\(Output.jsonString(stage.moduleName)),"
                + "\"options\":\(jsonOptions(stage.factory.optionSchema)),"
                + "\"summary\":\(Output.jsonString(stage.factory.summary))}"
        }
        let serializers = registry.entries.map { entry -> String in
            return "{\"id\":\(Output.jsonString(entry.id.rawValue)),\"module\":\(Output.jsonString(entry.moduleName)),"
                + "\"mediaRanges\":\(Output.jsonArray(entry.mediaRanges.map(\.description))),"
                + "\"options\":\(jsonOptions(entry.factory.optionSchema)),"
                + "\"summary\":\(Output.jsonString(entry.factory.summary))}"
        }
        return "{\"modules\":\(Output.jsonArray(registry.moduleNames)),"
            + "\"serializers\":[\(serializers.joined(separator: ","))],"
            + "\"stages\":[\(stages.joined(separator: ","))],"
            + "\"conflicts\":\(Output.jsonArray(registry.conflicts.map(\.description))),"
            + "\"accept\":\(Output.jsonString(registry.acceptHeader.description))}"
    }
}
