import Decant
import DecantConformance
import DecantJSON
import Foundation
import Testing

/// The round-trip law of the kit (issue #38 item 4): a format that writes must read back what it wrote.
@Suite struct RoundTripTests {
    /// Reads `text/x-note` bodies as their UTF-8 text; writes strings back, faithfully or (when `lossy`) lowercased.
    struct NoteFactory: SerializerFactory {
        var lossy: Bool
        var format: MediaFormat {
            MediaFormat(id: "acme.note", mediaRanges: ["text/x-note"], summary: "Notes (tests).")
        }
        func makeSerializer(options: Void) -> NoteSerializer { NoteSerializer() }
        func makeEncoder(options: Void) -> (any BodyEncoder)? { NoteEncoder(lossy: lossy) }
    }

    struct NoteSerializer: ResponseSerializer {
        var id: SerializerID { "acme.note" }
        var mediaRanges: [MediaRange] { ["text/x-note"] }
        func serialize(_ response: Response) throws -> String { String(decoding: response.body, as: UTF8.self) }
    }

    struct NoteEncoder: BodyEncoder {
        var lossy: Bool
        var id: SerializerID { "acme.note" }
        var mediaRanges: [MediaRange] { ["text/x-note"] }
        func canEncode(_ value: any Sendable) -> Bool { value is String }
        func encode(
            _ value: any Sendable, as mediaType: MediaType, options: EncodingOptions
        ) throws(SerializationError) -> EncodedBody {
            guard let text = value as? String else { throw unsupportedValue(value, as: mediaType) }
            return EncodedBody(
                body: Data((lossy ? text.lowercased() : text).utf8), contentType: mediaType, serializerID: id)
        }
    }

    static func results(
        lossy: Bool, expectation: String = #"{"expect": {"value": "Hello"}}"#
    ) throws
        -> [ConformanceResult]
    {
        let registry = SerializerRegistry(modules: [
            SerializerModule(name: "AcmeNote", factories: [NoteFactory(lossy: lossy)])
        ])
        let fixture = Fixture(
            area: "note", name: "hello",
            raw: Data("HTTP/1.1 200 OK\r\nContent-Type: text/x-note\r\nContent-Length: 5\r\n\r\nHello".utf8),
            expectation: try JSONParser().parse(expectation), url: URL(fileURLWithPath: "/tmp/hello.http"))
        return ConformanceRunner(registry: registry, perturbs: false).run(fixture)
    }

    @Test func aFaithfulFormatPassesTheRoundTrip() throws {
        let results = try Self.results(lossy: false)
        #expect(results.map(\.perturbation) == [nil, "roundTrip"])
        #expect(results.allSatisfy { $0.passed })
    }

    @Test func aLossyFormatFailsItWithThePlaceOfTheDifference() throws {
        let results = try Self.results(lossy: true)
        let roundTrip = try #require(results.first { $0.perturbation == "roundTrip" })
        #expect(results.first?.passed == true)
        #expect(
            roundTrip.failure
                == #"writing as text/x-note and reading back changed the value at the top level: expected "Hello", got "hello""#
        )
    }

    @Test func aFixtureCanOptOut() throws {
        let results = try Self.results(lossy: true, expectation: #"{"roundTrip": false, "expect": {"value": "Hello"}}"#)
        #expect(results.map(\.perturbation) == [nil])
    }

    @Test func aFormatThatDoesNotWriteHasNoRoundTrip() throws {
        let registry = SerializerRegistry.standard
        let fixture = Fixture(
            area: "xml", name: "doc",
            raw: Data("HTTP/1.1 200 OK\r\nContent-Type: image/gif\r\nContent-Length: 0\r\n\r\n".utf8),
            expectation: try JSONParser().parse(#"{"expect": {"error": {"code": "emptyBody"}}, "emptyBody": "error"}"#),
            url: URL(fileURLWithPath: "/tmp/doc.http"))
        #expect(ConformanceRunner(registry: registry, perturbs: false).run(fixture).map(\.perturbation) == [nil])
    }
}
