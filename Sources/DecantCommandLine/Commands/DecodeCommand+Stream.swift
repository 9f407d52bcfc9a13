import Decant
import DecantConformance
import Dispatch
import Foundation

/// `decant decode --stream`: records printed one JSON line each, as soon as they are decoded.
extension DecodeCommand {
    /// Decodes the input as a stream of records with the streaming serializer its media type resolves to.
    static func runStream(_ parsed: CommandLineArguments, _ context: CommandContext) throws -> Int32 {
        for option in ["--config", "--chain", "--serializer", "--sniff"] where parsed.has(option) {
            throw CommandLineArguments.UsageError(description: "--stream does not go with \(option)")
        }
        let asJSON = parsed.has("--json")
        let path = parsed.positionals.first ?? "-"
        let descriptor = try InputChunks.open(path)
        defer { if descriptor != 0 { close(descriptor) } }
        let head: Response
        let prefix: Data
        do {
            (head, prefix) = try readHead(descriptor, parsed: parsed)
        } catch let error as SerializationError {
            report(error, asJSON: asJSON)
            return 1
        }
        let registry = context.registry
        let chunks = InputChunks(descriptor: descriptor, prefix: prefix)
        let outcome = Locked<Int32>(0)
        let finished = DispatchSemaphore(value: 0)
        let capture = Output.capture
        Task {
            await Output.$capture.withValue(capture) {
                do {
                    let stream = try await registry.records(head, body: chunks, as: (any Sendable).self)
                    var line: [UInt8] = []
                    for try await record in stream {
                        let canonical = try CanonicalForm.of(record)
                        line.removeAll(keepingCapacity: true)
                        canonical.appendJSON(to: &line)
                        Output.line(bytes: line)
                    }
                } catch let error as SerializationError {
                    report(error, asJSON: asJSON)
                    outcome.withLock { $0 = 1 }
                } catch {
                    Output.error("decant: \(error)")
                    outcome.withLock { $0 = 1 }
                }
            }
            finished.signal()
        }
        finished.wait()
        return outcome.withLock { $0 }
    }

    /// The response head: from `--content-type` (a bare body, status 200), or read from the input (a raw message's
    /// status line and header fields), with the body bytes read past it.
    private static func readHead(_ descriptor: Int32, parsed: CommandLineArguments) throws -> (Response, Data) {
        let url = parsed.value("--url").flatMap(URL.init(string:))
        if let contentType = parsed.value("--content-type") {
            guard (try? MediaType(parsing: contentType)) != nil else {
                throw CommandLineArguments.UsageError(
                    description: "--content-type '\(contentType)' is not a media type")
            }
            return (Response(status: 200, headers: ["Content-Type": contentType], body: Data(), url: url), Data())
        }
        let limit = Response.RawMessageLimits().maxHeaderBytes
        var input = Data()
        while true {
            if let end = headEnd(input) {
                // A HEAD response has no body, so the head parses alone.
                var head = try Response(raw: input.prefix(end), requestMethod: "HEAD", url: url)
                head.requestMethod = parsed.value("--method")
                let rest = Data(input.dropFirst(end))
                if head.headers.values(for: "Transfer-Encoding").contains(where: { $0.lowercased().contains("chunked") }
                ),
                    looksChunked(rest)
                {
                    throw SerializationError(
                        code: .unsupportedFeature,
                        message: "The message's body still has its chunked framing, which --stream does not remove. "
                            + "Save it with `curl -si` (without --raw), or stream the bare body: `curl -sN URL | "
                            + "decant decode --stream --content-type TYPE -`.",
                        response: head)
                }
                return (head, rest)
            }
            guard input.count <= limit else {
                throw SerializationError(
                    code: .malformedMessage,
                    message: "No end of the header fields in the first \(limit) bytes: the input is not a raw HTTP "
                        + "response. Give the body's type with --content-type to stream a bare body.")
            }
            let chunk = try InputChunks.read(descriptor)
            guard !chunk.isEmpty else {
                throw SerializationError(
                    code: .malformedMessage,
                    message: "The input ends before the end of the header fields (an empty line): it is not a raw "
                        + "HTTP response. Give the body's type with --content-type to stream a bare body.")
            }
            input.append(chunk)
        }
    }

    /// The offset just past the empty line that ends a head (CRLF CRLF, or LF LF from hand-written files).
    private static func headEnd(_ data: Data) -> Int? {
        let bytes = [UInt8](data)
        var index = 0
        while index < bytes.count {
            if bytes[index] == 0x0A {
                if index + 1 < bytes.count, bytes[index + 1] == 0x0A { return index + 2 }
                if index + 2 < bytes.count, bytes[index + 1] == 0x0D, bytes[index + 2] == 0x0A { return index + 3 }
            }
            index += 1
        }
        return nil
    }

    /// Whether a body starts like chunked framing: hex digits, then CR LF or `;` (an extension).
    private static func looksChunked(_ body: Data) -> Bool {
        let digits = body.prefix { ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x66) }
        guard !digits.isEmpty, digits.count < body.count else { return false }
        let next = body[body.startIndex + digits.count]
        return next == 0x0D || next == 0x3B
    }
}
