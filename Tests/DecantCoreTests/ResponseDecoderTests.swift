import DecantTestSupport
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

struct DecodingTestFactory: SerializerFactory {
    var format: MediaFormat {
        MediaFormat(
            id: "testJSON", mediaRanges: FoundationJSONTestDecoder().mediaRanges,
            summary: "Foundation-backed JSON for tests.")
    }
    func makeSerializer(options: Void) -> DataResponseSerializer { DataResponseSerializer() }
    func makeDecoder(options: Void) -> (any ResponseDecoder)? { FoundationJSONTestDecoder() }
}

/// A format whose decoder cannot be built: the registry must keep the error and report it, never drop the format.
struct BrokenDecoderFactory: SerializerFactory {
    var format: MediaFormat {
        MediaFormat(id: "brokenDecoder", mediaRanges: ["application/x-broken"], summary: "Fails to build (tests).")
    }
    func makeSerializer(options: Void) -> DataResponseSerializer { DataResponseSerializer() }
    func makeDecoder(options: Void) throws -> (any ResponseDecoder)? {
        throw SerializationError(code: .invalidOption, message: "The decoder needs a schema file that is missing.")
    }
}

/// A format whose decoder says other ranges (and another id) than the format: the registry decodes under the format's.
struct NarrowDecoderFactory: SerializerFactory {
    var format: MediaFormat {
        MediaFormat(id: "wideJSON", mediaRanges: ["application/*"], summary: "A decoder narrower than its format.")
    }
    func makeSerializer(options: Void) -> DataResponseSerializer { DataResponseSerializer() }
    func makeDecoder(options: Void) -> (any ResponseDecoder)? { FoundationJSONTestDecoder() }
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

    @Test func aDecoderThatFailedToBuildIsReportedWithItsError() throws {
        let registry = SerializerRegistry(
            modules: [SerializerModule(name: "Broken", factories: [BrokenDecoderFactory()])])
        let entry = try #require(registry.entry(for: "brokenDecoder"))
        #expect(entry.decoderBuildError?.message.contains("schema file") == true)
        #expect(entry.capabilities == [.value])
        let error = #expect(throws: SerializationError.self) {
            try registry.decode(User.self, from: .make(type: "application/x-broken", body: "{}"))
        }
        #expect(error?.code == .invalidOption)
        #expect(error?.message.contains("'brokenDecoder' would decode User") == true)
        #expect(error?.message.contains("schema file that is missing") == true)
    }

    @Test func decodingGoesByTheFormatsRangesAndIdWhateverTheDecoderSays() throws {
        let registry = SerializerRegistry(
            modules: [SerializerModule(name: "Wide", factories: [NarrowDecoderFactory()])])
        #expect(registry.entry(for: "wideJSON")?.capabilities == [.value, .decodable])
        // The decoder itself claims only JSON types; the format claims application/*, so resolution and decoding
        // agree on application/x-user.
        let response = Response.make(type: "application/x-user", body: #"{"id": 1, "name": "Grace"}"#)
        #expect(try registry.decode(User.self, from: response) == User(id: 1, name: "Grace"))
        let error = #expect(throws: SerializationError.self) {
            try registry.decode(User.self, from: .make(type: "application/x-user", body: "[1]"))
        }
        #expect(error?.serializerID == "wideJSON")
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
