import Decant
import DecantEventSource
import DecantEventStream
import DecantTestSupport
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Handlers for a scripted event stream.
private typealias Handler = @Sendable (LoopbackServer.Connection) -> Void

/// A `text/event-stream` response whose body is `pieces`, one chunk each (30 ms apart), then either its end or a
/// dropped connection (no last chunk: the client sees a network error).
private func events(_ pieces: [String], drop: Bool = false) -> Handler {
    { connection in
        connection.writeChunkedHead(contentType: "text/event-stream")
        for piece in pieces {
            connection.writeChunk(piece)
            connection.pause(milliseconds: 30)
        }
        if !drop { connection.writeChunk("") }
    }
}

/// A response with `status`, `contentType` and `body`.
private func response(_ status: String, contentType: String? = nil, body: String = "") -> Handler {
    { connection in
        let type = contentType.map { "Content-Type: \($0)\r\n" } ?? ""
        connection.write(
            "HTTP/1.1 \(status)\r\n\(type)Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n" + body)
    }
}

private let noContent = response("204 No Content")

/// Collects what an event source delivers, and how it ends.
private func collect(_ source: EventSource) async -> (events: [ServerSentEvent], error: (any Error)?) {
    var events: [ServerSentEvent] = []
    do {
        for try await event in source { events.append(event) }
        return (events, nil)
    } catch {
        return (events, error)
    }
}

/// A configuration for tests: short waits, no jitter.
private func configuration(
    reconnectionTime: Duration = .milliseconds(20), maxReconnects: Int? = 10, lastEventID: String = "",
    onStateChange: (@Sendable (EventSource.State) -> Void)? = nil
) -> EventSource.Configuration {
    EventSource.Configuration(
        defaultReconnectionTime: reconnectionTime, maxBackoff: .milliseconds(200), jitter: 0,
        maxReconnects: maxReconnects, lastEventID: lastEventID, onStateChange: onStateChange)
}

/// The reconnecting event stream against a server on 127.0.0.1 that drops connections, ends them, and answers with
/// what the WHATWG `EventSource` processing model stops or fails on. The expected events and headers follow the
/// standard's rules (HTML §9.2.3–9.2.6), worked out by hand for each script.
@Suite(.serialized) struct EventSourceReconnectionTests {
    /// The connection drops in the middle of the second event: the first is delivered, the cut one is not (its `id`
    /// neither); the client reconnects with `Last-Event-ID: 1`, and events without `id` then carry `1`; after a clean
    /// end it reconnects with the ID of the last event; a 204 ends the stream without an error.
    @Test func aDroppedConnectionResumesFromTheLastEventID() async throws {
        let script = ScriptedResponses([
            events(["retry: 20\nid: 1\ndata: one\n\n", "id: 2\ndata: par"], drop: true),
            events(["data: two\n\n", "id: 3\nevent: update\ndata: three\ndata: lines\n\n"]),
            noContent,
        ])
        let server = try LoopbackServer(routes: ["/events": script.handler])
        defer { server.stop() }
        let source = URLSession.shared.eventSource(
            for: URLRequest(url: server.url("/events")), configuration: configuration(reconnectionTime: .seconds(30)))
        let (received, error) = await collect(source)
        #expect(error == nil)
        #expect(
            received == [
                ServerSentEvent(data: "one", lastEventID: "1", retry: 20),
                ServerSentEvent(data: "two", lastEventID: "1"),
                ServerSentEvent(type: "update", data: "three\nlines", lastEventID: "3"),
            ])
        #expect(script.requestCount == 3)
        #expect(script.values(of: "Last-Event-ID") == [nil, "1", "3"])
        #expect(script.values(of: "Accept") == ["text/event-stream", "text/event-stream", "text/event-stream"])
        let state = source.state
        #expect(state.readyState == .closed)
        #expect(state.connections == 3)
        #expect(state.reconnections == 2)
        #expect(state.events == 3)
        #expect(state.lastEventID == "3")
        #expect(state.reconnectionTime == .milliseconds(20))
    }

    /// An `id` alone sets the last event ID (an empty line commits it, though nothing is dispatched); a `retry` in an
    /// event cut off by the drop still sets the reconnection time; the cut event's own `id` is not committed.
    @Test func idAndRetryFieldsOutsideDispatchedEvents() async throws {
        let script = ScriptedResponses([
            events(["id: 7\n\n", "retry: 10\ndata: lost\nid: 8\n"], drop: true),
            noContent,
        ])
        let server = try LoopbackServer(routes: ["/events": script.handler])
        defer { server.stop() }
        // Without the retry field, the reconnection would wait 30 s.
        let source = URLSession.shared.eventSource(
            for: URLRequest(url: server.url("/events")), configuration: configuration(reconnectionTime: .seconds(30)))
        let (received, error) = await collect(source)
        #expect(error == nil)
        #expect(received.isEmpty)
        #expect(script.values(of: "Last-Event-ID") == [nil, "7"])
        #expect(source.state.reconnectionTime == .milliseconds(10))
        #expect(source.state.failuresInARow == 1)
        #expect(source.state.lastFailure is SerializationError)
        #expect((source.state.lastFailure as? SerializationError)?.code == .truncatedBody)
    }

    /// A 204 first: no event, no error, one request; the configured last event ID is sent on the first request.
    @Test func noContentStopsAtOnce() async throws {
        let script = ScriptedResponses([noContent])
        let server = try LoopbackServer(routes: ["/events": script.handler])
        defer { server.stop() }
        let source = URLSession.shared.eventSource(
            for: URLRequest(url: server.url("/events")), configuration: configuration(lastEventID: "42"))
        let (received, error) = await collect(source)
        #expect(error == nil)
        #expect(received.isEmpty)
        #expect(script.requestCount == 1)
        #expect(script.values(of: "Last-Event-ID") == ["42"])
        #expect(source.state.readyState == .closed)
        #expect(source.state.reconnections == 0)
    }

    /// The request's own `Last-Event-ID` and `Accept` are kept for the first request.
    @Test func theRequestsOwnFieldsAreKept() async throws {
        let script = ScriptedResponses([noContent])
        let server = try LoopbackServer(routes: ["/events": script.handler])
        defer { server.stop() }
        var request = URLRequest(url: server.url("/events"))
        request.setValue("abc", forHTTPHeaderField: "Last-Event-ID")
        request.setValue("text/event-stream, */*;q=0.1", forHTTPHeaderField: "Accept")
        _ = await collect(URLSession.shared.eventSource(for: request, configuration: configuration()))
        #expect(script.values(of: "Last-Event-ID") == ["abc"])
        #expect(script.values(of: "Accept") == ["text/event-stream, */*;q=0.1"])
    }

    /// A 200 that is not `text/event-stream` fails the connection: no reconnection, the status and body in the error.
    @Test(arguments: ["application/json", "text/plain; charset=utf-8", nil] as [String?])
    func aWrongMediaTypeFails(contentType: String?) async throws {
        let body = "{\"not\": \"events\"}"
        let script = ScriptedResponses([response("200 OK", contentType: contentType, body: body)])
        let server = try LoopbackServer(routes: ["/events": script.handler])
        defer { server.stop() }
        let source = URLSession.shared.eventSource(
            for: URLRequest(url: server.url("/events")), configuration: configuration())
        let (received, error) = await collect(source)
        #expect(received.isEmpty)
        let failure = try #require(error as? SerializationError)
        #expect(failure.code == .unacceptableMediaType)
        #expect(failure.status == 200)
        #expect(failure.response?.body == Data(body.utf8))
        #expect(script.requestCount == 1)
        #expect(source.state.readyState == .closed)
    }

    /// A status other than 200 and 204 fails the connection, even after events: the body is decoded into the error.
    @Test(arguments: ["503 Service Unavailable", "404 Not Found", "201 Created"])
    func anUnacceptableStatusFails(status: String) async throws {
        let body = "{\"error\": \"busy\"}"
        let script = ScriptedResponses([
            events(["id: 1\ndata: first\n\n"]),
            response(status, contentType: "application/json", body: body),
        ])
        let server = try LoopbackServer(routes: ["/events": script.handler])
        defer { server.stop() }
        let source = URLSession.shared.eventSource(
            for: URLRequest(url: server.url("/events")), configuration: configuration())
        let (received, error) = await collect(source)
        #expect(received == [ServerSentEvent(data: "first", lastEventID: "1")])
        let failure = try #require(error as? SerializationError)
        #expect(failure.code == .unacceptableStatusCode)
        #expect(failure.status == Int(status.prefix(3)))
        #expect(failure.response?.body == Data(body.utf8))
        #expect((failure.errorValue as? JSONValue) == ["error": "busy"])
        #expect(script.requestCount == 2)
        #expect(script.values(of: "Last-Event-ID") == [nil, "1"])
    }

    /// A server that keeps ending connections without an event: after `maxReconnects` reconnections the stream
    /// gives up with an error naming the limit, the server having seen 1 + maxReconnects requests.
    @Test(arguments: [0, 1, 3])
    func theReconnectionLimitEndsTheStream(limit: Int) async throws {
        let script = ScriptedResponses([events([": nothing to say\n\n", "data: cut"], drop: true)])
        let server = try LoopbackServer(routes: ["/events": script.handler])
        defer { server.stop() }
        let source = URLSession.shared.eventSource(
            for: URLRequest(url: server.url("/events")),
            configuration: configuration(reconnectionTime: .milliseconds(10), maxReconnects: limit))
        let (received, error) = await collect(source)
        #expect(received.isEmpty)
        let failure = try #require(error as? SerializationError)
        #expect(failure.code == .limitExceeded)
        #expect(failure.message.contains("maxReconnects"))
        #expect((failure.underlying as? SerializationError)?.code == .truncatedBody)
        #expect(script.requestCount == limit + 1)
        #expect(source.state.reconnections == limit)
        #expect(source.state.failuresInARow == limit + 1)
        #expect(source.state.readyState == .closed)
    }

    /// Nothing listens on the port: every connection fails with a network error, which is retried up to the limit.
    @Test func networkErrorsAreRetried() async throws {
        let refused = try RefusedPort()
        defer { refused.close() }
        let url = refused.url("/events")
        let source = URLSession.shared.eventSource(
            for: URLRequest(url: url),
            configuration: configuration(reconnectionTime: .milliseconds(10), maxReconnects: 2))
        let (received, error) = await collect(source)
        #expect(received.isEmpty)
        let failure = try #require(error as? SerializationError)
        #expect(failure.code == .limitExceeded)
        #expect(failure.underlying is URLError)
        #expect(source.state.connections == 3)
    }

    /// The backoff: connections without an event in a row wait r, then 2r; an event resets it, so the next wait is r
    /// again (no jitter here, so the waits are exact).
    @Test func anEventResetsTheBackoff() async throws {
        let script = ScriptedResponses([
            events(["retry: 10\n\n", ": no event\n"], drop: true),
            events([": still nothing\n\n"]),
            events(["data: finally\n\n", "data: cu"], drop: true),
            noContent,
        ])
        let server = try LoopbackServer(routes: ["/events": script.handler])
        defer { server.stop() }
        let delays = Recorder<Duration>()
        let source = URLSession.shared.eventSource(
            for: URLRequest(url: server.url("/events")),
            configuration: configuration(reconnectionTime: .seconds(30)) { state in
                if let delay = state.nextDelay { delays.append(delay) }
            })
        let (received, error) = await collect(source)
        #expect(error == nil)
        #expect(received == [ServerSentEvent(data: "finally", retry: nil)])
        #expect(delays.values == [.milliseconds(10), .milliseconds(20), .milliseconds(10)])
        #expect(source.state.failuresInARow == 0)
        #expect(source.state.reconnections == 3)
    }

    /// Cancelling the consuming task while it waits to reconnect ends it at once (the wait is 10 minutes).
    @Test func cancellationEndsTheWait() async throws {
        let script = ScriptedResponses([events(["data: cut"], drop: true)])
        let server = try LoopbackServer(routes: ["/events": script.handler])
        defer { server.stop() }
        let (waiting, signal) = AsyncStream<Void>.makeStream()
        let source = URLSession.shared.eventSource(
            for: URLRequest(url: server.url("/events")),
            configuration: configuration(reconnectionTime: .seconds(600)) { state in
                if state.nextDelay != nil { signal.yield() }
            })
        let task = Task { await collect(source) }
        for await _ in waiting { break }
        task.cancel()
        let (received, error) = await task.value
        #expect(received.isEmpty)
        #expect(error is CancellationError)
        #expect(script.requestCount == 1)
        #expect(source.state.readyState == .closed)
    }

    /// Cancelling the consuming task while it reads an open stream ends it at once, and the request with it.
    @Test func cancellationEndsTheConnection() async throws {
        let wentAway = Recorder<Bool>()
        let script = ScriptedResponses([
            { connection in
                connection.writeChunkedHead(contentType: "text/event-stream")
                connection.writeChunk("data: first\n\n")
                // Keep-alive comments until the client goes away (at most 20 s).
                for _ in 0..<1000 {
                    connection.pause(milliseconds: 20)
                    guard connection.writeChunk(": keep-alive\n") else { break }
                }
                wentAway.append(connection.clientWentAway)
            }
        ])
        let server = try LoopbackServer(routes: ["/events": script.handler])
        defer { server.stop() }
        let source = URLSession.shared.eventSource(
            for: URLRequest(url: server.url("/events")), configuration: configuration())
        let (first, signal) = AsyncStream<Void>.makeStream()
        let task = Task { () -> (events: [ServerSentEvent], error: (any Error)?) in
            var events: [ServerSentEvent] = []
            do {
                for try await event in source {
                    events.append(event)
                    signal.yield()
                }
                return (events, nil)
            } catch {
                return (events, error)
            }
        }
        for await _ in first { break }
        task.cancel()
        let (received, error) = await task.value
        #expect(received == [ServerSentEvent(data: "first")])
        #expect(error is CancellationError)
        #expect(script.requestCount == 1)
        // The server notices that the client went away.
        while wentAway.values.isEmpty { try await Task.sleep(for: .milliseconds(20)) }
        #expect(wentAway.values == [true])
    }
}

/// Values appended from any thread.
private final class Recorder<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [Value] = []

    func append(_ value: Value) { lock.withLock { stored.append(value) } }

    var values: [Value] { lock.withLock { stored } }
}
