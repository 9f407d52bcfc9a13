import Decant
import DecantCommandLine
import DecantTestSupport
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `decant get --stream` in process (issue #36 item 2): what the tool hands its ``EventSourceOpener`` and prints of
/// what the opener delivers, and the message of a tool without one. The reconnections themselves are the
/// `DecantEventSource` plugin's, tested end to end through the `decant` executable in ``GetStreamToolTests``.
@Suite struct GetStreamCommandTests {
    /// What a stub opener was asked for.
    final class Asked: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: [EventSourceRequest] = []

        func record(_ request: EventSourceRequest) { lock.withLock { stored.append(request) } }

        var requests: [EventSourceRequest] { lock.withLock { stored } }
    }

    /// An opener that records its request, reports an open connection, delivers `events` (JSON texts) and returns,
    /// as an event source does after a 204.
    static func stub(_ asked: Asked, events: [String]) -> EventSourceOpener {
        EventSourceOpener { request in
            asked.record(request)
            request.report(EventSourceProgress(connections: 1, isOpen: true))
            for (index, text) in events.enumerated() {
                try request.deliver(try JSONParser().parse(Data(text.utf8)))
                request.report(
                    EventSourceProgress(connections: 1, events: index + 1, lastEventID: "\(index)", isOpen: true))
            }
            request.report(EventSourceProgress(connections: 1, events: events.count, isOpen: false))
        }
    }

    @Test func theOpenerGetsTheRequestAndTheOptionsAndItsEventsArePrintedInOrder() async throws {
        let asked = Asked()
        let events = [#"{"data": "one", "n": 1}"#, #"[true, null, "Zoë"]"#, #""three""#]
        let tool = DecantTool(eventSource: Self.stub(asked, events: events))
        let outcome = await GetCommandTests.get(
            [
                "--stream", "--max-reconnects", "4", "--retry", "250", "--last-event-id", "41", "--timeout", "7",
                "--header", "Authorization: Bearer t", "http://127.0.0.1:1/events",
            ], tool: tool)
        #expect(outcome.status == 0, "\(outcome.standardError)")
        // Each printed line is the JSON value delivered: Foundation's JSONSerialization reads both the same.
        let lines = outcome.standardOutput.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == events.count)
        for (line, event) in zip(lines, events) {
            #expect(
                try GetCommandTests.jsonObject(Data(line.utf8)) == GetCommandTests.jsonObject(Data(event.utf8)))
        }
        #expect(outcome.standardError.contains("204 No Content"))
        #expect(outcome.standardError.split(separator: "\n").count == 1)
        let request = try #require(asked.requests.first)
        #expect(asked.requests.count == 1)
        #expect(request.request.url?.absoluteString == "http://127.0.0.1:1/events")
        #expect(request.request.value(forHTTPHeaderField: "Accept") == "text/event-stream")
        #expect(request.request.value(forHTTPHeaderField: "Authorization") == "Bearer t")
        #expect(request.maxReconnects == 4)
        #expect(request.reconnectionTime == .milliseconds(250))
        #expect(request.lastEventID == "41")
        #expect(request.session.configuration.timeoutIntervalForRequest == 7)
    }

    @Test func withoutOptionsTheEventSourceKeepsItsDefaults() async throws {
        let asked = Asked()
        let outcome = await GetCommandTests.get(
            ["--stream", "http://127.0.0.1:1/events"], tool: DecantTool(eventSource: Self.stub(asked, events: [])))
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let request = try #require(asked.requests.first)
        #expect(request.maxReconnects == nil)
        #expect(request.reconnectionTime == nil)
        #expect(request.lastEventID == "")
        #expect(request.request.value(forHTTPHeaderField: "Last-Event-ID") == nil)
    }

    /// A server that answers every request with an event stream, recording the requests.
    static func eventStreamServer(_ script: ScriptedResponses) throws -> LoopbackServer {
        try LoopbackServer(routes: ["/events": script.handler])
    }

    static func oneEvent() -> ScriptedResponses {
        ScriptedResponses([
            { connection in
                connection.writeChunkedHead(contentType: "text/event-stream")
                connection.writeChunk("id: 1\ndata: hello\n\n")
                connection.writeChunk("")
            }
        ])
    }

    @Test func withoutAnEventSourceAnEventStreamNeedsThePlugin() async throws {
        let script = Self.oneEvent()
        let server = try Self.eventStreamServer(script)
        defer { server.stop() }
        let outcome = await GetCommandTests.get(["--stream", server.url("/events").absoluteString])
        #expect(outcome.status == 1)
        #expect(outcome.standardOutputBytes.isEmpty)
        #expect(outcome.standardError.contains("through the DecantEventSource plugin"))
        #expect(outcome.standardError.contains("the response is an event stream (text/event-stream)"))
        // One request, asking for an event stream; no reconnection.
        #expect(script.values(of: "Accept") == ["text/event-stream"])
    }

    @Test func noPluginsLeavesTheEventSourceOut() async throws {
        let script = Self.oneEvent()
        let server = try Self.eventStreamServer(script)
        defer { server.stop() }
        let asked = Asked()
        let tool = DecantTool(registryWithoutPlugins: .standard, eventSource: Self.stub(asked, events: ["1"]))
        let outcome = await GetCommandTests.get(
            ["--no-plugins", "--stream", server.url("/events").absoluteString], tool: tool)
        #expect(outcome.status == 1)
        #expect(outcome.standardError.contains("DecantEventSource plugin"))
        #expect(asked.requests.isEmpty)
        #expect(script.requestCount == 1)
    }

    @Test func anAcceptWithoutEventStreamsReadsOneConnectionWithoutTheOpener() async throws {
        // The standard registry streams no JSON, so the one response read fails, but through the records path.
        let script = ScriptedResponses([
            { connection in
                connection.write(
                    "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close"
                        + "\r\n\r\n{}")
            }
        ])
        let server = try Self.eventStreamServer(script)
        defer { server.stop() }
        let asked = Asked()
        let outcome = await GetCommandTests.get(
            ["--stream", "--accept", "application/json", "--last-event-id", "9", server.url("/events").absoluteString],
            tool: DecantTool(eventSource: Self.stub(asked, events: [])))
        #expect(asked.requests.isEmpty)
        #expect(outcome.status == 1)
        #expect(outcome.standardError.contains("[noSerializer]"))
        #expect(script.values(of: "Accept") == ["application/json"])
        #expect(script.values(of: "Last-Event-ID") == ["9"])
    }

    @Test(arguments: [
        ["--stream", "--explain", "http://127.0.0.1:1/"], ["--stream", "--config", "c.json", "http://127.0.0.1:1/"],
        ["--stream", "--retry", "-1", "http://127.0.0.1:1/"], ["--stream", "--retry", "1.5", "http://127.0.0.1:1/"],
        ["--stream", "--max-reconnects", "many", "http://127.0.0.1:1/"],
        ["--max-reconnects", "3", "http://127.0.0.1:1/"], ["--retry", "10", "http://127.0.0.1:1/"],
        ["--last-event-id", "3", "http://127.0.0.1:1/"], ["--stream", "--timeout", "0", "http://127.0.0.1:1/"],
        ["--stream", "--last-event-id", "a\nb", "http://127.0.0.1:1/"],
    ])
    func streamUsageErrorsExitTwoWithoutARequest(_ arguments: [String]) async throws {
        let asked = Asked()
        let outcome = await GetCommandTests.get(arguments, tool: DecantTool(eventSource: Self.stub(asked, events: [])))
        #expect(outcome.status == 2, "\(outcome.standardError)")
        #expect(outcome.standardError.contains("Usage: decant get"))
        #expect(asked.requests.isEmpty)
    }

    @Test func theHelpDocumentsTheStreamOptionsAndExitStatuses() {
        let help = DecantTool().capture(["get", "--help"]).standardOutput
        for text in [
            "--stream", "--max-reconnects N", "--retry MS", "--last-event-id ID", "default 10",
            "3 when an event stream",
            "130 when interrupted", "decant get --stream",
        ] {
            #expect(help.contains(text), "\(text)")
        }
    }
}
