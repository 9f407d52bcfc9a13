import Decant

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `decant encode (--content-type T | --accept A) [FILE|-]`: write a value, given in its canonical JSON form, as a
/// body.
enum EncodeCommand: Command {
    static let name = "encode"
    static let summary = "Write a value (its canonical JSON form) as a body of a media type, or of one Accept prefers."
    static let usage = """
        Usage: decant encode (--content-type T | --accept A) [--http] [--explain] [FILE|-]

        Reads a value in its format's canonical JSON form (exactly what `decant decode --json` prints under
        "value") from FILE or stdin, and writes it to stdout as a body: the format that writes the media type
        builds its value from the JSON and encodes it (JSON writes the JSON itself; `string` reads
        {"text": TEXT, "encoding": NAME}; `data` reads {"data_base64": BASE64}).

        Options:
          --content-type T  Write the media type T, such as application/json or text/plain;charset=shift_jis: the
                            formats that write it are tried most specific range first, then in installation order,
                            and the first whose value the JSON describes writes it.
          --accept A        Negotiate the media type with the Accept header A (RFC 9110: q-values, q=0 excludes,
                            the most specific range decides a type's quality, then the tool's format order) among
                            the formats that can write the value: a JSON object is no text/html body, so
                            'text/html, application/json;q=0.1' gives application/json.
          --http            Write a whole HTTP/1.1 response (status line, Content-Type, Content-Length, body), which
                            `decant decode FILE` reads back.
          --explain         Print to stderr how the format and media type were chosen (with --accept, the whole
                            negotiation: candidates with their qualities, skipped formats and why).
          --help            Show this help.

        Exit status: 0 when the body was written; 1 when the input is not JSON, the value does not fit the format,
        or nothing acceptable can be written (the error lists the media types the value can be written as); 2 for
        a usage error.

        Examples:
          echo '{"id": 1, "tags": ["a"]}' | decant encode --content-type application/json -
          echo '{"id": 1}' | decant encode --accept 'text/html, application/json;q=0.1' --http - > reply.http
          echo '{"text": "café", "encoding": "windows-1252"}' | decant encode --content-type text/plain - | xxd
        """

    static func run(_ arguments: [String], _ context: CommandContext) throws -> Int32 {
        let parsed = try CommandLineArguments(
            arguments, flags: ["--http", "--explain"], options: ["--content-type", "--accept"])
        guard parsed.positionals.count <= 1 else {
            throw CommandLineArguments.UsageError(description: "encode takes at most one FILE (or - for stdin)")
        }
        let contentType = parsed.value("--content-type")
        let accept = parsed.value("--accept")
        guard (contentType == nil) != (accept == nil) else {
            throw CommandLineArguments.UsageError(description: "give exactly one of --content-type T and --accept A")
        }
        var mediaType: MediaType?
        if let contentType {
            do {
                mediaType = try MediaType(parsing: contentType)
            } catch {
                throw CommandLineArguments.UsageError(description: "--content-type: \(error)")
            }
        }
        let registry = context.registry
        let limit = registry.bodySizeLimit?.maxBytes ?? BodySizeLimit.default.maxBytes
        let path = parsed.positionals.first ?? "-"
        let (input, isComplete) = try Output.read(path, atMost: limit)
        guard isComplete else {
            Output.error(
                "\(context.toolName) encode: the input holds more than \(limit) bytes, the tool's body size limit; "
                    + "decant stopped reading there.")
            return 1
        }
        let json: JSONValue
        do {
            json = try JSONParser().parse(input)
        } catch {
            Output.error(
                "\(context.toolName) encode: the input is not JSON, so it is no canonical form of a value: "
                    + error.description)
            return 1
        }
        let values = Values(registry: registry, form: json)
        let body: EncodedBody
        do {
            if let mediaType {
                body = try encode(values, as: mediaType, registry: registry, explain: parsed.has("--explain"))
            } else {
                body = try encode(
                    values, accepting: AcceptHeader(parsing: accept ?? ""), registry: registry,
                    explain: parsed.has("--explain"))
            }
        } catch {
            Output.error(error.description)
            return 1
        }
        if parsed.has("--http") {
            var head = "HTTP/1.1 200 OK\r\n"
            for field in body.headerFields { head += "\(field.name): \(field.value)\r\n" }
            Output.write(bytes: Data((head + "\r\n").utf8))
        }
        Output.write(bytes: body.body)
        return 0
    }

    /// Each format's value, built once from the canonical form by the output type of the format's serializer.
    final class Values {
        let registry: SerializerRegistry
        let form: JSONValue
        private var built: [SerializerID: Result<any Sendable, SerializationError>] = [:]

        init(registry: SerializerRegistry, form: JSONValue) {
            self.registry = registry
            self.form = form
        }

        func value(for entry: SerializerRegistry.Entry) -> Result<any Sendable, SerializationError> {
            if let known = built[entry.id] { return known }
            let result: Result<any Sendable, SerializationError>
            do throws(SerializationError) {
                let serializer = try registry.serializer(id: entry.id)
                guard let type = serializer.outputType as? any ConformanceInitializable.Type else {
                    throw SerializationError(
                        code: .unsupportedValue,
                        message: "its values (\(serializer.outputType)) cannot be built from their canonical form",
                        serializerID: entry.id)
                }
                result = .success(try build(type))
            } catch {
                result = .failure(error)
            }
            built[entry.id] = result
            return result
        }

        private func build<T: ConformanceInitializable>(_ type: T.Type) throws(SerializationError) -> any Sendable {
            try T(conformanceValue: form)
        }
    }

    /// The body of the first format that writes `mediaType` and whose value the form describes.
    static func encode(
        _ values: Values, as mediaType: MediaType, registry: SerializerRegistry, explain: Bool
    ) throws(SerializationError) -> EncodedBody {
        let entries = registry.entries(writing: mediaType)
        var reasons: [String] = []
        for entry in entries {
            guard let encoder = entry.bodyEncoder else { continue }
            switch values.value(for: entry) {
            case .failure(let error):
                let reason = error.message.hasSuffix(".") ? String(error.message.dropLast()) : error.message
                reasons.append("'\(entry.id)': \(reason)")
            case .success(let value) where !encoder.canEncode(value):
                reasons.append("'\(entry.id)': does not write \(type(of: value))")
            case .success(let value):
                if explain {
                    for reason in reasons { Output.error("skipped \(reason)") }
                    Output.error("written by '\(entry.id)' as \(mediaType) (from its \(type(of: value)) value)")
                }
                return try encoder.encode(value, as: mediaType, options: registry.encodingOptions)
            }
        }
        if entries.isEmpty {
            let writers = registry.entries.filter { $0.bodyEncoder != nil }.map { entry in
                "'\(entry.id)' (\(entry.mediaRanges.map(\.description).joined(separator: ", ")))"
            }
            throw SerializationError(
                code: .noSerializer,
                message: "No format of the tool writes \(mediaType.essence). "
                    + (writers.isEmpty
                        ? "None of its formats writes bodies."
                        : "The formats that write are " + writers.joined(separator: "; ") + "."),
                mediaType: mediaType)
        }
        throw SerializationError(
            code: .unsupportedValue,
            message: "The JSON is not a value any format that writes \(mediaType.essence) can write: "
                + reasons.joined(separator: "; ") + ". Give the value in the canonical form `decant decode --json` "
                + "prints for that format.",
            mediaType: mediaType)
    }

    /// The body in the media type `accept` prefers among the formats that can write the value.
    static func encode(
        _ values: Values, accepting accept: AcceptHeader, registry: SerializerRegistry, explain: Bool
    ) throws(SerializationError) -> EncodedBody {
        let negotiation = registry.negotiate(accepting: accept, valueDescription: "canonical JSON") {
            values.value(for: $0)
        }
        if explain { Output.error(negotiation.description) }
        guard let chosen = negotiation.chosen, let entry = registry.entry(for: chosen.id),
            let encoder = entry.bodyEncoder, case .success(let value) = values.value(for: entry)
        else {
            var writable: [String] = []
            for entry in registry.entries {
                guard let encoder = entry.bodyEncoder, case .success(let value) = values.value(for: entry),
                    encoder.canEncode(value)
                else { continue }
                let types = encoder.writtenTypes.map(\.description)
                writable += types.isEmpty ? encoder.mediaRanges.map(\.description) : types
            }
            var seen = Set<String>()
            writable = writable.filter { seen.insert($0).inserted }
            throw SerializationError(
                code: .notAcceptable,
                message: writable.isEmpty
                    ? "No format of the tool can write this value; give it in the canonical form `decant decode "
                        + "--json` prints."
                    : "Nothing the tool can write this value as is acceptable to 'Accept: \(accept)'. It can write it "
                        + "as \(writable.joined(separator: ", ")).")
        }
        return try encoder.encode(value, as: chosen.mediaType, options: registry.encodingOptions)
    }
}
