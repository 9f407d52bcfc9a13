import Decant

/// `decant sniff FILE|-`: the media type a body looks like.
enum SniffCommand: Command {
    static let name = "sniff"
    static let summary = "Print the media type sniffed from a bare body, or `unknown`."
    static let usage = """
        Usage: decant sniff [--json] FILE|-

        Reads the first 1445 bytes of a bare body (not an HTTP message) from FILE, or stdin for `-`, and prints the
        media type they identify (WHATWG MIME Sniffing signatures for images, audio, video, fonts and archives,
        plus JSON, XML, HTML, property-list and byte-order-mark heuristics), or `unknown`. Exits 0 either way.

        Options:
          --json     Print {"mediaType": "..."} or {"mediaType": null} instead.
          --help     Show this help.

        Example:
          decant sniff logo.png
              image/png
        """

    static func run(_ arguments: [String], _ context: CommandContext) throws -> Int32 {
        let parsed = try CommandLineArguments(arguments, flags: ["--json"], options: [])
        guard parsed.positionals.count == 1 else {
            throw CommandLineArguments.UsageError(description: "sniff takes exactly one FILE (or - for stdin)")
        }
        // Sniffing reads only the resource header (WHATWG MIME Sniffing §5.2), so nothing more is read.
        let body = try Output.read(parsed.positionals[0], atMost: MediaTypeSniffer.resourceHeaderLength).data
        let sniffed = MediaTypeSniffer.sniff(body)
        if parsed.has("--json") {
            Output.line("{\"mediaType\":" + (sniffed.map { Output.jsonString($0.description) } ?? "null") + "}")
        } else {
            Output.line(sniffed?.description ?? "unknown")
        }
        return 0
    }
}
