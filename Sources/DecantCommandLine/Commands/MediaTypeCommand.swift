import Decant

/// `decant media-type STRING...`: parse media types the way Decant does.
enum MediaTypeCommand: Command {
    static let name = "media-type"
    static let summary = "Parse media types (WHATWG, or RFC 9110 with --strict) and print their serialization."
    static let usage = """
        Usage: decant media-type [--strict] [--json] STRING...

        Parses each STRING as a media type (a Content-Type value) and prints one line per input: the WHATWG
        serialization of the parsed type (lowercased type, subtype and parameter names; values quoted only when
        needed), or `invalid`. Exits 1 if any input is invalid. With no STRING, reads one input per line from stdin.
        Arguments that start with `-` and are not options below are inputs too; `--` ends the options.

        Options:
          --strict   Parse with the RFC 9110 grammar instead of the lenient WHATWG algorithm.
          --json     Print one JSON object per line instead: {"input", "valid", "serialization", "essence", "type",
                     "subtype", "suffix", "charset", "parameters", "groups"} or {"input", "valid": false, "error"}.
          --help     Show this help.

        Examples:
          decant media-type 'Application/Problem+JSON; Charset=UTF-8'
              application/problem+json;charset=UTF-8
          decant media-type 'text/html;charset=' 'nonsense'
              text/html
              invalid
        """

    /// The most read from standard input: 16 MiB of media types, one per line.
    static let maxStandardInputBytes = 16 * 1024 * 1024

    static func run(_ arguments: [String], _ context: CommandContext) throws -> Int32 {
        let parsed = try CommandLineArguments(
            arguments, flags: ["--strict", "--json"], options: [], unknownAsPositional: true)
        var inputs = parsed.positionals
        if inputs.isEmpty {
            let (bytes, isComplete) = try Output.read("-", atMost: maxStandardInputBytes)
            guard isComplete else {
                Output.error(
                    "decant media-type: standard input holds more than \(maxStandardInputBytes) bytes of media types; "
                        + "decant stopped reading there. Split the list into smaller runs.")
                return 1
            }
            let text = String(decoding: bytes, as: UTF8.self)
            inputs = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            if inputs.last == "" { inputs.removeLast() }
            if inputs.isEmpty { throw CommandLineArguments.UsageError(description: "no media type given") }
        }
        let mode: MediaType.ParsingMode = parsed.has("--strict") ? .strict : .lenient
        var status: Int32 = 0
        for input in inputs {
            do {
                let mediaType = try MediaType(parsing: input, mode: mode)
                Output.line(parsed.has("--json") ? json(input: input, mediaType) : mediaType.description)
            } catch {
                status = 1
                if parsed.has("--json") {
                    Output.line(
                        "{\"input\":\(Output.jsonString(input)),\"valid\":false,"
                            + "\"error\":\(Output.jsonString(error.description))}")
                } else {
                    Output.line("invalid")
                }
            }
        }
        return status
    }

    private static func json(input: String, _ mediaType: MediaType) -> String {
        let parameters = mediaType.parameters.map { "[\(Output.jsonString($0.name)),\(Output.jsonString($0.value))]" }
        var fields = [
            "\"input\":\(Output.jsonString(input))",
            "\"valid\":true",
            "\"serialization\":\(Output.jsonString(mediaType.description))",
            "\"essence\":\(Output.jsonString(mediaType.essence))",
            "\"type\":\(Output.jsonString(mediaType.type))",
            "\"subtype\":\(Output.jsonString(mediaType.subtype))",
        ]
        fields.append("\"suffix\":" + (mediaType.suffix.map(Output.jsonString) ?? "null"))
        fields.append("\"charset\":" + (mediaType.charset.map(Output.jsonString) ?? "null"))
        fields.append("\"parameters\":[" + parameters.joined(separator: ",") + "]")
        fields.append("\"groups\":" + Output.jsonArray(mediaType.groups.map(\.name)))
        return "{" + fields.joined(separator: ",") + "}"
    }
}
