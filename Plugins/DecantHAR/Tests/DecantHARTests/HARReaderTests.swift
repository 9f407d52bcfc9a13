import Decant
import DecantConformance
import DecantHAR
import Foundation
import Testing

/// The HAR files of `Plugins/DecantHAR/cases`, written by `fixtures.py` with Python's `json` as browsers export them,
/// against the records Python computed for them (`cases/expectations.json`).
@Suite struct HARCaseTests {
    static let expectations: [(file: String, records: JSONValue)] = {
        guard let data = try? Data(contentsOf: HARTestSupport.cases.appendingPathComponent("expectations.json")),
            let value = try? JSONParser().parse(data)
        else { return [] }
        return value.members.map { (file: $0.key, records: $0.value) }
    }()

    static let files = expectations.map(\.file)

    @Test func casesArePresent() {
        #expect(Self.files.count == 5)
    }

    /// Every file gives Python's records, fed in chunks of 1 byte, 7 bytes or whole.
    @Test(arguments: files, [1, 7, Int.max])
    func readsLikePython(file: String, chunk: Int) throws {
        let expected = try #require(Self.expectations.first { $0.file == file }?.records)
        let body = try Data(contentsOf: HARTestSupport.cases.appendingPathComponent(file))
        let records = try HARTestSupport.read([body], chunk: chunk)
        let actual = try HARTestSupport.canonical(records)
        #expect(actual == expected, "\(file) in chunks of \(chunk)")
    }

    /// The details the canonical form leaves out: method, reason phrase, URL, and the Content-Type a decoder sees.
    @Test func responsesCarryRequestDetails() throws {
        let body = try Data(contentsOf: HARTestSupport.cases.appendingPathComponent("chrome.har"))
        let records = try HARTestSupport.read([body])
        #expect(records.count == 8)
        let html = try records[0].response.get()
        #expect(html.requestMethod == "GET")
        #expect(html.reasonPhrase == nil)  // HTTP/2: an empty statusText
        #expect(html.url?.absoluteString == "https://example.com/")
        #expect(html.contentType?.charset == "utf-8")
        let json = try records[2].response.get()
        #expect(json.reasonPhrase == "OK")
        #expect(json.headers.firstValue(for: "Content-Encoding") == nil)
        let beacon = try records[5].response.get()
        #expect(beacon.requestMethod == "POST")
        #expect(beacon.headers.firstValue(for: "Content-Type") == nil)  // mimeType x-unknown is not a media type
        let css = try records[6].response.get()
        #expect(css.headers.firstValue(for: "Content-Type") == "text/css;charset=utf-8")  // from content.mimeType
    }

    /// Each response decodes through the registry by its own media type: the JSON body as JSON, the Latin-1 text as
    /// the UTF-8 text it now is, the PNG as a 1x1 image (Python's json and str values).
    @Test func responsesDecodeThroughTheRegistry() throws {
        let body = try Data(contentsOf: HARTestSupport.cases.appendingPathComponent("chrome.har"))
        let records = try HARTestSupport.registry.serialize(
            Response(headers: ["Content-Type": "application/har+json"], body: body), as: ArchivedResponses.self
        ).responses
        let json = try HARTestSupport.registry.serialize(try records[2].response.get(), as: JSONValue.self)
        #expect(json == (try JSONParser().parse(#"{"id": 7, "name": "Zo\u00eb", "tags": ["a", "b"], "ratio": 0.25}"#)))
        let text = try HARTestSupport.registry.serialize(try records[3].response.get(), as: DecodedText.self)
        #expect(text.text == "caf\u{e9} cr\u{e8}me br\u{fb}l\u{e9}e, 10 \u{a3}\n")
        let image = try HARTestSupport.registry.serialize(try records[1].response.get(), as: Image.self)
        #expect(image.width == 1 && image.height == 1)
    }

    /// A stream through the registry hands out the same records as the whole body.
    @Test func streamThroughTheRegistry() async throws {
        let body = try Data(contentsOf: HARTestSupport.cases.appendingPathComponent("chrome.har"))
        let chunks = stride(from: 0, to: body.count, by: 500).map { body[$0..<min(body.count, $0 + 500)] }
        let stream = try await HARTestSupport.registry.records(
            Response(headers: ["Content-Type": "application/har+json"]), body: ChunkedBody(chunks.map { Data($0) }),
            as: ArchivedResponse.self)
        var records: [ArchivedResponse] = []
        for try await record in stream { records.append(record) }
        let expected = try #require(Self.expectations.first { $0.file == "chrome.har" }?.records)
        #expect(try HARTestSupport.canonical(records) == expected)
    }
}

@Suite struct HARConformanceTests {
    static let fixtures: [Fixture] = {
        guard let root = FixtureLoader.fixturesDirectory(from: #filePath) else { return [] }
        return (try? FixtureLoader.fixtures(in: root.appendingPathComponent("har"))) ?? []
    }()

    /// Every fixture of Fixtures/har (written by Plugins/DecantHAR/fixtures.py) passes with the plugin installed.
    @Test func fixtures() throws {
        try ConformanceRunner(registry: HARTestSupport.registry).check(Self.fixtures)
        #expect(Self.fixtures.count >= 6)
    }

    /// The serializer rules every format must follow, with fixture bodies as samples.
    @Test func followsTheSerializerRules() throws {
        try SerializerRules(samplesFrom: Self.fixtures).check(.har)
    }

    /// `application/har+json` resolves to `har`, not to JSON's `+json` range; the registry has no conflicts.
    @Test func mediaTypeResolvesToHAR() throws {
        let registry = HARTestSupport.registry
        #expect(registry.resolve(MediaType("application/har+json")).chosen?.id == "har")
        #expect(registry.resolve(MediaType("application/json")).chosen?.id == "json")
        #expect(registry.conflicts.isEmpty)
    }

    /// Configuration options reach the serializer; unknown and ill-typed ones are reported.
    @Test func factoryOptions() throws {
        let factory = HARSerializerFactory()
        let serializer = try factory.makeSerializer(configuration: ["maxRecordBytes": 100, "maxDepth": 10])
        #expect(serializer.maxRecordBytes == 100 && serializer.maxDepth == 10)
        let unknown = #expect(throws: SerializationError.self) {
            try factory.makeSerializer(configuration: ["maxRecords": 3])
        }
        #expect(unknown?.code == .unknownOption)
        let invalid = #expect(throws: SerializationError.self) {
            try factory.makeSerializer(configuration: ["maxDepth": "deep"])
        }
        #expect(invalid?.code == .invalidOption)
    }
}
