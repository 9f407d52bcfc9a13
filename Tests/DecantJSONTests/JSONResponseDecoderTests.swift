import DecantCore
import Foundation
import Testing

@testable import DecantJSON

/// `Decodable` decoding of responses: `JSONResponseDecoder`, the factory's decoder and `SerializerRegistry.decode`.
@Suite struct JSONResponseDecoderTests {
    struct User: Codable, Equatable, Sendable {
        var id: Int
        var name: String
        var createdAt: Date?
    }

    static func response(
        _ status: Int = 200, type: String? = "application/json", body: String = "", method: String? = nil
    ) -> Response {
        JSONResponseSerializerTests.response(status, type: type, body: body, method: method)
    }

    var registry: SerializerRegistry {
        var registry = SerializerRegistry()
        registry.install(.json)
        return registry
    }

    @Test(arguments: [
        "application/json", "application/vnd.api+json", "application/problem+json; charset=utf-8", "text/json",
        "Application/JSON; Charset=UTF-8", "text/javascript",
    ])
    func registryDecodesByMediaType(type: String) throws {
        let response = Self.response(type: type, body: #"{"id": 1, "name": "Ada"}"#)
        #expect(try registry.decode(User.self, from: response) == User(id: 1, name: "Ada"))
        #expect(
            try registry.decode([String: Int?].self, from: Self.response(type: type, body: #"{"a": null}"#)) == [
                "a": nil
            ])
    }

    @Test func registryGivesNilForEmptyResponses() throws {
        for response in [
            Self.response(204, type: nil), Self.response(body: ""), Self.response(body: " \n"),
            Self.response(body: #"{"id": 1, "name": "Ada"}"#, method: "HEAD"),
        ] {
            #expect(try registry.decode(User?.self, from: response) == nil)
        }
        let error = #expect(throws: SerializationError.self) {
            try registry.decode(User.self, from: Self.response(204, type: nil))
        }
        #expect(error?.code == .emptyBody)
    }

    @Test func registryReportsTheStatusBeforeDecoding() throws {
        let response = Self.response(404, type: "application/problem+json", body: #"{"title": "Not Found"}"#)
        let error = #expect(throws: SerializationError.self) { try registry.decode(User.self, from: response) }
        #expect(error?.code == .unacceptableStatusCode)
        #expect(error?.status == 404)
        #expect(error?.response?.body == response.body)
    }

    @Test func registryReportsDecodingErrorsWithTheResponse() throws {
        let body = #"{"id": "1", "name": "Ada"}"#
        let response = Self.response(type: "application/vnd.api+json", body: body)
        let error = #expect(throws: SerializationError.self) { try registry.decode(User.self, from: response) }
        let failure = try #require(error)
        let decoding = failure.code == .decodingFailed ? failure : failure.attempts.first { $0.code == .decodingFailed }
        #expect(decoding?.codingPath == ["id"])
        #expect(decoding?.offset == 7)
        #expect(decoding?.serializerID == "json")
        #expect(decoding?.response?.body == Data(body.utf8))
        #expect(decoding?.mediaType?.essence == "application/vnd.api+json")
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(User.self, from: Data(body.utf8)) }
    }

    @Test func registryRejectsMediaTypesWithoutDecoders() {
        let error = #expect(throws: SerializationError.self) {
            try registry.decode(User.self, from: Self.response(type: "text/plain", body: "{}"))
        }
        #expect(error?.code == .noSerializer)
    }

    @Test func chainsUseTheDecodersStrategies() throws {
        var decoder = JSONValueDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        decoder.dateDecodingStrategy = .iso8601
        let chain = ResponseChain(DecodableResponseSerializer<User>(decoder: JSONResponseDecoder(decoder: decoder)))
        let response = Self.response(body: #"{"id": 2, "name": "Bo", "created_at": "2024-05-01T12:00:00Z"}"#)
        let user = try chain.serialize(response)
        #expect(user == User(id: 2, name: "Bo", createdAt: Date(timeIntervalSince1970: 1_714_564_800)))
        let optional = ResponseChain(DecodableResponseSerializer<User?>(decoder: JSONResponseDecoder(decoder: decoder)))
        #expect(try optional.serialize(Self.response(204, type: nil)) == nil)
    }

    @Test func detectsTheBodysEncoding() throws {
        let json = #"{"id": 3, "name": "Zoë"}"#
        for body in [
            json.data(using: .utf16)!, json.data(using: .utf32LittleEndian)!,
            Data([0xEF, 0xBB, 0xBF]) + Data(json.utf8),
        ] {
            var headers = HTTPHeaderFields()
            headers.append(name: "Content-Type", value: "application/json; charset=iso-8859-1")
            let response = Response(headers: headers, body: body)
            #expect(try JSONResponseDecoder().decode(User.self, from: response) == User(id: 3, name: "Zoë"))
            #expect(try registry.decode(User.self, from: response).name == "Zoë")
        }
    }

    @Test func factoryBuildsTheDecoderFromConfiguration() throws {
        let factory = JSONSerializerFactory()
        let plain = try #require(try factory.makeDecoder(configuration: [:]) as? JSONResponseDecoder)
        #expect(plain.id == "json")
        #expect(plain.mediaRanges == MediaFormat.json.mediaRanges)
        let configured = try #require(
            try factory.makeDecoder(
                configuration: [
                    "removesKeysWithNullValues": true, "maxDepth": 3, "mediaRanges": ["application/x-user"],
                ]
            ) as? JSONResponseDecoder)
        #expect(configured.decoder.parsingOptions.removesKeysWithNullValues)
        #expect(configured.decoder.parsingOptions.maxDepth == 3)
        #expect(configured.mediaRanges.map(\.description) == ["application/x-user"])
        let unknown = #expect(throws: SerializationError.self) {
            try factory.makeDecoder(configuration: ["keyDecodingStrategy": "snake"])
        }
        #expect(unknown?.code == .unknownOption)
        let invalid = #expect(throws: SerializationError.self) {
            try factory.makeDecoder(configuration: ["maxDepth": "deep"])
        }
        #expect(invalid?.code == .invalidOption)
    }

    @Test func parseErrorsKeepTheirCodes() {
        let response = Self.response(body: #"{"id": 1,"#)
        let error = #expect(throws: SerializationError.self) {
            try JSONResponseDecoder().decode(User.self, from: response)
        }
        #expect(error?.code == .invalidBody)
        #expect(error?.offset == 9)
        #expect(error?.response != nil)
    }
}
