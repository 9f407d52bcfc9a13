import Decant
import DecantConformance

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
               decant encode (--content-type T | --accept A) (--from-response | --from-type T) [--http] [--explain]
                             [FILE|-]

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
          --from-response   The input is not a canonical form but a raw HTTP/1.1 response (what `decant decode FILE`
                            reads): its body is read through the registry and its value written as asked, such as a
                            JPEG as image/png or a multipart body again. For images and multipart bodies, whose
                            canonical forms cannot be turned back into them.
          --from-type T     Likewise, for a bare body of the media type T.
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
          decant encode --content-type image/png --from-type image/jpeg photo.jpg > photo.png
        """

    static func run(_ arguments: [String], _ context: CommandContext) throws -> Int32 {
        let parsed = try CommandLineArguments(
            arguments, flags: ["--http", "--explain", "--from-response"],
            options: ["--content-type", "--accept", "--from-type"])
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
        if parsed.has("--from-response") || parsed.value("--from-type") != nil {
            return try transcode(parsed, context, mediaType: mediaType, accept: accept)
        }
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
        let written: CanonicalFormEncoding
        do {
            if let mediaType {
                written = try registry.encode(canonicalForm: json, as: mediaType)
            } else {
                written = try registry.encode(canonicalForm: json, accepting: AcceptHeader(parsing: accept ?? ""))
            }
        } catch {
            Output.error(error.description)
            return 1
        }
        if parsed.has("--explain") {
            for line in written.explanation { Output.error(line) }
        }
        write(written.body, asMessage: parsed.has("--http"))
        return 0
    }

    /// Writes `body`, after a status line and header fields with `--http`.
    private static func write(_ body: EncodedBody, asMessage: Bool) {
        if asMessage {
            var head = "HTTP/1.1 200 OK\r\n"
            for field in body.headerFields { head += "\(field.name): \(field.value)\r\n" }
            Output.write(bytes: Data((head + "\r\n").utf8))
        }
        Output.write(bytes: body.body)
    }

    /// `--from-response` / `--from-type T`: the input is a body, read through the registry as `decant decode` reads
    /// it, and its value is written as the media type asked for (a JPEG as a PNG, a multipart body with a new
    /// boundary, JSON as CBOR): for the values whose canonical form cannot be turned back into them (an image's is a
    /// digest of its pixels; a multipart body's holds its parts' decoded values, not their bytes).
    private static func transcode(
        _ parsed: CommandLineArguments, _ context: CommandContext, mediaType: MediaType?, accept: String?
    ) throws -> Int32 {
        let fromType = parsed.value("--from-type")
        guard !(fromType != nil && parsed.has("--from-response")) else {
            throw CommandLineArguments.UsageError(description: "give at most one of --from-response and --from-type T")
        }
        if let fromType, (try? MediaType(parsing: fromType)) == nil {
            throw CommandLineArguments.UsageError(description: "--from-type '\(fromType)' is not a media type")
        }
        let registry = context.registry
        let maxBodyBytes = registry.bodySizeLimit?.maxBytes ?? BodySizeLimit.default.maxBytes
        let isMessage = fromType == nil
        let path = parsed.positionals.first ?? "-"
        let limit = DecodeCommand.readLimit(maxBodyBytes: maxBodyBytes, isMessage: isMessage)
        let (input, isComplete) = try Output.read(path, atMost: limit)
        let encoded: EncodedBody
        do throws(SerializationError) {
            guard isComplete else {
                throw DecodeCommand.inputTooLarge(
                    path: path, limit: limit, maxBodyBytes: maxBodyBytes, isMessage: isMessage)
            }
            let response: Response
            if let fromType {
                response = Response(status: 200, headers: ["Content-Type": fromType], body: input)
            } else {
                response = try Response(raw: input, limits: DecodeCommand.rawMessageLimits(maxBodyBytes: maxBodyBytes))
            }
            let read = try registry.serialize(response)
            let value = read.value
            if let mediaType {
                encoded = try registry.encode(value, as: mediaType)
            } else {
                let header = AcceptHeader(parsing: accept ?? "")
                if parsed.has("--explain") { Output.error(registry.negotiate(value, accepting: header).description) }
                encoded = try registry.encode(value, accepting: header)
            }
            if parsed.has("--explain") {
                Output.error(
                    "read by '\(read.serializerID)' (a \(type(of: value))), written by '\(encoded.serializerID)' as "
                        + "\(encoded.contentType)")
            }
        } catch {
            Output.error(error.description)
            return 1
        }
        write(encoded, asMessage: parsed.has("--http"))
        return 0
    }
}
