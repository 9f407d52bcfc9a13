import Decant
import DecantConformance
import Foundation

/// `decant decode [FILE|-]`: run a response through the tool's registry and print the value.
enum DecodeCommand: Command {
    static let name = "decode"
    static let summary = "Decode a raw HTTP response (or a bare body) and print the chosen serializer and the value."
    static let usage = """
        Usage: decant decode [OPTIONS] [FILE|-]

        Reads a raw HTTP/1.1 response (`curl -si URL > case.http` saves one) from FILE or stdin, resolves a
        serializer through the tool's registry by media type, and prints the serializer, the media type and the
        value: JSON pretty-printed, text with the encoding used, an XML tree as a document, bytes as a size and hex
        preview, anything else in its canonical form. Failures print the error, with every attempt, on stderr and
        exit 1 (a status outside 200-299 with its body decoded, such as a problem+json document, under
        `error value:`); usage errors exit 2.

        Options:
          --content-type T  Treat the input as a bare body with Content-Type T (status 200) instead of a message.
          --method M        The request method (HEAD responses have no body).
          --url U           The request URL.
          --serializer ID   Use this serializer (behind the usual validation) instead of resolving one.
          --config FILE     Use a chain from this configuration file (see `decant config check`)...
          --chain NAME      ...the chain called NAME (optional when the file has one chain).
          --pointer P       Print only the value at the JSON Pointer P (RFC 6901, such as /data/0/name, or the
                            URI fragment form #/data/0/name), read by the decoder of the format (json, cbor,
                            msgpack, propertyList) without decoding the rest; a path the body does not have
                            is an error naming the deepest part that matched (exit 1).
          --sniff           Sniff the body when Content-Type is missing or generic (application/octet-stream, ...).
          --explain         Print the resolution trace (candidates, scores, skipped, chosen), then each failed
                            attempt and the serializer that produced the value (`produced by:`); with --json it
                            goes to stderr.
          --stream          Decode the body while it arrives, with the streaming serializer of its media type
                            (NDJSON, JSON text sequences, server-sent events), and print each record as one JSON
                            line (its canonical form) as soon as it is decoded; a bad record ends the stream with its
                            error (exit 1). Works on pipes: `curl -sN URL | decant decode --stream --content-type
                            text/event-stream -`.
          --png OUT         For an image, write the decoded frame to OUT as a PNG file (8-bit, in the smallest
                            colour type that holds its pixels exactly).
          --rgba OUT        For an image, write the decoded frame to OUT as raw RGBA8: width * height * 4 bytes,
                            top-down rows, straight alpha (the size is in the printed value).
          --frame N         The animation frame --png, --rgba and the preview use, from 0 (default: the image
                            itself, which is the first frame).
          --apply-orientation
                            Write --png and --rgba files rotated and mirrored as the image's EXIF orientation says
                            (as a viewer shows it); without it they hold the pixels as stored.
          --no-preview      On a terminal, do not draw the image (an image is drawn after the usual text with
                            24-bit colours and half blocks, fitted to the terminal's width, after a one-line
                            summary: format, size, frames, colour, orientation, density; drawn upright, its EXIF
                            orientation applied). Output that is not a terminal never gets the drawing.
          --preview         Draw the image even when standard output is not a terminal (for `less -R`).
          --json            Print one JSON object: {"serializer", "mediaType", "value"} with the value in its
                            canonical form (plus "attempts" when a fallback produced it after others failed, and
                            "partFailures", each part's error in full, when parts of a multipart body failed), or
                            {"error": {"code", "message", "attempts"}} (still exit 1). Without --json, each failed
                            part is a `part failed: [code] message` line after the value.
          --help            Show this help.

        Examples:
          curl -si https://api.example.com/users/1 > user.http && decant decode user.http
          echo '{"a": [1, 2]}' | decant decode --content-type application/json -
          decant decode --content-type image/gif --frame 2 --png frame2.png animation.gif
          decant decode --json --pointer /data/0/name user.http
        """

    static func run(_ arguments: [String], _ context: CommandContext) throws -> Int32 {
        let parsed = try CommandLineArguments(
            arguments,
            flags: ["--sniff", "--explain", "--json", "--stream", "--preview", "--no-preview", "--apply-orientation"],
            options: [
                "--content-type", "--method", "--url", "--serializer", "--config", "--chain", "--png", "--rgba",
                "--frame", "--pointer",
            ])
        guard parsed.positionals.count <= 1 else {
            throw CommandLineArguments.UsageError(description: "decode takes at most one FILE (or - for stdin)")
        }
        if parsed.value("--chain") != nil && parsed.value("--config") == nil {
            throw CommandLineArguments.UsageError(description: "--chain needs --config FILE")
        }
        let asJSON = parsed.has("--json")
        let imageOutput = try ImageOutput(parsed, asJSON: asJSON)
        let pointer = try pointerOption(parsed)
        if parsed.has("--stream") {
            guard !imageOutput.needsImage else {
                throw CommandLineArguments.UsageError(
                    description: "--png, --rgba, --frame and --apply-orientation do not apply to --stream")
            }
            return try runStream(parsed, context)
        }
        // An output file that cannot be written fails now, before the input is read and decoded.
        if let problem = outputFilesProblem(imageOutput) {
            Output.error("\(context.toolName) decode: " + problem)
            return 1
        }
        // The configured chain, loaded first: its body size limit bounds what is read.
        let configured: ConfiguredChain?
        switch try configuredChain(parsed, context, asJSON: asJSON) {
        case .success(let chain): configured = chain
        case .failure: return 1
        }
        let isMessage = parsed.value("--content-type") == nil
        let path = parsed.positionals.first ?? "-"
        let maxBodyBytes = configured?.settings.maxBodyBytes ?? BodySizeLimit.default.maxBytes
        let limit = readLimit(maxBodyBytes: maxBodyBytes, isMessage: isMessage)
        let (input, isComplete) = try Output.read(path, atMost: limit)
        guard isComplete else {
            report(
                inputTooLarge(path: path, limit: limit, maxBodyBytes: maxBodyBytes, isMessage: isMessage),
                asJSON: asJSON)
            return 1
        }
        let url = parsed.value("--url").flatMap(URL.init(string:))
        let response: Response
        do {
            if let contentType = parsed.value("--content-type") {
                guard (try? MediaType(parsing: contentType)) != nil else {
                    throw CommandLineArguments.UsageError(
                        description: "--content-type '\(contentType)' is not a media type")
                }
                response = Response(
                    status: 200, headers: ["Content-Type": contentType], body: input, url: url,
                    requestMethod: parsed.value("--method"))
            } else {
                response = try Response(
                    raw: input, requestMethod: parsed.value("--method"), url: url,
                    limits: rawMessageLimits(maxBodyBytes: maxBodyBytes))
            }
        } catch let error as SerializationError {
            report(error, asJSON: asJSON)
            return 1
        }
        return try decodeAndPrint(
            response, parsed, context, command: name, configured: configured, imageOutput: imageOutput,
            pointer: pointer)
    }

    /// Why a file of `--png` or `--rgba` cannot be written (see ``outputFileProblem(_:option:)``), or `nil`: checked
    /// before the input is read (or fetched) and decoded.
    static func outputFilesProblem(_ imageOutput: ImageOutput) -> String? {
        for (option, path) in [("--png", imageOutput.pngPath), ("--rgba", imageOutput.rgbaPath)] {
            if let path, let problem = outputFileProblem(path, option: option) { return problem }
        }
        return nil
    }

    /// What failed while a configured chain was loaded; the failure has been printed (exit status 1).
    struct ReportedFailure: Error {}

    /// The chain of `--config FILE` (and `--chain NAME`), or `nil` without `--config`; a file that cannot be read
    /// or checked, or a chain it does not have, is printed and returned as a failure.
    ///
    /// - Throws: A usage error when the file has several chains and `--chain` names none.
    static func configuredChain(
        _ parsed: CommandLineArguments, _ context: CommandContext, asJSON: Bool
    ) throws -> Result<ConfiguredChain?, ReportedFailure> {
        guard let path = parsed.value("--config") else { return .success(nil) }
        let loaded: LoadedConfiguration
        do {
            loaded = try context.registry.loadConfiguration(contentsOf: URL(fileURLWithPath: path))
        } catch {
            Output.error(error.description)
            return .failure(ReportedFailure())
        }
        let names = loaded.configuration.chains.map(\.name)
        guard let name = parsed.value("--chain") ?? (names.count == 1 ? names[0] : nil) else {
            throw CommandLineArguments.UsageError(
                description: "\(path) has several chains; pick one with --chain (\(names.joined(separator: ", ")))")
        }
        do {
            return .success(try loaded.chain(named: name))
        } catch {
            report(error, asJSON: asJSON)
            return .failure(ReportedFailure())
        }
    }

    /// Decodes `response` as the options in `parsed` ask and prints it (or its error): the one printing of a decoded
    /// response, for `decode` and for `get`, so that both print a response byte for byte alike.
    ///
    /// - Parameters:
    ///   - command: The command's name, for messages (`decode`, `get`).
    ///   - configured: The chain of `--config`, if any.
    ///   - imageOutput: The image options (`--png`, `--rgba`, `--frame`, previews).
    ///   - pointer: The pointer of `--pointer`, if any.
    /// - Returns: The exit status: 0 when the value was printed, 1 when the response failed (its error printed).
    static func decodeAndPrint(
        _ response: Response, _ parsed: CommandLineArguments, _ context: CommandContext, command: String,
        configured: ConfiguredChain?, imageOutput: ImageOutput, pointer: JSONPointer?
    ) throws -> Int32 {
        let asJSON = parsed.has("--json")
        let registry = context.registry
        let sniffing: SniffingPolicy = parsed.has("--sniff") ? .sniffWhenGeneric : .trustHeader
        let resolution = registry.resolve(response, sniffing: sniffing)
        /// The trace for --explain: the resolution, then each failed attempt and the serializer that produced the
        /// value (on stderr with --json).
        func explain(_ outcome: String) {
            guard parsed.has("--explain") else { return }
            let trace =
                "resolution:\n"
                + outcome.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n")
            if asJSON { Output.error(trace) } else { Output.line(trace) }
        }
        do {
            let result: SerializedValue
            if let pointer {
                result = try registry.value(from: response, at: pointer, sniffing: sniffing)
            } else if let configured {
                let chosen = try configured.serializeReportingChoice(response)
                result = SerializedValue(
                    value: chosen.value, serializerID: chosen.serializerID, mediaType: resolution.mediaType,
                    resolution: resolution, attempts: chosen.attempts)
            } else if let id = parsed.value("--serializer") {
                guard let serializerID = SerializerID(rawValue: id) else {
                    throw CommandLineArguments.UsageError(description: "'\(id)' is not a serializer id")
                }
                let serializer = try registry.serializer(id: serializerID)
                var chain = ResponseChain(serializer)
                chain.mediaTypeValidation = nil
                let value = try chain.serialize(response)
                result = SerializedValue(
                    value: value, serializerID: serializerID, mediaType: resolution.mediaType, resolution: resolution)
            } else {
                result = try registry.serialize(response, sniffing: sniffing)
            }
            explain(result.description)
            // The value printed: with --apply-orientation, the image as the files hold it.
            var value = result.value
            if let failure = writeImageFiles(&value, serializerID: result.serializerID, imageOutput) {
                Output.error("\(context.toolName) \(command): " + failure)
                return 1
            }
            let printed = SerializedValue(
                value: value, serializerID: result.serializerID, mediaType: result.mediaType,
                resolution: result.resolution, attempts: result.attempts)
            try print(printed, response: response, resolution: resolution, asJSON: asJSON)
            if imageOutput.preview, let image = result.value as? Image {
                printPreview(image, frame: imageOutput.frame)
            }
            return 0
        } catch let error as SerializationError {
            let failures = ([error] + error.attempts).filter { $0.code != .allSerializersFailed }
            explain(
                ([resolution.description]
                    + failures.map { "failed: \($0.serializerID?.rawValue ?? "?") (\($0.code))" }
                    + ["produced by: none"]).joined(separator: "\n"))
            report(error, asJSON: asJSON)
            return 1
        }
    }

    /// The pointer of `--pointer` (the text form, or the URI fragment form when it starts with `#`), checked against
    /// the options it cannot go with.
    static func pointerOption(_ parsed: CommandLineArguments) throws -> JSONPointer? {
        guard let text = parsed.value("--pointer") else { return nil }
        for other in ["--stream", "--config", "--serializer"] where parsed.has(other) || parsed.value(other) != nil {
            throw CommandLineArguments.UsageError(description: "--pointer does not combine with \(other)")
        }
        do {
            return try text.hasPrefix("#") ? JSONPointer(uriFragment: text) : JSONPointer(parsing: text)
        } catch {
            throw CommandLineArguments.UsageError(description: "--pointer: \(error.message)")
        }
    }

    /// The most `decode` reads: the body size limit, plus for a raw message the status line and header fields
    /// (``Response/RawMessageLimits/maxHeaderBytes``, twice: a chunked body may end with trailer fields) and the
    /// chunked framing (chunk-size lines, allowed a quarter of the body limit). The sum saturates at `Int.max - 1`
    /// (``Output/read(_:atMost:)`` reads one byte more), whatever limit a program gives.
    static func readLimit(maxBodyBytes: Int, isMessage: Bool) -> Int {
        let body = max(0, maxBodyBytes)
        guard isMessage else { return min(body, Int.max - 1) }
        let head = Response.RawMessageLimits().maxHeaderBytes
        let (allowance, overflowA) = head.multipliedReportingOverflow(by: 2)
        let (framing, overflowB) = allowance.addingReportingOverflow(body / 4)
        let (sum, overflowC) = body.addingReportingOverflow(framing)
        return overflowA || overflowB || overflowC ? Int.max - 1 : min(sum, Int.max - 1)
    }

    /// The raw-message parser's limits for a chain whose body size limit is `maxBodyBytes`: the default ones, with a
    /// body limit raised to the chain's when that is larger, so the chain's limit (and its error, which names
    /// `limits.maxBodyBytes`) is the one that applies.
    static func rawMessageLimits(maxBodyBytes: Int) -> Response.RawMessageLimits {
        var limits = Response.RawMessageLimits.default
        limits.maxBodyBytes = max(limits.maxBodyBytes, maxBodyBytes)
        return limits
    }

    /// Why the file `path` given to `option` (`--png`, `--rgba`) cannot be written, or `nil` when it can be tried: a
    /// directory, a missing parent directory or one that is not writable, or an existing file that is not.
    static func outputFileProblem(_ path: String, option: String) -> String? {
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        if manager.fileExists(atPath: path, isDirectory: &isDirectory) {
            if isDirectory.boolValue {
                let example =
                    (path.hasSuffix("/") ? path : path + "/") + (option == "--png" ? "image.png" : "image.rgba")
                return "cannot write \(option) \(path): it is a directory. Give the path of a file to create or "
                    + "replace, such as \(example)."
            }
            if !manager.isWritableFile(atPath: path) {
                return "cannot write \(option) \(path): the file exists and is not writable by this user. Give another "
                    + "path, or change the file's permissions."
            }
            return nil
        }
        let parent = URL(fileURLWithPath: path).deletingLastPathComponent().path
        if !manager.fileExists(atPath: parent, isDirectory: &isDirectory) || !isDirectory.boolValue {
            return "cannot write \(option) \(path): the directory \(parent) does not exist. Create it, or give a path "
                + "in an existing directory."
        }
        if !manager.isWritableFile(atPath: parent) {
            return "cannot write \(option) \(path): the directory \(parent) is not writable by this user. Give a "
                + "path in a directory you can write to."
        }
        return nil
    }

    /// The error for an input that goes on past ``readLimit(maxBodyBytes:isMessage:)``.
    static func inputTooLarge(path: String, limit: Int, maxBodyBytes: Int, isMessage: Bool) -> SerializationError {
        let source = path == "-" ? "Standard input" : "The file \(path)"
        let allowance =
            isMessage
            ? "the body size limit of \(maxBodyBytes) bytes plus room for the status line, header fields and chunked "
                + "framing"
            : "the body size limit of \(maxBodyBytes) bytes"
        return SerializationError(
            code: .bodyTooLarge,
            message: "\(source) holds more than \(limit) bytes (\(allowance)); decant stopped reading there. Raise "
                + "`limits.maxBodyBytes` in a chain configuration (--config) if such bodies are expected.")
    }

    private static func print(
        _ result: SerializedValue, response: Response, resolution: Resolution, asJSON: Bool
    ) throws {
        let mediaType = result.mediaType?.description ?? response.contentType?.description
        if asJSON {
            let canonical = try CanonicalForm.of(result.value)
            // {"serializer", "mediaType", "value"[, "attempts"][, "partFailures"]}, written member by member into one buffer: building
            // it as one JSONValue would copy the value (a whole body's text, say) once more.
            let head: [(String, JSONValue)] = [
                ("serializer", JSONValue(result.serializerID.rawValue)),
                ("mediaType", mediaType.map { JSONValue($0) } ?? nil),
            ]
            var output: [UInt8] = []
            JSONValue.object(head).appendJSON(to: &output)
            output.removeLast()  // the `}`: the object goes on
            output.append(contentsOf: #","value":"#.utf8)
            canonical.appendJSON(to: &output)
            // Only when a fallback produced the value: the errors of the serializers tried before it.
            if !result.attempts.isEmpty {
                output.append(contentsOf: #","attempts":"#.utf8)
                JSONValue.array(result.attempts.map(errorObject)).appendJSON(to: &output)
            }
            // Only when parts of the value failed (a multipart body): each part's error in full.
            if let failures = (result.value as? any PartFailureReporting)?.partFailures, !failures.isEmpty {
                output.append(contentsOf: #","partFailures":"#.utf8)
                JSONValue.array(failures.map(errorObject)).appendJSON(to: &output)
            }
            output.append(UInt8(ascii: "}"))
            Output.line(bytes: output)
            return
        }
        Output.line("serializer: \(result.serializerID)")
        for attempt in result.attempts {
            Output.line("failed first: \(attempt.serializerID?.rawValue ?? "?") [\(attempt.code)] \(attempt.message)")
        }
        Output.line("media type: " + (mediaType.map { "\($0) (\(resolution.source))" } ?? "none"))
        Output.line("status: \(response.status)")
        switch result.value {
        case let json as JSONValue:
            Output.line("value:")
            var output: [UInt8] = []
            json.appendJSON(options: .prettyPrinted, to: &output)
            Output.line(bytes: output)
        case let text as DecodedText:
            Output.line("encoding: \(text.encoding.name) (\(text.source))")
            Output.line("text:")
            Output.line(text.text)
        case let tree as XMLTree:
            Output.line("value:")
            Output.line(tree.xmlString())
        case let data as Data:
            Output.line("value: \(data.count) bytes")
            Output.line(data.prefix(64).map { String(format: "%02x", $0) }.joined(separator: " "))
        default:
            Output.line("value:")
            Output.line((try? CanonicalForm.of(result.value).description) ?? String(describing: result.value))
        }
        for failure in (result.value as? any PartFailureReporting)?.partFailures ?? [] {
            Output.line("part failed: [\(failure.code)] \(failure.message)")
        }
    }

    /// The most bytes of a decoded error body ``report(_:asJSON:)`` prints without `--json`.
    static let errorValuePrintLimit = 4096

    /// Prints `error`: its description on standard error, followed by the decoded error body (`errorValue`, such as
    /// a problem+json document of a 404) pretty-printed in its canonical form under `error value:`; with `asJSON`,
    /// ``errorJSON(_:)`` on standard output.
    static func report(_ error: SerializationError, asJSON: Bool) {
        guard asJSON else {
            Output.error(error.description)
            if let errorValue = error.errorValue, let canonical = try? CanonicalForm.of(errorValue) {
                var output: [UInt8] = []
                canonical.appendJSON(options: .prettyPrinted, to: &output)
                var text = String(decoding: output, as: UTF8.self)
                if output.count > errorValuePrintLimit {
                    // Cut at the start of a scalar (not before a UTF-8 continuation byte).
                    var cut = errorValuePrintLimit
                    while cut > 0 && output[cut] & 0xC0 == 0x80 { cut -= 1 }
                    text =
                        String(decoding: output[..<cut], as: UTF8.self)
                        + "\n… (\(output.count) bytes in all; --json prints the whole value)"
                }
                Output.error("error value:\n" + text)
            }
            return
        }
        Output.line(String(decoding: errorJSON(error).jsonData(), as: UTF8.self))
    }

    /// `{"error": {"code", "message", "serializer", "mediaType", "status", "offset", "attempts": [...]}}`.
    static func errorJSON(_ error: SerializationError) -> JSONValue {
        .object([("error", errorObject(error))])
    }

    private static func errorObject(_ error: SerializationError) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("code", JSONValue(error.code.rawValue)),
            ("message", JSONValue(error.message)),
            ("serializer", error.serializerID.map { JSONValue($0.rawValue) } ?? nil),
            ("mediaType", error.mediaType.map { JSONValue($0.description) } ?? nil),
            ("status", error.status.map { JSONValue($0) } ?? nil),
            ("offset", error.offset.map { JSONValue($0) } ?? nil),
            ("attempts", .array(error.attempts.map(errorObject))),
        ]
        if let errorValue = error.errorValue, let canonical = try? CanonicalForm.of(errorValue) {
            members.append(("errorValue", canonical))
        }
        return .object(members)
    }
}
