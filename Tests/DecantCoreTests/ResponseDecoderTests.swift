import Foundation
import Testing

@testable import DecantCore

/// A test decoder backed by Foundation's `JSONDecoder`, standing in for a format module's decoder.
struct FoundationJSONTestDecoder: ResponseDecoder {
    var id: SerializerID { "testJSON" }
    var mediaRanges: [MediaRange] { [MediaRange("application/json"), MediaRange("application/*+json")] }

    func decode<T: Decodable>(_ type: T.Type, from response: Response) throws -> T {
        do {
            return try JSONDecoder().decode(T.self, from: response.body)
        } catch {
            throw SerializationError(code: .decodingFailed, message: "\(error)", underlying: error)
        }
    }
}

struct DecodingTestFactory: ResponseDecoderFactory {
    var id: SerializerID { "testJSON" }
    var summary: String { "Foundation-backed JSON for tests." }
    var mediaRanges: [MediaRange] { FoundationJSONTestDecoder().mediaRanges }
    func makeSerializer(options: Void) -> DataResponseSerializer { DataResponseSerializer() }
    func makeResponseDecoder(configuration: ConfigurationOptions) throws -> any ResponseDecoder {
        FoundationJSONTestDecoder()
    }
}

@Suite struct ResponseDecoderTests {
    struct User: Decodable, Sendable, Equatable {
        let id: Int
        let name: String
    }

    static let registry: SerializerRegistry = {
        var registry = SerializerRegistry()
        registry.install(SerializerModule(name: "Tags", factories: [TaggingFactory("tags", "*/*")]))
        registry.install(SerializerModule(name: "TestJSON", factories: [DecodingTestFactory()]))
        return registry
    }()

    @Test func decodesWithTheDecoderOfTheResolvedFormat() throws {
        let response = Response.make(type: "application/vnd.api+json", body: #"{"id": 7, "name": "Ada"}"#)
        #expect(try Self.registry.decode(User.self, from: response) == User(id: 7, name: "Ada"))
    }

    @Test func emptyResponsesDecodeToOptionalsAndEmptyResponse() throws {
        #expect(try Self.registry.decode(User?.self, from: .make(204)) == nil)
        #expect(
            try Self.registry.decode(EmptyResponse.self, from: .make(200, type: "application/json")) == EmptyResponse())
        let error = #expect(throws: SerializationError.self) {
            try Self.registry.decode(User.self, from: .make(204))
        }
        #expect(error?.code == .emptyBody)
        #expect(error?.message.contains("User?") == true)
    }

    @Test func decodingErrorsKeepTheUnderlyingError() {
        let error = #expect(throws: SerializationError.self) {
            try Self.registry.decode(User.self, from: .make(type: "application/json", body: #"{"id": "x"}"#))
        }
        #expect(error?.code == .decodingFailed)
        #expect(error?.underlying is DecodingError)
        #expect(error?.serializerID == "testJSON")
    }

    @Test func statusErrorsComeFirst() {
        let error = #expect(throws: SerializationError.self) {
            try Self.registry.decode(User.self, from: .make(404, type: "application/json", body: #"{"id": 1}"#))
        }
        #expect(error?.code == .unacceptableStatusCode)
        let unknown = #expect(throws: SerializationError.self) {
            try Self.registry.decode(User.self, from: .make(500, type: "text/html", body: "<h1>oops</h1>"))
        }
        #expect(unknown?.code == .unacceptableStatusCode)
    }

    @Test func typesWithoutADecodingFormatSayWhatIsSupported() {
        let error = #expect(throws: SerializationError.self) {
            try Self.registry.decode(User.self, from: .make(type: "text/csv", body: "id,name"))
        }
        #expect(error?.code == .noSerializer)
        #expect(error?.message.contains("text/csv") == true)
        #expect(error?.message.contains("application/json") == true)
    }
}
