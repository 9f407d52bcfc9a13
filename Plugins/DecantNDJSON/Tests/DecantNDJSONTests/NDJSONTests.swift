import Decant
import DecantConformance
import DecantNDJSON
import Foundation
import Testing

private let registry = SerializerRegistry.standard.installing(.ndjson)

/// Every record and record error a stream of `body` hands out under `.skip`, as canonical JSON text or error code
/// with offset, for comparisons.
private func streamed(
    _ head: Response, _ chunks: [Data], maxRecordBytes: Int = StreamOptions.defaultMaxRecordBytes
)
    async throws -> [String]
{
    let stream = try await registry.records(
        head, body: ChunkedBody(chunks), as: JSONValue.self,
        options: StreamOptions(errorPolicy: .skip, maxRecordBytes: maxRecordBytes))
    var seen: [String] = []
    for try await record in stream { seen.append(record.description) }
    for error in await stream.skippedErrors { seen.append("error \(error.code) at \(error.offset ?? -1)") }
    return seen
}

@Suite struct NDJSONConformanceTests {
    static let fixtures: [Fixture] = {
        guard let root = FixtureLoader.fixturesDirectory(from: #filePath) else { return [] }
        return (try? FixtureLoader.fixtures(in: root.appendingPathComponent("ndjson"))) ?? []
    }()

    /// Every fixture of Fixtures/ndjson (written by Plugins/DecantNDJSON/fixtures.py) passes with the plugin
    /// installed.
    @Test func fixtures() throws {
        try ConformanceRunner(registry: registry).check(Self.fixtures)
        #expect(Self.fixtures.count >= 15)
    }

    /// The writing cases (`write-*.encode.json`, bytes from Python's `json`) pass too.
    @Test func writingCases() throws {
        let root = try #require(FixtureLoader.fixturesDirectory(from: #filePath))
        let writing = try FixtureLoader.encodingFixtures(in: root.appendingPathComponent("ndjson"))
        #expect(try ConformanceRunner(registry: registry).check(writing: writing).results.count >= 2)
    }

    /// The serializer rules every format must follow, with fixture bodies as samples.
    @Test func followsTheSerializerRules() throws {
        try SerializerRules(samplesFrom: Self.fixtures).check(.ndjson)
    }

    /// The stream of every fixture's body, cut at random, gives the records of the whole body, in order, and the
    /// error of the first bad record where the whole body fails.
    @Test func streamsGiveTheWholeBodysRecords() async throws {
        for fixture in Self.fixtures {
            let response = try Response(raw: fixture.raw)
            guard response.status == 200 else { continue }
            let whole: [String]
            do {
                whole = try NDJSONResponseSerializer().serialize(response).records.map(\.description)
            } catch {
                // A body that fails whole fails in the stream too, first bad record first.
                let stream = try RecordStream(
                    NDJSONResponseSerializer(), head: response, chunks: ChunkedBody([response.body]))
                await #expect(throws: SerializationError.self, "\(fixture.name)") {
                    for try await _ in stream {}
                }
                continue
            }
            for seed in UInt64(1)...5 {
                for maxChunk in [1, 3, 64] {
                    let chunks = ChunkedBody(response.body, seed: seed, maxChunk: maxChunk).chunks
                    #expect(try await streamed(response, chunks) == whole, "\(fixture.name) seed \(seed)")
                }
            }
        }
    }

    @Test(arguments: [
        "application/x-ndjson", "application/ndjson", "application/jsonl", "application/x-jsonlines",
        "application/json-seq", "application/geo+json-seq", "Application/X-NDJSON; charset=utf-8",
    ])
    func mediaTypesResolveToNDJSON(contentType: String) throws {
        let mediaType = try #require(MediaType(contentType))
        #expect(registry.resolve(mediaType).chosen?.id == "ndjson")
        #expect(registry.conflicts.isEmpty)
    }
}

@Suite struct NDJSONStreamTests {
    static let head = Response(status: 200, headers: ["Content-Type": "application/x-ndjson"], body: Data())
    static let sequenceHead = Response(status: 200, headers: ["Content-Type": "application/json-seq"], body: Data())

    /// The amazon_cellphones.ndjson file of simdjson's examples: 793 records (Python: `sum(1 for line in open(path,
    /// 'rb') if line.strip())`), each equal to the same line parsed alone, for every chunking.
    @Test(.enabled(if: NDJSONTestSupport.corpora.isAvailable)) func corpusFile() async throws {
        let url = try #require(NDJSONTestSupport.corpora.root).appendingPathComponent(
            "json/simdjson-data/jsonexamples/amazon_cellphones.ndjson")
        let body = try Data(contentsOf: url)
        let lines = body.split(separator: 0x0A).filter { !$0.allSatisfy { $0 == 0x20 || $0 == 0x0D } }
        let expected = try lines.map { try JSONParser().parse(Data($0)).description }
        #expect(expected.count == 793)
        var passed = 0
        for maxChunk in [1, 7, 4096, 1 << 20] {
            let records = try await streamed(Self.head, ChunkedBody(body, seed: 9, maxChunk: maxChunk).chunks)
            #expect(records == expected, "chunks up to \(maxChunk) bytes")
            if records == expected { passed += 1 }
        }
        print("amazon_cellphones.ndjson: \(passed) passed, \(4 - passed) failed (793 records, 4 chunkings)")
    }

    @Test func recordsDecodeAsDecodableTypes() async throws {
        struct Event: Decodable, Sendable, Equatable {
            var id: Int
            var type: String
        }
        let body = Data("{\"id\":1,\"type\":\"push\"}\n{\"id\":2,\"type\":\"fork\",\"extra\":true}\n".utf8)
        let stream = try await registry.records(Self.head, body: ChunkedBody([body]), as: JSONValue.self)
        var events: [Event] = []
        for try await event in stream.decoding(Event.self) { events.append(event) }
        #expect(events == [Event(id: 1, type: "push"), Event(id: 2, type: "fork")])
        let whole = Response(headers: ["Content-Type": "application/x-ndjson"], body: body)
        #expect(try registry.decode([Event].self, from: whole) == events)
    }

    @Test func aBadRecordKeepsItsOffsetInTheBody() async throws {
        let body = Data("{\"a\":1}\n{\"a\":2,}\n{\"a\":3}\n".utf8)
        let records = try await streamed(Self.head, [body])
        #expect(records == [#"{"a":1}"#, #"{"a":3}"#, "error invalidBody at 15"])
    }

    @Test func maxRecordBytesBoundsEachRecord() async throws {
        let long = "{\"pad\":\"" + String(repeating: "x", count: 3000) + "\"}"
        let body = Data(("{\"a\":1}\n" + long + "\n{\"a\":2}\n").utf8)
        let records = try await streamed(
            Self.head, ChunkedBody(body, seed: 3, maxChunk: 100).chunks, maxRecordBytes: 1000)
        #expect(records == [#"{"a":1}"#, #"{"a":2}"#, "error limitExceeded at 8"])
    }

    /// RFC 7464 §2.4: a scalar without the LF after it may be truncated; a truncated object does not parse.
    @Test func sequencesDetectTruncatedTexts() async throws {
        let body = Data("\u{1E}{\"a\":1}\n\u{1E}123\n\u{1E}{\"b\":".utf8) + Data("\u{1E}456".utf8)
        let records = try await streamed(Self.sequenceHead, [body])
        #expect(records.prefix(2) == [#"{"a":1}"#, "123"])
        #expect(records.dropFirst(2).allSatisfy { $0.hasPrefix("error invalidBody") })
        #expect(records.count == 4)
    }

    /// 1 MB of random bytes: every line ends in a record or a record error, quickly, and nothing traps.
    @Test func randomBytesNeverTrap() async throws {
        var generator = SplitMix64(seed: 42)
        let body = Data((0..<1_000_000).map { _ in UInt8.random(in: 0...255, using: &generator) })
        let records = try await streamed(Self.head, ChunkedBody(body, seed: 1, maxChunk: 65536).chunks)
        let lines = body.split(separator: 0x0A).filter { !$0.allSatisfy { [0x20, 0x09, 0x0D].contains($0) } }
        #expect(records.count == lines.count)
        let sequence = try await streamed(Self.sequenceHead, [body])
        #expect(sequence.count <= body.count)
    }

    /// A record that never ends (no LF in 64 MB) is one limitExceeded error; the decoder keeps at most the limit.
    @Test func aRecordThatNeverEndsIsBounded() async throws {
        let chunk = Data(repeating: UInt8(ascii: "7"), count: 1 << 20)
        let records = try await streamed(Self.head, Array(repeating: chunk, count: 64), maxRecordBytes: 1 << 20)
        #expect(records == ["error limitExceeded at 0"])
    }
}

/// The factory's options: a whole number written as a decimal is the integer.
@Suite struct NDJSONFactoryOptionTests {
    @Test func wholeNumbersWrittenAsDecimalsAreIntegers() throws {
        let options = try NDJSONSerializerFactory().options(from: ["maxRecordBytes": .number(64), "maxDepth": 3.0])
        #expect(options.maxRecordBytes == 64)
        #expect(options.maxDepth == 3)
        let serializer = try NDJSONSerializerFactory().makeSerializer(configuration: ["maxRecordBytes": .number(64)])
        #expect(serializer.maxRecordBytes == 64)
    }
}
