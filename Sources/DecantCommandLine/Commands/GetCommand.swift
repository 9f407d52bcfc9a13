import Decant
import DecantConformance
import Dispatch
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `decant get URL`: fetch a URL with `URLSession` and decode the response as `decode` does.
enum GetCommand: Command {
    static let name = "get"
    static let summary = "Fetch an http or https URL and decode the response as `decode` prints it."
    static let usage = """
        Usage: decant get [OPTIONS] URL

        Sends one request to URL (http or https) with URLSession and decodes the response through the tool's
        registry, printing it exactly as `decant decode` prints the same response: the serializer, the media type,
        the status and the value, or the error. Content codings the server applied (gzip, deflate, ...) are
        decoded. Redirects are followed; the status printed is the last response's. The body is read up to the
        tool's body size limit (or that of --config's chain) and no further.

        Request options:
          --method M        The request method (default GET, or POST when a body is sent; GET and HEAD carry
                            no body).
          --header 'N: V'   Send the header field N with the value V; repeat it for more fields (a name given
                            twice is sent with both values).
          --accept A        The Accept field (default: every media type the tool's registry decodes, with the
                            qualities `decant registry` shows).
          --data FILE|-     Send the bytes of FILE (or stdin) as the body, as they are; needs its media type:
                            --data-content-type T, or a Content-Type given with --header.
          --data-json FILE|-
                            Send a value given in its canonical JSON form, written by the format of
                            --data-content-type T (default application/json) exactly as `decant encode
                            --content-type T` writes it; Content-Type (with the charset written, for text) and
                            Content-Length describe the bytes.
          --data-content-type T
                            The media type of the body of --data or --data-json.
          --timeout S       Give up when the whole exchange takes more than S seconds, a whole number (default
                            60; with --stream, see below).

        Output options (as `decant decode`'s; see `decant decode --help`):
          --json            Print one JSON object: {"serializer", "mediaType", "value"}, or {"error": ...}.
          --explain         Print the resolution trace.
          --pointer P       Print only the value at the JSON Pointer P (such as /data/0/name).
          --sniff           Sniff the body when Content-Type is missing or generic.
          --serializer ID   Use this serializer instead of resolving one.
          --config FILE     Use a chain from this configuration file (its body size limit bounds the download)...
          --chain NAME      ...the chain called NAME.
          --png OUT, --rgba OUT, --frame N, --apply-orientation, --preview, --no-preview
                            For an image: write its pixels, choose the frame, draw it on the terminal.
          --help            Show this help.

        Streaming (--stream):
          --stream          Print the body's records one JSON line each as they arrive (the canonical form of
                            each, as `decant decode --stream` prints them), with one line on stderr saying why
                            the stream ended. Asks for text/event-stream unless --accept or --header 'Accept: ...'
                            says otherwise. When the request accepts text/event-stream, the response must be an
                            event stream, read as a browser's EventSource reads it (the DecantEventSource
                            plugin): when a connection ends or drops, wait the reconnection time (the server's
                            last `retry`, backing off with jitter while connections end without an event) and
                            send the request again with Last-Event-ID; stop on 204 No Content. Otherwise (such
                            as --accept application/x-ndjson) the records of any type the registry streams
                            (NDJSON, JSON text sequences, CBOR sequences, ...) are read from one connection,
                            without reconnecting. Goes with the request options and --json (errors as JSON
                            lines), not with the other output options.
          --max-reconnects N
                            Give up after N reconnections in a row without an event (default 10, the event
                            source's; a stream that keeps sending events reconnects without limit).
          --retry MS        The reconnection time in milliseconds until the server sends `retry` (default
                            3000, the event source's).
          --last-event-id ID
                            Send Last-Event-ID: ID on the first request (resume where a stream stopped; the
                            last event ID is printed on stderr when a stream ends).
          --timeout S       With --stream: drop a connection that receives nothing for S seconds (no head, no
                            byte of the body) and reconnect; default 300. The first request must get a response:
                            when it gets none, the run ends as `get` does, without reconnecting.

        Exit status: 0 when the response decoded; 1 when it did not (a status outside 200-299 prints the status
        and the decoded error body, as `decode` prints errors), or when no response arrived (connection refused,
        unknown host, timeout, TLS failure: a message naming the URL on stderr, also with --json); 2 for a usage
        error (including a URL that is not http or https).
        With --stream: 0 when the stream ended as the server said (204 No Content, or the end of a body of
        records); 1 when the first response was not one to stream (a status outside 200-299 with its decoded error
        body, a type that does not stream, an event stream without the DecantEventSource plugin), when the first
        request got no response, or when a record did not decode; 3 when an event stream gave up (the
        --max-reconnects limit was reached, or a reconnection was answered with another status or media type);
        130 when interrupted (Ctrl-C, SIGINT). Each ends with one line on stderr: why, the events and
        reconnections, and the last event ID.

        Examples:
          decant get https://api.example.com/users/1
          decant get --json --pointer /data/0/name --header 'Authorization: Bearer TOKEN' https://api.example.com/users
          echo '{"name": "Ada"}' | decant get --method PUT --data-json - https://api.example.com/users/1
          decant get --data form.txt --data-content-type application/x-www-form-urlencoded https://example.com/login
          decant get --stream --retry 1000 --max-reconnects 20 https://api.example.com/events
          decant get --stream --last-event-id 42 https://api.example.com/events | jq -r .data
          decant get --stream --accept application/x-ndjson https://api.example.com/logs
        """

    /// The seconds `--timeout` allows when it is not given.
    static let defaultTimeout = 60

    static func run(_ arguments: [String], _ context: CommandContext) throws -> Int32 {
        let parsed = try CommandLineArguments(
            arguments,
            flags: ["--sniff", "--explain", "--json", "--preview", "--no-preview", "--apply-orientation", "--stream"],
            options: [
                "--method", "--header", "--accept", "--data", "--data-json", "--data-content-type", "--timeout",
                "--serializer", "--config", "--chain", "--png", "--rgba", "--frame", "--pointer", "--max-reconnects",
                "--retry", "--last-event-id",
            ])
        guard parsed.positionals.count == 1, let text = parsed.positionals.first else {
            throw CommandLineArguments.UsageError(description: "get takes one URL")
        }
        let url = try httpURL(text)
        if parsed.has("--stream") { return try runStream(parsed, url: url, context) }
        for option in streamOnlyOptions where parsed.value(option) != nil {
            throw CommandLineArguments.UsageError(description: "\(option) goes with --stream")
        }
        if parsed.value("--chain") != nil && parsed.value("--config") == nil {
            throw CommandLineArguments.UsageError(description: "--chain needs --config FILE")
        }
        let asJSON = parsed.has("--json")
        let imageOutput = try DecodeCommand.ImageOutput(parsed, asJSON: asJSON)
        let pointer = try DecodeCommand.pointerOption(parsed)
        let timeout = try timeoutOption(parsed)
        var request = URLRequest(url: url, timeoutInterval: TimeInterval(timeout))
        try setHeaderFields(of: &request, parsed, context)
        if let problem = DecodeCommand.outputFilesProblem(imageOutput) {
            Output.error("\(context.toolName) get: " + problem)
            return 1
        }
        let configured: ConfiguredChain?
        switch try DecodeCommand.configuredChain(parsed, context, asJSON: asJSON) {
        case .success(let chain): configured = chain
        case .failure: return 1
        }
        let limit = configured.map { BodySizeLimit(maxBytes: $0.settings.maxBodyBytes) } ?? toolLimit(context)
        switch try setBody(of: &request, parsed, context) {
        case .success: break
        case .failure: return 1
        }
        let response: Response
        switch fetch(request, timeout: timeout, limit: limit) {
        case .success(let fetched):
            response = fetched
        case .failure(let error as SerializationError):
            // The head arrived but the body did not (truncated, over the limit): an error of the response.
            DecodeCommand.report(error, asJSON: asJSON)
            return 1
        case .failure(let error):
            Output.error("\(context.toolName) get: " + networkFailure(error, url: url, timeout: timeout))
            return 1
        }
        return try DecodeCommand.decodeAndPrint(
            response, parsed, context, command: name, configured: configured, imageOutput: imageOutput,
            pointer: pointer)
    }

    /// `text` as a URL, when it is an absolute `http` or `https` URL with a host.
    static func httpURL(_ text: String) throws -> URL {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased() else {
            throw CommandLineArguments.UsageError(
                description: "'\(text)' is not a URL; give an absolute http or https URL, such as https://example.com/")
        }
        guard scheme == "http" || scheme == "https" else {
            throw CommandLineArguments.UsageError(
                description: "get fetches only http and https URLs, not \(scheme): '\(text)'")
        }
        guard let host = url.host, !host.isEmpty else {
            throw CommandLineArguments.UsageError(description: "'\(text)' has no host")
        }
        return url
    }

    /// The seconds of `--timeout`: a whole number from 1 (FoundationNetworking counts timeouts in whole seconds,
    /// and takes one under a second as none), `defaultSeconds` when it is absent.
    static func timeoutOption(
        _ parsed: CommandLineArguments, default defaultSeconds: Int = defaultTimeout
    ) throws
        -> Int
    {
        guard let text = parsed.value("--timeout") else { return defaultSeconds }
        guard let seconds = Int(text), seconds >= 1 else {
            throw CommandLineArguments.UsageError(
                description: "--timeout takes a whole number of seconds from 1, not '\(text)'")
        }
        return seconds
    }

    /// The body size limit of the tool's registry (the default limit when the registry sets none: the tool reads at
    /// most a limit).
    static func toolLimit(_ context: CommandContext) -> BodySizeLimit {
        context.registry.bodySizeLimit ?? .default
    }

    /// Whether `name` is an HTTP field name or method (an RFC 9110 token: visible ASCII without delimiters).
    static func isToken(_ name: String) -> Bool {
        !name.isEmpty
            && name.utf8.allSatisfy { byte in
                byte > 0x20 && byte < 0x7F && !#"()<>@,;:\"/[]?={}"#.utf8.contains(byte)
            }
    }

    /// Sets the method, the `--header` fields and `Accept` on `request`.
    static func setHeaderFields(
        of request: inout URLRequest, _ parsed: CommandLineArguments, _ context: CommandContext
    ) throws {
        if let method = parsed.value("--method") {
            guard isToken(method) else {
                throw CommandLineArguments.UsageError(description: "--method '\(method)' is not a method name")
            }
            request.httpMethod = method
        }
        var named: Set<String> = []
        for field in parsed.values("--header") {
            guard let colon = field.firstIndex(of: ":") else {
                throw CommandLineArguments.UsageError(
                    description: "--header takes 'Name: value', with a colon after the name, not '\(field)'")
            }
            let name = String(field[..<colon])
            let value = field[field.index(after: colon)...].trimmingCharacters(in: CharacterSet(charactersIn: " \t"))
            guard isToken(name) else {
                throw CommandLineArguments.UsageError(description: "--header: '\(name)' is not a field name")
            }
            guard !value.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\0" }) else {
                throw CommandLineArguments.UsageError(
                    description: "--header: the value of \(name) has a line break or NUL, which no field value may")
            }
            if named.insert(name.lowercased()).inserted {
                request.setValue(value, forHTTPHeaderField: name)
            } else {
                request.addValue(value, forHTTPHeaderField: name)
            }
        }
        if let accept = parsed.value("--accept") {
            guard !named.contains("accept") else {
                throw CommandLineArguments.UsageError(
                    description: "give Accept once: --accept or --header 'Accept: ...'")
            }
            guard !AcceptHeader(parsing: accept).elements.isEmpty else {
                throw CommandLineArguments.UsageError(description: "--accept '\(accept)' names no media range")
            }
            request.setValue(accept, forHTTPHeaderField: "Accept")
        } else if !named.contains("accept") {
            let accept = context.registry.acceptHeader
            if !accept.elements.isEmpty { request.setValue(accept.description, forHTTPHeaderField: "Accept") }
        }
    }

    /// Sets the body of `--data` or `--data-json` (and its `Content-Type`, and `POST` unless `--method` says
    /// otherwise) on `request`; a body that cannot be read or written is printed and returned as a failure.
    static func setBody(
        of request: inout URLRequest, _ parsed: CommandLineArguments, _ context: CommandContext
    ) throws -> Result<Void, DecodeCommand.ReportedFailure> {
        let data = parsed.value("--data")
        let json = parsed.value("--data-json")
        let contentType = parsed.value("--data-content-type")
        let headerContentType = request.value(forHTTPHeaderField: "Content-Type")
        guard let path = data ?? json else {
            if contentType != nil {
                throw CommandLineArguments.UsageError(description: "--data-content-type needs --data or --data-json")
            }
            return .success(())
        }
        if data != nil && json != nil {
            throw CommandLineArguments.UsageError(description: "give one body: --data FILE or --data-json FILE")
        }
        if contentType != nil && headerContentType != nil {
            throw CommandLineArguments.UsageError(
                description: "give the body's media type once: --data-content-type or --header 'Content-Type: ...'")
        }
        let mediaType: MediaType?
        do {
            mediaType = try contentType.map { try MediaType(parsing: $0) }
        } catch {
            throw CommandLineArguments.UsageError(description: "--data-content-type: \(error)")
        }
        let method = request.httpMethod ?? "GET"
        if parsed.value("--method") == nil {
            request.httpMethod = "POST"
        } else if ["GET", "HEAD"].contains(method.uppercased()) {
            // URLSession refuses a GET with a body (FoundationNetworking: "GET method must not have a body").
            throw CommandLineArguments.UsageError(
                description: "a \(method.uppercased()) request carries no body here (--data, --data-json); leave out "
                    + "--method to send it with POST, or give another method")
        }
        let limit = toolLimit(context).maxBytes
        let (input, isComplete) = try Output.read(path, atMost: limit)
        guard isComplete else {
            Output.error(
                "\(context.toolName) get: \(path == "-" ? "standard input" : path) holds more than \(limit) bytes, "
                    + "the tool's body size limit; decant stopped reading there and sent nothing.")
            return .failure(DecodeCommand.ReportedFailure())
        }
        if data != nil {
            guard let mediaType else {
                guard headerContentType != nil else {
                    throw CommandLineArguments.UsageError(
                        description: "--data needs the body's media type: --data-content-type T, or --header "
                            + "'Content-Type: T'")
                }
                request.httpBody = input
                return .success(())
            }
            request.setValue(mediaType.description, forHTTPHeaderField: "Content-Type")
            request.httpBody = input
            return .success(())
        }
        if headerContentType != nil {
            throw CommandLineArguments.UsageError(
                description: "--data-json writes its own Content-Type; give the media type with --data-content-type")
        }
        let value: JSONValue
        do {
            value = try JSONParser().parse(input)
        } catch {
            Output.error(
                "\(context.toolName) get: the --data-json input is not JSON, so it is no canonical form of a value: "
                    + error.description)
            return .failure(DecodeCommand.ReportedFailure())
        }
        do {
            let written = try context.registry.encode(canonicalForm: value, as: mediaType ?? "application/json")
            for field in written.body.headerFields { request.setValue(field.value, forHTTPHeaderField: field.name) }
            request.httpBody = written.body.body
        } catch {
            Output.error(error.description)
            return .failure(DecodeCommand.ReportedFailure())
        }
        return .success(())
    }

    /// Loads `request` whole on a session of its own (ephemeral: no cookies or cache kept), reading the body up to
    /// `limit`, and waits for it.
    ///
    /// - Returns: The response, a ``SerializationError`` when the head arrived but the body did not
    ///   (`truncatedBody`, `bodyTooLarge`), or the session's error when no response arrived.
    static func fetch(_ request: URLRequest, timeout: Int, limit: BodySizeLimit) -> Result<Response, any Error> {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = TimeInterval(timeout)
        configuration.timeoutIntervalForResource = TimeInterval(timeout)
        let session = URLSession(configuration: configuration)
        defer { session.finishTasksAndInvalidate() }
        let outcome = Locked<Result<Response, any Error>?>(nil)
        let finished = DispatchSemaphore(value: 0)
        Task {
            do {
                let response = try await session.decantResponse(for: request, bodySizeLimit: limit)
                outcome.withLock { $0 = .success(response) }
            } catch {
                outcome.withLock { $0 = .failure(error) }
            }
            finished.signal()
        }
        finished.wait()
        return outcome.withLock { $0 } ?? .failure(CancellationError())
    }

    /// The message for a request that got no response: what happened, in words, and the session's own error.
    static func networkFailure(_ error: any Error, url: URL, timeout: Int) -> String {
        let target = url.absoluteString
        guard let urlError = error as? URLError else {
            return "cannot fetch \(target): \(error)"
        }
        let reason: String
        switch urlError.code {
        case .cannotConnectToHost:
            reason = "could not connect to the server (the connection was refused: is a server listening there?)"
        case .cannotFindHost, .dnsLookupFailed:
            reason = "the host name could not be resolved (DNS)"
        case .timedOut:
            reason =
                "no complete response within \(timeout) second\(timeout == 1 ? "" : "s") (raise it with --timeout S)"
        case .networkConnectionLost:
            reason = "the connection was lost before a response arrived"
        case .notConnectedToInternet:
            reason = "this machine is not connected to a network"
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
            .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot, .clientCertificateRejected,
            .clientCertificateRequired:
            reason = "the TLS connection failed"
        case .httpTooManyRedirects, .redirectToNonExistentLocation:
            reason = "the redirects did not end at a response"
        default:
            reason = "the request failed"
        }
        return "cannot fetch \(target): \(reason) (URLError \(urlError.errorCode): \(urlError.localizedDescription))"
    }
}
