import DecantTestSupport
import Foundation
import Testing

/// `decant get --stream` end to end (issue #36 item 2): the built `decant` executable, whose `main.swift` gives the
/// tool `DecantEventSource`'s reconnections, against the loopback server. The expected events and header fields are
/// what the server's script writes and what a browser's EventSource sends for it (WHATWG HTML §9.2), never the tool's
/// output; the printed lines are read back with Foundation's JSONSerialization.
@Suite struct GetStreamToolTests {
    typealias Handler = @Sendable (LoopbackServer.Connection) -> Void

    struct Result {
        let status: Int32
        let stdout: String
        let stderr: String

        /// The standard output's lines, each read by JSONSerialization.
        func values() throws -> [NSObject] {
            try stdout.split(separator: "\n").map { line in
                try #require(
                    try JSONSerialization.jsonObject(with: Data(line.utf8), options: [.fragmentsAllowed]) as? NSObject)
            }
        }
    }

    /// The built `decant` executable, beside the test bundle.
    static let executable: URL? = {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent("decant")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory.deleteLastPathComponent()
        }
        return nil
    }()

    /// Starts `decant` with `arguments`, its output on pipes.
    static func start(_ arguments: [String]) throws -> (Process, output: Pipe, error: Pipe) {
        let executable = try #require(Self.executable, "the decant executable is built beside the tests")
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let output = Pipe()
        let error = Pipe()
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output
        process.standardError = error
        try process.run()
        return (process, output, error)
    }

    /// Runs `decant` to its end. A watchdog ends a tool that would wait for ever (generous: it only delays the
    /// failure of a tool that does not stop, on a busy machine).
    static func run(_ arguments: [String]) throws -> Result {
        let (process, output, error) = try start(arguments)
        let watchdog = DispatchWorkItem { if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + 120, execute: watchdog)
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        watchdog.cancel()
        return Result(
            status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
            stderr: String(decoding: err, as: UTF8.self))
    }

    /// A `text/event-stream` response whose body is `pieces`, one chunk each, then its end, or a dropped connection
    /// (no last chunk: the client sees the transfer fail).
    static func events(_ pieces: [String], drop: Bool = false) -> Handler {
        { connection in
            connection.writeChunkedHead(contentType: "text/event-stream")
            for piece in pieces {
                connection.writeChunk(piece)
                connection.pause(milliseconds: 20)
            }
            if !drop { connection.writeChunk("") }
        }
    }

    /// A response with `status`, `contentType` and `body`.
    static func response(_ status: String, contentType: String? = nil, body: String = "") -> Handler {
        { connection in
            let type = contentType.map { "Content-Type: \($0)\r\n" } ?? ""
            connection.write(
                "HTTP/1.1 \(status)\r\n\(type)Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n" + body)
        }
    }

    static let noContent = response("204 No Content")

    /// An event as the standard dispatches it: its type (`message` without an `event` field), its data and the last
    /// event ID in effect.
    static func event(_ data: String, type: String = "message", lastEventID: String = "") -> NSObject {
        ["type": type, "data": data, "lastEventID": lastEventID] as NSDictionary
    }

    @Test func eventsArePrintedInOrderAndA204EndsTheRunWithStatusZero() throws {
        let script = ScriptedResponses([
            Self.events([
                "retry: 10\n", ": comment\ndata: first\n\n", "event: update\nid: a1\ndata: second\ndata: line\n\n",
                "data: third\n\n",
            ]),
            Self.noContent,
        ])
        let server = try LoopbackServer(routes: ["/events": script.handler])
        defer { server.stop() }
        let result = try Self.run(["get", "--stream", server.url("/events").absoluteString])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            try result.values() == [
                Self.event("first"), Self.event("second\nline", type: "update", lastEventID: "a1"),
                Self.event("third", lastEventID: "a1"),
            ])
        // The end of the body is a dropped connection for an event source: it reconnected, and the 204 stopped it.
        #expect(script.requestCount == 2)
        #expect(script.values(of: "Accept") == ["text/event-stream", "text/event-stream"])
        #expect(script.values(of: "Last-Event-ID") == [nil, "a1"])
        #expect(result.stderr.hasSuffix("\n"))
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(result.stderr.contains("the server answered reconnection 1 with 204 No Content"))
        #expect(result.stderr.contains("3 events, 1 reconnection, last event ID 'a1'"))
    }

    @Test func aConnectionDroppedMidEventReconnectsWithTheLastEventID() throws {
        let script = ScriptedResponses([
            // Cut inside the third event: it and its id are discarded.
            Self.events(["retry: 10\nid: 1\ndata: a\n\n", "id: 2\ndata: b\n\n", "id: 3\ndata: c"], drop: true),
            Self.events(["data: d\n\n", "id: 4\ndata: e\n\n"], drop: true),
            Self.noContent,
        ])
        let server = try LoopbackServer(routes: ["/events": script.handler])
        defer { server.stop() }
        let result = try Self.run(["get", "--stream", server.url("/events").absoluteString])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            try result.values() == [
                Self.event("a", lastEventID: "1"), Self.event("b", lastEventID: "2"),
                Self.event("d", lastEventID: "2"), Self.event("e", lastEventID: "4"),
            ])
        #expect(script.values(of: "Last-Event-ID") == [nil, "2", "4"])
    }

    /// The server's `retry` replaces `--retry` (ten minutes here: a tool that waited it would meet the watchdog): the reconnection happens, with the headers asked.
    @Test func theServersRetryIsHonouredAndLastEventIDIsSentFirst() throws {
        let script = ScriptedResponses([
            Self.events(["retry: 10\ndata: x\n\n"]),
            Self.events(["data: y\n\n"], drop: true),
            Self.noContent,
        ])
        let server = try LoopbackServer(routes: ["/events": script.handler])
        defer { server.stop() }
        let result = try Self.run([
            "get", "--stream", "--retry", "600000", "--last-event-id", "41", "--header", "X-Client: t",
            server.url("/events").absoluteString,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try result.values() == [Self.event("x", lastEventID: "41"), Self.event("y", lastEventID: "41")])
        #expect(script.requestCount == 3)
        #expect(script.values(of: "Last-Event-ID") == ["41", "41", "41"])
        #expect(script.values(of: "X-Client") == ["t", "t", "t"])
    }

    @Test(arguments: [0, 2])
    func theReconnectionLimitEndsTheRunWithStatusThree(_ limit: Int) throws {
        // Connections that end without an event, for ever.
        let script = ScriptedResponses([Self.events([": nothing\n\n"])])
        let server = try LoopbackServer(routes: ["/events": script.handler])
        defer { server.stop() }
        let result = try Self.run([
            "get", "--stream", "--retry", "5", "--max-reconnects", "\(limit)", server.url("/events").absoluteString,
        ])
        #expect(result.status == 3, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        // The first request and `limit` reconnections; the next connection in a row without an event is over it.
        #expect(script.requestCount == limit + 1)
        #expect(
            result.stderr.contains("the stream gave up: \(limit + 1) connections in a row ended without an event"))
        #expect(result.stderr.contains("--max-reconnects \(limit)"))
    }

    @Test(arguments: [
        ("503 Service Unavailable", "text/plain", "down", "the status 503, not 200"),
        ("200 OK", "text/html", "<p>login</p>", "text/html, not an event stream"),
    ])
    func aReconnectionAnsweredWithoutAnEventStreamEndsWithStatusThree(
        _ status: String, _ type: String, _ body: String, _ reason: String
    ) throws {
        let script = ScriptedResponses([
            Self.events(["retry: 10\nid: 7\ndata: only\n\n"]), Self.response(status, contentType: type, body: body),
        ])
        let server = try LoopbackServer(routes: ["/events": script.handler])
        defer { server.stop() }
        let result = try Self.run(["get", "--stream", server.url("/events").absoluteString])
        #expect(result.status == 3, "\(result.stderr)")
        #expect(try result.values() == [Self.event("only", lastEventID: "7")])
        #expect(script.requestCount == 2)
        #expect(result.stderr.contains("the server answered reconnection 1 with \(reason)"))
    }

    @Test func aFirstResponseOutside2xxExitsOneWithTheDecodedErrorBody() throws {
        let problem = #"{"title": "No such stream", "status": 404}"#
        let script = ScriptedResponses([Self.response("404 Not Found", contentType: "application/json", body: problem)])
        let server = try LoopbackServer(routes: ["/events": script.handler])
        defer { server.stop() }
        let result = try Self.run(["get", "--stream", "--json", server.url("/events").absoluteString])
        #expect(result.status == 1)
        let printed = try #require(try result.values().first as? [String: Any])
        let error = try #require(printed["error"] as? [String: Any])
        #expect(error["code"] as? String == "unacceptableStatusCode")
        #expect(error["status"] as? Int == 404)
        #expect(
            (error["errorValue"] as? NSObject)
                == (try JSONSerialization.jsonObject(with: Data(problem.utf8)) as? NSObject))
        #expect(script.requestCount == 1)
        let text = try Self.run(["get", "--stream", server.url("/events").absoluteString])
        #expect(text.status == 1)
        #expect(text.stderr.contains("[unacceptableStatusCode] The server answered with status 404"))
        #expect(text.stderr.contains("\"title\": \"No such stream\""))
    }

    @Test func ndjsonIsStreamedFromOneConnectionWithoutReconnecting() throws {
        let records = [#"{"n": 1, "name": "Zoë"}"#, #"[1, 2.5, null]"#, #""last""#]
        let script = ScriptedResponses([
            { connection in
                connection.writeChunkedHead(contentType: "application/x-ndjson")
                // The second record split across two chunks.
                connection.writeChunk(records[0] + "\n" + records[1].prefix(4))
                connection.pause(milliseconds: 20)
                connection.writeChunk(records[1].dropFirst(4) + "\n" + records[2] + "\n")
                connection.writeChunk("")
            }
        ])
        let server = try LoopbackServer(routes: ["/logs": script.handler])
        defer { server.stop() }
        let result = try Self.run([
            "get", "--stream", "--accept", "application/x-ndjson", server.url("/logs").absoluteString,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let expected = try records.map {
            try #require(
                try JSONSerialization.jsonObject(with: Data($0.utf8), options: [.fragmentsAllowed]) as? NSObject)
        }
        #expect(try result.values() == expected)
        #expect(script.requestCount == 1)
        #expect(script.values(of: "Accept") == ["application/x-ndjson"])
        #expect(result.stderr.contains("the stream ended: the body is complete (3 records)"))
    }

    @Test func noPluginsSaysThatAnEventStreamNeedsThePlugin() throws {
        let script = ScriptedResponses([Self.events(["data: x\n\n"])])
        let server = try LoopbackServer(routes: ["/events": script.handler])
        defer { server.stop() }
        let result = try Self.run(["--no-plugins", "get", "--stream", server.url("/events").absoluteString])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("DecantEventSource plugin"))
        #expect(script.requestCount == 1)
    }

    @Test func aRefusedFirstConnectionIsNotRetried() throws {
        // A port nothing listens on, held so that no other test's server is given it meanwhile.
        let refused = try RefusedPort()
        defer { refused.close() }
        let url = refused.url("/events").absoluteString
        let result = try Self.run(["get", "--stream", url])
        #expect(result.status == 1)
        #expect(result.stderr.contains("cannot fetch \(url): could not connect to the server"))
    }

    @Test func sigintEndsTheRunWithStatus130AndTheLastEventID() throws {
        let script = ScriptedResponses([
            { connection in
                connection.writeChunkedHead(contentType: "text/event-stream")
                connection.writeChunk("id: 5\ndata: before\n\n")
                // Comments until the client goes away (at most about 60 s).
                for _ in 0..<600 {
                    connection.pause(milliseconds: 100)
                    if !connection.writeChunk(": ping\n") { break }
                }
            }
        ])
        let server = try LoopbackServer(routes: ["/events": script.handler])
        defer { server.stop() }
        let (process, output, error) = try Self.start(["get", "--stream", server.url("/events").absoluteString])
        let watchdog = DispatchWorkItem { if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + 120, execute: watchdog)
        // The first event's line arrives while the connection is still open.
        let first = output.fileHandleForReading.availableData
        process.interrupt()
        let rest = output.fileHandleForReading.readDataToEndOfFile()
        let err = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        watchdog.cancel()
        let printed = try JSONSerialization.jsonObject(with: first + rest) as? NSObject
        #expect(printed == Self.event("before", lastEventID: "5"))
        #expect(process.terminationStatus == 130, "\(err)")
        #expect(err.contains("interrupted (SIGINT) (1 event, 0 reconnections, last event ID '5')"))
    }
}
