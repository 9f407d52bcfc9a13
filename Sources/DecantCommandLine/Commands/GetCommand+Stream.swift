import Decant
import DecantConformance
import Dispatch
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `decant get --stream URL`: the records of a response printed one JSON line each as they arrive; an event stream
/// read with reconnections through the tool's ``EventSourceOpener``.
extension GetCommand {
    /// The exit statuses of `--stream` beyond 0 (the stream ended as the server said), 1 (failure) and 2 (usage).
    enum StreamStatus {
        /// The event stream gave up: the reconnection limit was reached, or a reconnection was answered with
        /// something other than an event stream.
        static let gaveUp: Int32 = 3
        /// Interrupted by SIGINT (Ctrl-C): 128 + 2, as shells report a process that SIGINT ended.
        static let interrupted: Int32 = 130
    }

    /// The media type `--stream` asks for unless `--accept` or a `--header` says otherwise, and reads with an event
    /// source (WHATWG HTML §9.2: server-sent events).
    static let eventStreamType: MediaType = "text/event-stream"

    /// The seconds `--timeout` allows with `--stream` when it is not given: how long one connection may stay silent.
    static let defaultStreamTimeout = 300

    /// The options of `get` that print one decoded value, which `--stream` does not print.
    static let singleValueOptions = [
        "--explain", "--pointer", "--sniff", "--serializer", "--config", "--chain", "--png", "--rgba", "--frame",
        "--preview", "--no-preview", "--apply-orientation",
    ]

    /// The options that only `--stream` reads.
    static let streamOnlyOptions = ["--max-reconnects", "--retry", "--last-event-id"]

    /// Runs `get --stream`: the request as `get` builds it (`Accept: text/event-stream` by default), then the event
    /// source when the request accepts an event stream and the tool has one, or else one connection read as records.
    static func runStream(_ parsed: CommandLineArguments, url: URL, _ context: CommandContext) throws -> Int32 {
        for option in singleValueOptions where parsed.has(option) || !parsed.values(option).isEmpty {
            throw CommandLineArguments.UsageError(description: "--stream does not go with \(option)")
        }
        let timeout = try timeoutOption(parsed, default: defaultStreamTimeout)
        let maxReconnects = try wholeNumberOption(parsed, "--max-reconnects")
        let retry = try wholeNumberOption(parsed, "--retry")
        let lastEventID = parsed.value("--last-event-id") ?? ""
        guard !lastEventID.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\0" }) else {
            throw CommandLineArguments.UsageError(
                description: "--last-event-id has a line break or NUL, which no event ID sent as a field may")
        }
        var request = URLRequest(url: url, timeoutInterval: TimeInterval(timeout))
        try setHeaderFields(of: &request, parsed, context)
        let acceptGiven =
            parsed.value("--accept") != nil
            || parsed.values("--header").contains { field in
                field.split(separator: ":", maxSplits: 1).first?.lowercased() == "accept"
            }
        if !acceptGiven { request.setValue(eventStreamType.description, forHTTPHeaderField: "Accept") }
        switch try setBody(of: &request, parsed, context) {
        case .success: break
        case .failure: return 1
        }
        let configuration = URLSessionConfiguration.ephemeral
        // Per connection: the longest silence (no head, no byte of the body), not the length of the stream.
        configuration.timeoutIntervalForRequest = TimeInterval(timeout)
        let session = URLSession(configuration: configuration)
        defer { session.finishTasksAndInvalidate() }
        let run = StreamRun(
            context: context, url: url, timeout: timeout, asJSON: parsed.has("--json"), maxReconnects: maxReconnects)
        let accept = AcceptHeader(parsing: request.value(forHTTPHeaderField: "Accept") ?? "")
        if let opener = context.eventSource, accept.quality(of: eventStreamType) > 0 {
            let eventSourceRequest = EventSourceRequest(
                request: request, session: session, registry: context.registry, maxReconnects: maxReconnects,
                reconnectionTime: retry.map { .milliseconds($0) }, lastEventID: lastEventID,
                onEvent: { [run] event in try run.print(event) }, onProgress: { [run] in run.observe($0) })
            return run.wait { try await run.readEvents(with: opener, eventSourceRequest) }
        }
        if !lastEventID.isEmpty { request.setValue(lastEventID, forHTTPHeaderField: "Last-Event-ID") }
        let records = request
        return run.wait { try await run.readRecords(of: records, session: session) }
    }

    /// The value of `option`, a whole number from 0, or `nil` when it is absent.
    static func wholeNumberOption(_ parsed: CommandLineArguments, _ option: String) throws -> Int? {
        guard let text = parsed.value(option) else { return nil }
        guard let number = Int(text), number >= 0 else {
            throw CommandLineArguments.UsageError(description: "\(option) takes a whole number from 0, not '\(text)'")
        }
        return number
    }
}

/// One `get --stream` run: prints records, follows the event source's progress, and turns how the stream ended into
/// the exit status and the one line on standard error.
final class StreamRun: Sendable {
    private struct State {
        var task: Task<Int32, Never>?
        var cancelled = false
        var interrupted = false
        var progress = EventSourceProgress(connections: 0, isOpen: false)
        var opened = false
        /// The error of a first request that got no response: the run ends with it instead of reconnecting.
        var firstFailure: (any Error)?
        var records = 0
    }

    private let context: CommandContext
    private let url: URL
    private let timeout: Int
    private let asJSON: Bool
    private let maxReconnects: Int?
    private let capture = Output.capture
    private let state = Locked(State())

    init(context: CommandContext, url: URL, timeout: Int, asJSON: Bool, maxReconnects: Int?) {
        self.context = context
        self.url = url
        self.timeout = timeout
        self.asJSON = asJSON
        self.maxReconnects = maxReconnects
    }

    /// Runs `body` in a task and waits for its status on this thread; SIGINT cancels it (unless output is captured,
    /// where the process's signals are not the tool's).
    func wait(_ body: @escaping @Sendable () async throws -> Int32) -> Int32 {
        let finished = DispatchSemaphore(value: 0)
        let outcome = Locked<Int32>(1)
        var signalSource: (any DispatchSourceSignal)?
        if capture == nil {
            signal(SIGINT, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
            source.setEventHandler { [self] in
                state.withLock { $0.interrupted = true }
                cancel()
            }
            source.resume()
            signalSource = source
        }
        let capture = self.capture
        let task = Task { [self] () -> Int32 in
            let status = await Output.$capture.withValue(capture) { () async -> Int32 in
                do {
                    return try await body()
                } catch {
                    return ending(error)
                }
            }
            outcome.withLock { $0 = status }
            finished.signal()
            return status
        }
        let cancelNow = state.withLock { state -> Bool in
            state.task = task
            return state.cancelled
        }
        if cancelNow { task.cancel() }
        finished.wait()
        if let signalSource {
            signalSource.cancel()
            signal(SIGINT, SIG_DFL)
        }
        return outcome.withLock { $0 }
    }

    /// Cancels the run's task (now, or as soon as it exists).
    private func cancel() {
        let task = state.withLock { state -> Task<Int32, Never>? in
            state.cancelled = true
            return state.task
        }
        task?.cancel()
    }

    /// Prints the canonical form of a record as one JSON line, and writes it out at once.
    func print(_ record: any Sendable) throws {
        let canonical = try CanonicalForm.of(record)
        var line: [UInt8] = []
        canonical.appendJSON(to: &line)
        Output.$capture.withValue(capture) {
            Output.line(bytes: line)
            Output.flush()
        }
        state.withLock { $0.records += 1 }
    }

    /// Keeps the event source's progress; ends the run when the first request got no response at all (a wrong
    /// host or port is reported as `get` reports it, not retried).
    func observe(_ progress: EventSourceProgress) {
        let firstRequestFailed = state.withLock { state -> Bool in
            state.progress = progress
            state.opened = state.opened || progress.isOpen
            guard !state.opened, progress.connections == 1, !progress.isOpen, let failure = progress.lastFailure,
                state.firstFailure == nil
            else { return false }
            state.firstFailure = failure
            return true
        }
        if firstRequestFailed { cancel() }
    }

    /// Reads an event stream through `opener`: 0 when it ended with a 204.
    func readEvents(with opener: EventSourceOpener, _ request: EventSourceRequest) async throws -> Int32 {
        try await opener.run(request)
        let progress = state.withLock { $0.progress }
        let which = progress.reconnections == 0 ? "the request" : "reconnection \(progress.reconnections)"
        end("the stream ended: the server answered \(which) with 204 No Content")
        return 0
    }

    /// Reads one response's records from one connection: 0 when its body ended.
    func readRecords(of request: URLRequest, session: URLSession) async throws -> Int32 {
        let (head, chunks) = try await session.decantStream(for: request)
        if head.status == 204 {
            end("the stream ended: the server answered 204 No Content")
            return 0
        }
        if context.eventSource == nil, let type = head.contentType, MediaRange(GetCommand.eventStreamType).matches(type)
        {
            Output.error(
                "\(context.toolName) get: the response is an event stream (\(type.essence)). --stream reads event "
                    + "streams with reconnections, as a browser's EventSource does, through the DecantEventSource "
                    + "plugin, and this tool runs without it (--no-plugins, or a tool built without the plugin). "
                    + "Run it without --no-plugins, or read the body once with `\(context.toolName) get URL`.")
            return 1
        }
        let stream = try await context.registry.records(head, body: chunks, as: (any Sendable).self)
        for try await record in stream { try print(record) }
        end("the stream ended: the body is complete")
        return 0
    }

    /// The status and message of a stream that ended with `error`.
    private func ending(_ error: any Error) -> Int32 {
        let (progress, interrupted, firstFailure) = state.withLock { ($0.progress, $0.interrupted, $0.firstFailure) }
        let name = "\(context.toolName) get"
        if let firstFailure {
            Output.error("\(name): " + GetCommand.networkFailure(firstFailure, url: url, timeout: timeout))
            return 1
        }
        if interrupted || error is CancellationError {
            end("interrupted (SIGINT)")
            return GetCommand.StreamStatus.interrupted
        }
        guard let error = error as? SerializationError else {
            Output.error("\(name): " + GetCommand.networkFailure(error, url: url, timeout: timeout))
            return 1
        }
        let afterReconnection = progress.reconnections > 0
        switch error.code {
        // The reconnection limit is met between connections, after one that ended without an event; an event over its
        // size limit (the same code) ends an open connection.
        case .limitExceeded where !progress.isOpen && progress.failuresInARow > 0:
            let limit = maxReconnects.map(String.init) ?? "the default, 10"
            let cause: String
            switch error.underlying {
            case let failure as SerializationError: cause = "the last one: " + failure.message
            case let failure?: cause = "the last one: \(failure.localizedDescription)"
            case nil: cause = "the last one ended cleanly"
            }
            end(
                "the stream gave up: \(progress.failuresInARow) connections in a row ended without an event, over "
                    + "--max-reconnects \(limit); \(cause)")
            return GetCommand.StreamStatus.gaveUp
        case .unacceptableStatusCode where afterReconnection, .unacceptableMediaType where afterReconnection:
            let answer =
                error.code == .unacceptableMediaType
                ? (error.mediaType.map { "\($0.essence), not an event stream" } ?? "no Content-Type")
                : "the status \(error.status.map(String.init) ?? "?"), not 200"
            end(
                "the stream ended: the server answered reconnection \(progress.reconnections) with \(answer), so "
                    + "it is not retried")
            return GetCommand.StreamStatus.gaveUp
        default:
            DecodeCommand.report(error, asJSON: asJSON)
            if error.code == .unacceptableMediaType, let type = error.mediaType,
                context.registry.acceptHeader(for: .records).quality(of: type) > 0
            {
                Output.error(
                    "\(name): \(type.essence) is not an event stream, but the tool reads it as records: ask for it "
                        + "with --accept \(type.essence) to print its records from one connection.")
            }
            return 1
        }
    }

    /// Writes the one line that says why the stream ended, with the counts.
    private func end(_ reason: String) {
        let (progress, records, usedEventSource) = state.withLock {
            ($0.progress, $0.records, $0.progress.connections > 0)
        }
        var counts = "\(records) record\(records == 1 ? "" : "s")"
        if usedEventSource {
            counts =
                "\(records) event\(records == 1 ? "" : "s"), \(progress.reconnections) "
                + "reconnection\(progress.reconnections == 1 ? "" : "s")"
            if !progress.lastEventID.isEmpty {
                counts += ", last event ID '\(progress.lastEventID)'"
            }
        }
        Output.$capture.withValue(capture) { Output.error("\(context.toolName) get: \(reason) (\(counts)).") }
    }
}
