import Decant
import DecantConformance
import DecantWARC
import Foundation
import Testing

@Suite struct WARCStreamingTests {
    private static let head = Response(status: 200, headers: ["Content-Type": "application/warc"])

    /// The README's example: records streamed through the registry, each response decoded through the registry.
    /// The values are the writer's inputs in fixtures.py (JSON written by Python's json, windows-1252 HTML, a 404
    /// problem document), not Decant's output.
    @Test(arguments: ["plain-warc-1.1", "gzip-warc-1.0"])
    func decodesEachResponseThroughTheRegistry(name: String) async throws {
        let registry = WARCTestSupport.registry
        let body = try WARCTestSupport.archive(name)
        let chunks = ChunkedBody(body, seed: 7, maxChunk: 500)
        var seen: [String] = []
        for try await archived in try await registry.records(Self.head, body: chunks, as: ArchivedResponse.self) {
            let response = try archived.response.get()
            #expect(response.url?.absoluteString == archived.targetURI)
            switch archived.index {
            case 0:
                let value = try registry.serialize(response, as: JSONValue.self)
                #expect(value == ["id": 7, "name": "Décant", "tags": ["warc", "archive"]])
            case 1:
                let text = try registry.serialize(response, as: DecodedText.self)
                #expect(text.text == "<!doctype html><title>Bonjour</title><p>Déjà vu</p>")
            default:
                let error = #expect(throws: SerializationError.self) { try registry.serialize(response) }
                #expect(error?.code == .unacceptableStatusCode)
                #expect(error?.status == 404)
            }
            seen.append(archived.targetURI ?? "")
        }
        #expect(
            seen == [
                "https://example.com/api/item/7", "https://example.com/fr", "https://example.com/missing",
            ])
    }

    /// A gzip content coding inside the archived message is left for the registry's content decoding stage: the
    /// record keeps the gzip bytes, and decoding the response gives the text fixtures.py compressed.
    @Test func contentCodingsAreDecodedByTheRegistry() throws {
        let registry = WARCTestSupport.registry
        let archive = try WARCTestSupport.archive("gzip-content-coding")
        let responses = try WARCResponseSerializer().serialize(
            Response(status: 200, headers: ["Content-Type": "application/warc"], body: archive))
        let first = try #require(responses.responses.first)
        let response = try first.response.get()
        #expect(response.headers["Content-Encoding"] == "gzip")
        #expect(response.body.starts(with: [0x1F, 0x8B]))
        let text = try registry.serialize(response, as: DecodedText.self)
        #expect(text.text == String(repeating: "Une réponse compressée. ", count: 20))
    }
}
