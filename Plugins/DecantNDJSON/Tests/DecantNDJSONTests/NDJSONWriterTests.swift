import Decant
import DecantConformance
import DecantNDJSON
import Foundation
import Testing

/// The plugin's `fixtures.py` (its Python readers, independent of Decant), found from this file.
private let fixturesScript = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("fixtures.py")

private let registry = SerializerRegistry.standard.installing(.ndjson)

/// The records the reader hands out for `body` framed as `framing`, read whole.
private func readWhole(_ body: Data, _ framing: NDJSONRecordReader.Framing) throws -> [JSONValue] {
    let contentType = framing == .lines ? "application/x-ndjson" : "application/json-seq"
    return try registry.serialize(
        Response(headers: ["Content-Type": contentType], body: body), as: JSONRecords.self
    ).records
}

/// The records an `NDJSONRecordReader` hands out for `body` cut into `chunks`.
private func readChunked(_ chunks: [Data], _ framing: NDJSONRecordReader.Framing) throws -> [JSONValue] {
    var reader = NDJSONRecordReader(framing: framing, maxRecordBytes: StreamOptions.defaultMaxRecordBytes)
    var results: [Result<JSONValue, SerializationError>] = []
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

/// What Python's `json.loads` reads from each line (or RS-started text) of `body`: `fixtures.py --read`.
private func readByPython(_ body: Data, _ framing: NDJSONRecordReader.Framing) throws -> [JSONValue] {
    let output = try PythonReference.run(
        script: fixturesScript, ["--read", framing == .lines ? "lines" : "sequence"], body: body)
    return try #require(try JSONParser().parse(output)["records"]?.arrayValue)
}

/// Seeded random records: nested arrays and objects of strings with line ends, RS, NUL, quotes, backslashes and
/// non-ASCII text, integers (some beyond 64 bits), decimals, Booleans and null.
private func generatedRecords(seed: UInt64, count: Int) -> [JSONValue] {
    var generator = SplitMix64(seed: seed)
    let pieces = [
        "a", "line\nbreak", "cr\r", "\r\n", "", " ", "\u{1E}", "\u{0}", "\"", "\\", "/", "é", "東京", "😀", "\u{7F}",
        "\u{2028}", "\t",
    ]
    func string() -> String {
        (0..<Int.random(in: 0...4, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
    }
    func value(depth: Int) -> JSONValue {
        switch Int.random(in: 0...(depth > 3 ? 5 : 7), using: &generator) {
        case 0: return nil
        case 1: return JSONValue(Bool.random(using: &generator))
        case 2: return JSONValue(Int64.random(in: .min ... .max, using: &generator))
        case 3: return JSONValue(JSONNumber("18446744073709551617")!)
        case 4: return JSONValue(Double(Int.random(in: -1000...1000, using: &generator)) / 8)
        case 5: return JSONValue(string())
        case 6: return .array((0..<Int.random(in: 0...3, using: &generator)).map { _ in value(depth: depth + 1) })
        default:
            return .object(
                (0..<Int.random(in: 0...3, using: &generator)).map { _ in (string(), value(depth: depth + 1)) })
        }
    }
    return (0..<count).map { _ in value(depth: 0) }
}

/// A 200 fixture's records, with the framing its media type implies.
private func fixtureRecords() throws -> [(name: String, records: [JSONValue], framing: NDJSONRecordReader.Framing)] {
    try NDJSONConformanceTests.fixtures.compactMap { fixture in
        let response = try Response(raw: fixture.raw)
        guard response.status == 200, let records = try? registry.serialize(response, as: JSONRecords.self) else {
            return nil
        }
        return (fixture.name, records.records, NDJSONResponseSerializer.framing(of: response.contentType))
    }
}

@Suite struct NDJSONWriterBytesTests {
    /// RFC 8259 §7: a string escapes `"`, `\` and the control characters U+0000 to U+001F (LF as `\n`, RS as
    /// `\u001e`), so no record holds a raw line end; NDJSON / JSON Lines put LF after each text.
    static let records: [JSONValue] = [
        ["id": 1, "name": "Zoë"], "text", 42, nil, [], ["s": "a\nb\u{1E}\r\"\\/"],
    ]
    static let compactTexts = [
        #"{"id":1,"name":"Zoë"}"#, #""text""#, "42", "null", "[]", #"{"s":"a\nb\u001e\r\"\\/"}"#,
    ]

    @Test func linesAreCompactTextsEachEndedByLF() {
        let body = NDJSONRecordWriter(framing: .lines).write(records: Self.records)
        #expect(String(decoding: body, as: UTF8.self) == Self.compactTexts.map { $0 + "\n" }.joined())
    }

    /// RFC 7464 §2.2: each JSON text is preceded by RS (0x1E) and followed by LF.
    @Test func sequencesAreRSTextLF() {
        let body = NDJSONRecordWriter(framing: .jsonSequence).write(records: Self.records)
        #expect(String(decoding: body, as: UTF8.self) == Self.compactTexts.map { "\u{1E}" + $0 + "\n" }.joined())
        #expect(NDJSONRecordWriter(framing: .jsonSequence).write(JSONValue(7)) == Data([0x1E, 0x37, 0x0A]))
    }

    @Test func noRecordsIsAnEmptyBody() {
        #expect(NDJSONRecordWriter().write(records: []).isEmpty)
        // An array literal is one record, the array.
        #expect(NDJSONRecordWriter().write([1, 2]) == Data("[1,2]\n".utf8))
    }

    /// Encodable records use the encoder's strategies; `.prettyPrinted` is ignored (one record, one line) and
    /// `.sortedKeys` applies to `JSONValue` records too.
    @Test func encodableRecordsAndFormatting() throws {
        struct Event: Encodable {
            var eventID: Int
            var kind: String
        }
        let options = EncodingOptions(keyEncodingStrategy: .convertToSnakeCase, outputFormatting: [.prettyPrinted])
        let writer = NDJSONRecordWriter(for: "application/x-ndjson", options: options)
        let bytes = try writer.write(encodable: Event(eventID: 7, kind: "push"))
        #expect(String(decoding: bytes, as: UTF8.self) == #"{"event_id":7,"kind":"push"}"# + "\n")
        let sorted = NDJSONRecordWriter(
            for: "application/geo+json-seq", options: EncodingOptions(outputFormatting: [.sortedKeys, .prettyPrinted]))
        #expect(sorted.framing == .jsonSequence)
        #expect(String(decoding: sorted.write(["b": 1, "a": [2]]), as: UTF8.self) == "\u{1E}{\"a\":[2],\"b\":1}\n")
    }

    @Test func aRecordThatCannotBeEncodedThrows() {
        #expect(throws: SerializationError.self) { try NDJSONRecordWriter().write(encodable: Double.nan) }
    }
}

@Suite struct NDJSONRoundTripTests {
    /// Every 200 fixture's records, written with its framing, read back the same whole and in random chunks.
    @Test func fixturesRecords() throws {
        let fixtures = try fixtureRecords()
        #expect(fixtures.count >= 14)
        for (name, records, framing) in fixtures {
            let body = NDJSONRecordWriter(framing: framing).write(records: records)
            #expect(try readWhole(body, framing) == records, "\(name)")
            for seed in UInt64(1)...3 {
                for maxChunk in [1, 5, 64] {
                    let chunks = ChunkedBody(body, seed: seed, maxChunk: maxChunk).chunks
                    #expect(try readChunked(chunks, framing) == records, "\(name) seed \(seed) max \(maxChunk)")
                }
            }
        }
    }

    @Test(arguments: NDJSONRecordReader.Framing.allCases, UInt64(1)...8)
    func generatedRecordsComeBack(framing: NDJSONRecordReader.Framing, seed: UInt64) throws {
        let records = generatedRecords(seed: seed, count: 40)
        let body = NDJSONRecordWriter(framing: framing).write(records: records)
        #expect(try readWhole(body, framing) == records)
        for maxChunk in [1, 3, 17, 256] {
            let chunks = ChunkedBody(body, seed: seed, maxChunk: maxChunk).chunks
            #expect(try readChunked(chunks, framing) == records, "max \(maxChunk)")
        }
        // One record at a time, as a server sends them, is the same body.
        let writer = NDJSONRecordWriter(framing: framing)
        #expect(records.reduce(into: Data()) { $0.append(writer.write($1)) } == body)
    }

    /// Python's `json.loads`, per line or per RS-started text, reads the records back (fixtures.py `--read`).
    @Test(.enabled(if: PythonReference.isAvailable), arguments: NDJSONRecordReader.Framing.allCases)
    func pythonReadsTheRecords(framing: NDJSONRecordReader.Framing) throws {
        var checked = 0
        for seed in UInt64(1)...4 {
            let records = generatedRecords(seed: seed, count: 40)
            #expect(try readByPython(NDJSONRecordWriter(framing: framing).write(records: records), framing) == records)
            checked += records.count
        }
        for (name, records, _) in try fixtureRecords() {
            #expect(
                try readByPython(NDJSONRecordWriter(framing: framing).write(records: records), framing) == records,
                "\(name)")
            checked += records.count
        }
        #expect(checked > 160)
    }
}

@Suite struct NDJSONBodyEncoderTests {
    static let records = JSONRecords(records: [["id": 1], ["id": 2, "tags": ["a"]]])

    @Test(arguments: [
        ("application/x-ndjson", "application/x-ndjson", false),
        ("application/jsonl; charset=utf-8", "application/jsonl", false),
        ("application/json-seq", "application/json-seq", true),
        ("application/geo+json-seq", "application/geo+json-seq", true),
    ])
    func theMediaTypeChoosesTheFraming(requested: String, written: String, isSequence: Bool) throws {
        let body = try registry.encode(Self.records, as: try #require(MediaType(requested)))
        #expect(body.contentType.description == written)
        #expect(body.serializerID == "ndjson")
        let rs = isSequence ? "\u{1E}" : ""
        #expect(String(decoding: body.body, as: UTF8.self) == "\(rs){\"id\":1}\n\(rs){\"id\":2,\"tags\":[\"a\"]}\n")
        let again = try registry.serialize(body.response(), as: JSONRecords.self)
        #expect(again == Self.records)
    }

    @Test func arraysOfValuesAndOfEncodables() throws {
        struct Event: Codable, Sendable, Equatable {
            var eventID: Int
            var at: Date
        }
        let events = [
            Event(eventID: 1, at: Date(timeIntervalSince1970: 0)),
            Event(eventID: 2, at: Date(timeIntervalSince1970: 86_400)),
        ]
        let options = EncodingOptions(keyEncodingStrategy: .convertToSnakeCase, dateEncodingStrategy: .iso8601)
        let body = try registry.encode(events, as: "application/x-ndjson", options: options)
        #expect(
            String(decoding: body.body, as: UTF8.self)
                == #"{"event_id":1,"at":"1970-01-01T00:00:00Z"}"# + "\n"
                + #"{"event_id":2,"at":"1970-01-02T00:00:00Z"}"#
                + "\n")
        let values: [JSONValue] = [1, "two"]
        #expect(try registry.encode(values, as: "application/json-seq").body == Data("\u{1E}1\n\u{1E}\"two\"\n".utf8))
    }

    @Test func whatIsNotAListOfRecordsIsNotWritten() throws {
        let encoder = NDJSONBodyEncoder()
        #expect(encoder.canEncode(Self.records))
        #expect(encoder.canEncode([1, 2]))
        #expect(!encoder.canEncode(JSONValue(["id": 1])))
        #expect(!encoder.canEncode("text"))
        #expect(!encoder.canEncode(["a": 1]))
        #expect(throws: SerializationError.self) {
            try encoder.encode("text", as: "application/x-ndjson", options: EncodingOptions())
        }
    }

    /// A record that cannot be written names its index first in the coding path.
    @Test func aBadRecordIsNamed() throws {
        struct Reading: Encodable, Sendable { var value: Double }
        let readings = [Reading(value: 1), Reading(value: .infinity)]
        do {
            _ = try registry.encode(readings, as: "application/x-ndjson")
            Issue.record("an infinite reading was written")
        } catch {
            #expect(error.code == .encodingFailed)
            #expect(error.codingPath == ["1", "value"])
            #expect(error.serializerID == "ndjson")
        }
    }

    @Test func negotiatesNDJSONFromAccept() throws {
        let body = try registry.encode(
            Self.records, accepting: AcceptHeader(parsing: "application/json-seq, */*;q=0.1"))
        #expect(body.contentType.description == "application/json-seq")
    }

    @Test func theCanonicalFormBuildsTheRecords() throws {
        let form = try Self.records.conformanceValue()
        #expect(try JSONRecords(conformanceValue: form) == Self.records)
        for bad: JSONValue in [[1], ["records": 1], ["records": [], "extra": 1]] {
            #expect(throws: SerializationError.self) { try JSONRecords(conformanceValue: bad) }
        }
    }
}

@Suite struct NDJSONChunkTests {
    /// A stream of values becomes one chunk per record, whose bytes are the whole body's.
    @Test func valuesBecomeOneChunkPerRecord() async throws {
        let records = generatedRecords(seed: 5, count: 12)
        let stream = AsyncStream<JSONValue> { continuation in
            for record in records { continuation.yield(record) }
            continuation.finish()
        }
        let writer = NDJSONRecordWriter(framing: .jsonSequence)
        var chunks: [Data] = []
        for await chunk in stream.encodedChunks(using: writer) { chunks.append(chunk) }
        #expect(chunks.count == records.count)
        #expect(chunks.reduce(Data(), +) == writer.write(records: records))
    }

    @Test func encodableValuesBecomeChunksUntilOneFails() async throws {
        let stream = AsyncStream<Double> { continuation in
            for value in [1.5, 2, .nan, 4] { continuation.yield(value) }
            continuation.finish()
        }
        var chunks: [String] = []
        await #expect(throws: SerializationError.self) {
            for try await chunk in stream.encodedChunks() { chunks.append(String(decoding: chunk, as: UTF8.self)) }
        }
        #expect(chunks == ["1.5\n", "2\n"])
    }
}
