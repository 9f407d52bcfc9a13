import Decant
import DecantConformance
import DecantEventStream
import Foundation
import Testing

/// The plugin's `fixtures.py` (its Python readers, independent of Decant), found from this file.
private let fixturesScript = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("fixtures.py")

private let registry = SerializerRegistry.standard.installing(.eventStream)

private func text(_ data: Data) -> String { String(decoding: data, as: UTF8.self) }

/// The events (and last retry) the whole-body serializer reads from `body`.
private func readWhole(_ body: Data) throws -> ServerSentEvents {
    try registry.serialize(
        Response(headers: ["Content-Type": "text/event-stream"], body: body), as: ServerSentEvents.self)
}

/// The events an `EventStreamRecordReader` hands out for `chunks`.
private func readChunked(_ chunks: [Data]) throws -> [ServerSentEvent] {
    var reader = EventStreamRecordReader(maxRecordBytes: StreamOptions.defaultMaxRecordBytes)
    var results: [Result<ServerSentEvent, SerializationError>] = []
    var failure: SerializationError?
    for chunk in chunks where failure == nil {
        chunk.withUnsafeBytes { bytes in
            do throws(SerializationError) { try reader.consume(bytes, into: &results) } catch { failure = error }
        }
    }
    if let failure { throw failure }
    try reader.finish(into: &results)
    return try results.map { try $0.get() }
}

/// What a client sees of `events` written in order from a new stream: the type `message` for an empty one, data
/// with CR LF and CR as LF (the client splits lines there and joins them with LF), and the reconnection time in effect
/// (an event's own, or the last one before it).
private func asReceived(_ events: [ServerSentEvent]) -> [ServerSentEvent] {
    var retry: Int?
    return events.map { event in
        retry = event.retry ?? retry
        var data = String.UnicodeScalarView()
        var afterCR = false
        for scalar in event.data.unicodeScalars {
            defer { afterCR = scalar == "\r" }
            if scalar == "\n" && afterCR { continue }
            data.append(scalar == "\r" ? "\n" : scalar)
        }
        return ServerSentEvent(
            type: event.type.isEmpty ? "message" : event.type, data: String(data), lastEventID: event.lastEventID,
            retry: retry)
    }
}

/// Seeded random events: data with LF, CR, CR LF, empty lines, leading spaces, colons, NUL, a BOM and non-ASCII text;
/// types (empty, `message`, others); IDs that persist, change and reset to empty; reconnection times set now and then.
private func generatedEvents(seed: UInt64, count: Int) -> [ServerSentEvent] {
    var generator = SplitMix64(seed: seed)
    let pieces = ["a", "\n", "\r", "\r\n", "\n\n", " ", ":", "data: x", "\u{0}", "\u{FEFF}", "é", "東京 😀", "\t", "id"]
    let types = ["message", "", "add", "übung", "t:x", " lead", "\u{0}"]
    let ids = ["", "1", "42", " spaced", "é", "a:b"]
    var id = ""
    return (0..<count).map { _ in
        let data = (0..<Int.random(in: 0...5, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }
        if Int.random(in: 0..<3, using: &generator) == 0 { id = ids.randomElement(using: &generator)! }
        let retry = Int.random(in: 0..<4, using: &generator) == 0 ? Int.random(in: 0...100_000, using: &generator) : nil
        return ServerSentEvent(
            type: types.randomElement(using: &generator)!, data: data.joined(), lastEventID: id, retry: retry)
    }
}

@Suite struct EventStreamWriterBytesTests {
    /// HTML §9.2.5 (the event stream format): a block of `field: value` lines, then an empty line (§9.2.6: "If the line
    /// is empty, dispatch the event"). `message` is the default type (§9.2.6, dispatch step: "initialize event's type
    /// attribute to "message""), so it is not written.
    @Test func oneEvent() throws {
        var writer = EventStreamRecordWriter()
        #expect(text(try writer.write(ServerSentEvent(data: "hello"))) == "data: hello\n\n")
        #expect(text(try writer.write(ServerSentEvent(type: "", data: "x"))) == "data: x\n\n")
    }

    /// Every field: `id`, `retry` (§9.2.6: "If the field value consists of only ASCII digits"), `event`, then one
    /// `data` line per line of the data.
    @Test func everyField() throws {
        var writer = EventStreamRecordWriter()
        let event = ServerSentEvent(type: "add", data: "a\nb", lastEventID: "7", retry: 3000)
        #expect(text(try writer.write(event)) == "id: 7\nretry: 3000\nevent: add\ndata: a\ndata: b\n\n")
        #expect(writer.lastEventID == "7")
        #expect(writer.retry == 3000)
    }

    /// §9.2.6: lines end at CR LF, LF or CR, and `data` lines are joined with LF; the last LF of the buffer is removed,
    /// so data ending with a line end needs an empty `data` line after it. One space after the colon is dropped, so a
    /// value starting with a space keeps it after the one written.
    @Test func dataLines() throws {
        var writer = EventStreamRecordWriter()
        #expect(text(try writer.write(ServerSentEvent(data: "a\r\nb\rc\n"))) == "data: a\ndata: b\ndata: c\ndata:\n\n")
        #expect(text(try writer.write(ServerSentEvent(data: ""))) == "data:\n\n")
        #expect(text(try writer.write(ServerSentEvent(data: "\n"))) == "data:\ndata:\n\n")
        #expect(text(try writer.write(ServerSentEvent(data: " x:y"))) == "data:  x:y\n\n")
    }

    /// §9.2.6: "If the field name is "id"": the last event ID buffer persists across events, and an empty value resets
    /// it; so an ID is written only when it changes, and a change to "" is `id:`.
    @Test func idsAreWrittenWhenTheyChange() throws {
        var writer = EventStreamRecordWriter()
        let events = [
            ServerSentEvent(data: "a", lastEventID: "1"), ServerSentEvent(data: "b", lastEventID: "1"),
            ServerSentEvent(data: "c"),
        ]
        let body = try events.map { try writer.write($0) }.reduce(Data(), +)
        #expect(text(body) == "id: 1\ndata: a\n\ndata: b\n\nid:\ndata: c\n\n")
        var resumed = EventStreamRecordWriter(lastEventID: "1", retry: 500)
        #expect(text(try resumed.write(ServerSentEvent(data: "d", lastEventID: "1", retry: 500))) == "data: d\n\n")
    }

    /// A reconnection time is written when set and changed; `nil` cannot withdraw one, so it writes nothing. A whole
    /// body's last `retry` follows its events on its own (no `data`, so nothing is dispatched).
    @Test func retries() throws {
        var writer = EventStreamRecordWriter()
        let events = ServerSentEvents(
            events: [
                ServerSentEvent(data: "a", retry: 10), ServerSentEvent(data: "b"),
                ServerSentEvent(data: "c", retry: 10),
            ],
            retry: 2500)
        #expect(text(try writer.write(events)) == "retry: 10\ndata: a\n\ndata: b\n\ndata: c\n\nretry: 2500\n\n")
    }

    /// §9.2.5: a comment line starts with a colon; a server sends one to keep a connection open.
    @Test func comments() {
        let writer = EventStreamRecordWriter()
        #expect(text(writer.comment("keep-alive")) == ": keep-alive\n")
        #expect(text(writer.comment()) == ":\n")
        #expect(text(writer.comment("a\r\nb")) == ": a\n: b\n")
    }

    /// What the client cannot receive: an ID with LF or CR (the line would end) or NUL (§9.2.6: "If the field value
    /// does not contain U+0000 NULL"), a type with a line end, a negative retry. The writer is unchanged after.
    @Test(arguments: [
        (ServerSentEvent(data: "x", lastEventID: "a\nb"), "lastEventID"),
        (ServerSentEvent(data: "x", lastEventID: "a\rb"), "lastEventID"),
        (ServerSentEvent(data: "x", lastEventID: "a\u{0}b"), "lastEventID"),
        (ServerSentEvent(type: "a\nb", data: "x"), "type"),
        (ServerSentEvent(type: "a\r", data: "x"), "type"),
        (ServerSentEvent(data: "x", retry: -1), "retry"),
    ])
    func unwritableEvents(event: ServerSentEvent, field: String) throws {
        var writer = EventStreamRecordWriter(lastEventID: "keep")
        do {
            _ = try writer.write(event)
            Issue.record("written")
        } catch {
            #expect(error.code == .encodingFailed)
            #expect(error.codingPath == [field])
        }
        #expect(writer.lastEventID == "keep")
        #expect(writer.retry == nil)
    }
}

@Suite struct EventStreamRoundTripTests {
    /// Every 200 fixture's events (and last retry), written from a new stream, read back the same whole and in
    /// random chunks.
    @Test func fixturesEvents() throws {
        var count = 0
        for fixture in EventStreamConformanceTests.fixtures {
            let response = try Response(raw: fixture.raw)
            guard response.status == 200 else { continue }
            let events = try EventStreamResponseSerializer().serialize(response)
            var writer = EventStreamRecordWriter()
            let body = try writer.write(events)
            #expect(try readWhole(body) == events, "\(fixture.name)")
            for seed in UInt64(1)...3 {
                for maxChunk in [1, 4, 64] {
                    let chunks = ChunkedBody(body, seed: seed, maxChunk: maxChunk).chunks
                    #expect(try readChunked(chunks) == events.events, "\(fixture.name) seed \(seed) max \(maxChunk)")
                }
            }
            count += 1
        }
        #expect(count >= 20)
    }

    @Test(arguments: UInt64(1)...12)
    func generatedEventsComeBack(seed: UInt64) throws {
        let events = generatedEvents(seed: seed, count: 30)
        let expected = asReceived(events)
        var writer = EventStreamRecordWriter()
        let chunks = try events.map { try writer.write($0) }
        let body = chunks.reduce(Data(), +)
        #expect(try readWhole(body).events == expected)
        #expect(try readChunked(chunks) == expected)
        for maxChunk in [1, 3, 17, 256] {
            #expect(try readChunked(ChunkedBody(body, seed: seed, maxChunk: maxChunk).chunks) == expected)
        }
    }

    /// fixtures.py's rendering of the WHATWG algorithm in Python (`--interpret`) reads the writer's bytes back as the
    /// same events.
    @Test(.enabled(if: PythonReference.isAvailable)) func pythonInterpretsTheEvents() throws {
        var checked = 0
        for seed in UInt64(1)...6 {
            let events = generatedEvents(seed: seed, count: 30)
            let received = asReceived(events)
            let expected = try ServerSentEvents(events: received, retry: received.last?.retry).conformanceValue()
            var writer = EventStreamRecordWriter()
            let body = try writer.write(ServerSentEvents(events: events))
            let output = try PythonReference.run(script: fixturesScript, ["--interpret"], body: body)
            #expect(try JSONParser().parse(output) == expected, "seed \(seed)")
            checked += events.count
        }
        #expect(checked == 180)
    }
}

@Suite struct EventStreamBodyEncoderTests {
    @Test func writesEventsAsTextEventStream() throws {
        let event = ServerSentEvent(type: "done", data: "[DONE]")
        for requested: MediaType in ["text/event-stream", "text/event-stream; charset=utf-8"] {
            let body = try registry.encode(event, as: requested)
            #expect(body.contentType.description == "text/event-stream")
            #expect(body.serializerID == "eventStream")
            #expect(text(body.body) == "event: done\ndata: [DONE]\n\n")
        }
        let list = [ServerSentEvent(data: "a", lastEventID: "1"), ServerSentEvent(data: "b", lastEventID: "1")]
        #expect(text(try registry.encode(list, as: "text/event-stream").body) == "id: 1\ndata: a\n\ndata: b\n\n")
        let all = ServerSentEvents(events: list, retry: 9)
        let body = try registry.encode(all, accepting: AcceptHeader(parsing: "text/event-stream"))
        #expect(
            try registry.serialize(body.response(), as: ServerSentEvents.self).conformanceValue()
                == all.conformanceValue())
    }

    @Test func whatIsNotAnEventIsNotWritten() throws {
        let encoder = EventStreamBodyEncoder()
        #expect(!encoder.canEncode("data: x\n\n"))
        #expect(!encoder.canEncode(JSONValue(["data": "x"])))
        #expect(throws: SerializationError.self) {
            try encoder.encode("x", as: "text/event-stream", options: EncodingOptions())
        }
    }

    /// An event that cannot be written names its index and field.
    @Test func aBadEventIsNamed() throws {
        let list = [ServerSentEvent(data: "a"), ServerSentEvent(data: "b", lastEventID: "x\ny")]
        do {
            _ = try registry.encode(list, as: "text/event-stream")
            Issue.record("written")
        } catch {
            #expect(error.code == .encodingFailed)
            #expect(error.codingPath == ["1", "lastEventID"])
            #expect(error.mediaType?.description == "text/event-stream")
        }
    }

    @Test func theCanonicalFormBuildsTheEvents() throws {
        let events = ServerSentEvents(
            events: [ServerSentEvent(type: "add", data: "1\n2", lastEventID: "7"), ServerSentEvent(data: "")], retry: 30
        )
        #expect(try ServerSentEvents(conformanceValue: events.conformanceValue()) == events)
        let short = try ServerSentEvents(conformanceValue: ["events": [["data": "x"]]])
        #expect(short == ServerSentEvents(events: [ServerSentEvent(data: "x")]))
        let bad: [JSONValue] = [
            [], ["events": 1], ["events": [["type": "x"]]], ["events": [["data": 1]]], ["events": [], "retry": -1],
            ["events": [], "retry": "1"], ["events": [], "other": 1], ["events": [["data": "x", "extra": 1]]],
        ]
        for form in bad {
            #expect(throws: SerializationError.self, "\(form)") { try ServerSentEvents(conformanceValue: form) }
        }
    }
}

@Suite struct EventStreamChunkTests {
    /// A stream of events becomes one chunk per event; the ID in effect carries over from chunk to chunk.
    @Test func eventsBecomeOneChunkPerEvent() async throws {
        let events = generatedEvents(seed: 3, count: 20)
        let stream = AsyncStream<ServerSentEvent> { continuation in
            for event in events { continuation.yield(event) }
            continuation.finish()
        }
        var chunks: [Data] = []
        for try await chunk in stream.encodedChunks() { chunks.append(chunk) }
        var writer = EventStreamRecordWriter()
        let written = try events.map { try writer.write($0) }
        #expect(chunks == written)
        #expect(try readChunked(chunks) == asReceived(events))
    }

    @Test func anUnwritableEventEndsTheChunks() async throws {
        let stream = AsyncStream<ServerSentEvent> { continuation in
            for id in ["1", "2\n", "3"] { continuation.yield(ServerSentEvent(data: "x", lastEventID: id)) }
            continuation.finish()
        }
        var chunks: [String] = []
        await #expect(throws: SerializationError.self) {
            for try await chunk in stream.encodedChunks() { chunks.append(text(chunk)) }
        }
        #expect(chunks == ["id: 1\ndata: x\n\n"])
    }
}
