import Decant
import DecantConformance
import DecantEventStream
import Foundation
import Testing

private let registry = SerializerRegistry.standard.installing(.eventStream)
private let head = Response(status: 200, headers: ["Content-Type": "text/event-stream"], body: Data())

/// The events a stream of `chunks` hands out (under `.skip`), as `type|data|id|retry` lines, then its errors.
private func streamed(
    _ chunks: [Data], maxRecordBytes: Int = StreamOptions.defaultMaxRecordBytes
) async throws
    -> [String]
{
    let stream = try await registry.records(
        head, body: ChunkedBody(chunks), as: ServerSentEvent.self,
        options: StreamOptions(errorPolicy: .skip, maxRecordBytes: maxRecordBytes))
    var seen: [String] = []
    for try await event in stream { seen.append(describe(event)) }
    for error in await stream.skippedErrors { seen.append("error \(error.code) at \(error.offset ?? -1)") }
    return seen
}

private func describe(_ event: ServerSentEvent) -> String {
    "\(event.type)|\(event.data)|\(event.lastEventID)|\(event.retry.map(String.init) ?? "-")"
}

@Suite struct EventStreamConformanceTests {
    static let fixtures: [Fixture] = {
        guard let root = FixtureLoader.fixturesDirectory(from: #filePath) else { return [] }
        return (try? FixtureLoader.fixtures(in: root.appendingPathComponent("eventStream"))) ?? []
    }()

    /// Every fixture of Fixtures/eventStream (written by Plugins/DecantEventStream/fixtures.py, whose expectations
    /// follow the WHATWG algorithm in Python) passes with the plugin installed.
    @Test func fixtures() throws {
        try ConformanceRunner(registry: registry).check(Self.fixtures)
        #expect(Self.fixtures.count >= 15)
    }

    /// The serializer rules every format must follow, with fixture bodies as samples.
    @Test func followsTheSerializerRules() throws {
        try SerializerRules(samplesFrom: Self.fixtures).check(.eventStream)
    }

    /// Every fixture's body streamed in random chunks (1 to 64 bytes) gives the whole body's events.
    @Test func streamsGiveTheWholeBodysEvents() async throws {
        for fixture in Self.fixtures {
            let response = try Response(raw: fixture.raw)
            guard response.status == 200 else { continue }
            let whole = try EventStreamResponseSerializer().serialize(response).events.map(describe)
            for seed in UInt64(1)...5 {
                for maxChunk in [1, 2, 5, 64] {
                    let chunks = ChunkedBody(response.body, seed: seed, maxChunk: maxChunk).chunks
                    #expect(try await streamed(chunks) == whole, "\(fixture.name) seed \(seed) max \(maxChunk)")
                }
            }
        }
    }

    @Test func theMediaTypeResolvesToEventStream() throws {
        let mediaType: MediaType = "text/event-stream; charset=utf-8"
        #expect(registry.resolve(mediaType).chosen?.id == "eventStream")
        #expect(registry.conflicts.isEmpty)
    }
}

@Suite struct EventStreamRuleTests {
    /// A CR at the end of one chunk and an LF at the start of the next are one line end, not two (which would
    /// dispatch an event early).
    @Test func crAndLFInDifferentChunks() async throws {
        let chunks = ["data: a\r", "\ndata: b\r", "\n\r", "\n"].map { Data($0.utf8) }
        #expect(try await streamed(chunks) == ["message|a\nb||-"])
    }

    /// The byte order mark may arrive one byte at a time; it is still dropped, and only at the start.
    @Test func aBOMSplitAcrossChunks() async throws {
        let body =
            Data([0xEF, 0xBB, 0xBF]) + Data("data: x\n\n".utf8) + Data([0xEF, 0xBB, 0xBF]) + Data("data: y\n\n".utf8)
        let events = try await streamed(body.map { Data([$0]) })
        #expect(events == ["message|x||-"])
    }

    @Test func theRetryInEffectTravelsWithEachEvent() async throws {
        let body = Data("data: a\n\nretry: 500\ndata: b\n\nretry: x\ndata: c\n\n".utf8)
        #expect(try await streamed([body]) == ["message|a||-", "message|b||500", "message|c||500"])
    }

    @Test func anEventLargerThanTheLimitIsOneError() async throws {
        let big = String(repeating: "data: 0123456789\n", count: 200)
        let body = Data(("data: small\n\n" + big + "\ndata: after\n\n").utf8)
        let events = try await streamed(
            ChunkedBody(body, seed: 2, maxChunk: 50).chunks, maxRecordBytes: 1000)
        #expect(events == ["message|small||-", "message|after||-", "error limitExceeded at 13"])
    }

    /// A line that never ends (no CR or LF in 32 MB) is bounded by the limit and dispatches nothing.
    @Test func aLineThatNeverEndsIsBounded() async throws {
        let chunk = Data(repeating: UInt8(ascii: "d"), count: 1 << 20)
        #expect(try await streamed(Array(repeating: chunk, count: 32), maxRecordBytes: 1 << 16) == [])
    }

    /// 1 MB of random bytes: no trap, and the stream equals the whole body.
    @Test func randomBytes() async throws {
        var generator = SplitMix64(seed: 7)
        let body = Data((0..<1_000_000).map { _ in UInt8.random(in: 0...255, using: &generator) })
        let whole = try EventStreamResponseSerializer().serialize(
            Response(headers: ["Content-Type": "text/event-stream"], body: body))
        let streamedEvents = try await streamed(ChunkedBody(body, seed: 3, maxChunk: 4096).chunks)
        #expect(streamedEvents == whole.events.map(describe))
    }

    /// Each event's data decoded as JSON through the registry, as the events arrive.
    @Test func dataDecodesThroughTheRegistry() async throws {
        struct Token: Decodable, Sendable, Equatable { var text: String }
        let body = Data("data: {\"text\": \"Hel\"}\n\ndata: {\"text\": \"lo\"}\n\n".utf8)
        let stream = try await registry.records(head, body: ChunkedBody([body]), as: ServerSentEvent.self)
        var tokens: [Token] = []
        for try await token in stream.decodingData(Token.self, registry: registry) { tokens.append(token) }
        #expect(tokens == [Token(text: "Hel"), Token(text: "lo")])
        let bad = ServerSentEvent(data: "{\"text\": ")
        let error = #expect(throws: SerializationError.self) { try bad.json() }
        #expect(error?.code == .invalidBody)
        #expect(try ServerSentEvent(data: "[1, 2]").json() == [1, 2])
    }
}

/// The factory's options: a whole number written as a decimal is the integer.
@Suite struct EventStreamFactoryOptionTests {
    @Test func wholeNumbersWrittenAsDecimalsAreIntegers() throws {
        let serializer = try EventStreamSerializerFactory().makeSerializer(configuration: ["maxRecordBytes": 64.0])
        #expect(serializer.maxRecordBytes == 64)
    }
}

/// An event keeps data of up to 15 bytes as the bytes it arrived as: it must read, compare, hash and parse exactly as
/// an event made from the same text.
@Suite struct ShortDataTests {
    /// The events of `body`, parsed whole.
    private func events(_ body: [UInt8]) throws -> [ServerSentEvent] {
        try EventStreamResponseSerializer().serialize(
            Response(headers: ["Content-Type": "text/event-stream"], body: Data(body))
        ).events
    }

    @Test(arguments: [0, 1, 7, 8, 14, 15, 16, 40])
    func dataOfEveryLengthReadsAsText(length: Int) throws {
        let text = String((0..<length).map { Character(UnicodeScalar(UInt8(ascii: "a") + UInt8($0 % 26))) })
        let parsed = try #require(try events(Array("event: t\nid: 9\ndata: \(text)\n\n".utf8)).first)
        let made = ServerSentEvent(type: "t", data: text, lastEventID: "9")
        #expect(parsed.data == text)
        #expect(parsed.isDataEmpty == text.isEmpty)
        #expect(parsed.withDataBytes { Array($0) } == Array(text.utf8))
        #expect(parsed == made)
        #expect(made == parsed)
        #expect(parsed.hashValue == made.hashValue)
        #expect(Set([parsed, made]).count == 1)
    }

    /// Different invalid bytes that read as the same replacement text are equal events, as their `data` is equal.
    @Test func invalidBytesCompareByTheirText() throws {
        let first = try events([UInt8]("data: a".utf8) + [0xFF] + [0x0A, 0x0A])
        let second = try events([UInt8]("data: a".utf8) + [0xFE] + [0x0A, 0x0A])
        #expect(first[0].data == "a\u{FFFD}")
        #expect(first == second)
        #expect(first[0].hashValue == second[0].hashValue)
        #expect(first[0].withDataBytes { Array($0) } == [0x61, 0xFF])
        #expect(try events(Array("data: ab\n\n".utf8)) != events(Array("data: ac\n\n".utf8)))
    }

    /// Setting `data` replaces the kept bytes.
    @Test func settingDataReplacesTheBytes() throws {
        var event = try #require(try events(Array("data: short\n\n".utf8)).first)
        event.data = "a longer text than fifteen bytes"
        #expect(event.data == "a longer text than fifteen bytes")
        #expect(event.withDataBytes { Array($0) } == Array("a longer text than fifteen bytes".utf8))
        event.data = ""
        #expect(event.isDataEmpty)
    }

    /// Short data parses as JSON from its bytes.
    @Test func shortDataParsesAsJSON() throws {
        let event = try #require(try events(Array("data: {\"t\":\"word\"}\n\n".utf8)).first)
        #expect(try event.json() == ["t": "word"])
        struct Token: Decodable, Sendable, Equatable { var t: String }
        #expect(try event.decodeData(Token.self) == Token(t: "word"))
    }
}
