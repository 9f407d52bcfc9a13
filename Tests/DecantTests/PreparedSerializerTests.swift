import Decant
import Foundation
import Testing

/// `SerializerRegistry.prepare(for:as:)`: resolved once, then the same outcome as the registry's per-call path for
/// every response of the prepared type, and clear errors for the rest.
@Suite struct PreparedSerializerTests {
    static let json = MediaType(type: "application", subtype: "json")

    /// Responses of the prepared type, or close to it, each of which exercises one stage.
    static let responses: [(String, Response)] = [
        (
            "object",
            Response(status: 200, headers: ["Content-Type": "application/json"], body: Data(#"{"a":[1,2.5,"x"]}"#.utf8))
        ),
        (
            "charset",
            Response(
                status: 200, headers: ["Content-Type": "application/json; charset=utf-8"], body: Data("[true]".utf8))
        ),
        (
            "syntax error",
            Response(status: 200, headers: ["Content-Type": "application/json"], body: Data("{\"a\":".utf8))
        ),
        (
            "404",
            Response(status: 404, headers: ["Content-Type": "application/json"], body: Data(#"{"error":"gone"}"#.utf8))
        ),
        ("204", Response(status: 204, headers: ["Content-Type": "application/json"], body: Data())),
        ("empty 200", Response(status: 200, headers: ["Content-Type": "application/json"], body: Data())),
        (
            "gzip",
            Response(
                status: 200, headers: ["Content-Type": "application/json", "Content-Encoding": "gzip"],
                body: Data([
                    0x1F, 0x8B, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0x8B, 0x8E, 0x05, 0x00, 0x29, 0xBB,
                    0x4C, 0x0D, 0x02, 0x00, 0x00, 0x00,
                ]))
        ),
        (
            "encoded but plain",
            Response(
                status: 200, headers: ["Content-Type": "application/json", "Content-Encoding": "gzip"],
                body: Data("[1]".utf8))
        ),
    ]

    /// What the registry's per-call typed path gives, as a comparable outcome.
    static func outcome(_ body: () throws(SerializationError) -> JSONValue) -> String {
        do {
            return "value: \(try body())"
        } catch {
            return "error: \(error.code) \(error.serializerID?.rawValue ?? "-") \(error.response?.status ?? 0) "
                + "\(error.errorValue.map { "\($0)" } ?? "no error value")"
        }
    }

    @Test(arguments: responses.map(\.0))
    func preparedAgreesWithThePerCallPath(name: String) throws {
        let response = try #require(Self.responses.first { $0.0 == name }?.1)
        let registry = SerializerRegistry.standard
        let prepared = try registry.prepare(for: Self.json, as: JSONValue.self)
        let perCall = Self.outcome { () throws(SerializationError) in
            try registry.serialize(response, as: JSONValue.self)
        }
        let once = Self.outcome { () throws(SerializationError) in try prepared.serialize(response) }
        #expect(once == perCall)
    }

    @Test func preparedResolvesOnceAndReportsItsChoice() throws {
        let prepared = try SerializerRegistry.standard.prepare(for: Self.json, as: JSONValue.self)
        #expect(prepared.id == "json")
        #expect(prepared.resolution.chosen?.id == "json")
        #expect(prepared.mediaRanges == [MediaRange("application/json")])
    }

    @Test func aResponseOfAnotherTypeIsRejectedByTheMediaTypeStage() throws {
        let prepared = try SerializerRegistry.standard.prepare(for: Self.json, as: JSONValue.self)
        let response = Response(status: 200, headers: ["Content-Type": "text/html"], body: Data("<p>hi</p>".utf8))
        let error = #expect(throws: SerializationError.self) { try prepared.serialize(response) }
        #expect(error?.code == .unacceptableMediaType)
        #expect(error?.response?.body == response.body)
    }

    @Test func aResponseWithoutContentTypeIsTried() throws {
        let prepared = try SerializerRegistry.standard.prepare(for: Self.json, as: JSONValue.self)
        let value = try prepared.serialize(Response(status: 200, headers: [:], body: Data("[1,2]".utf8)))
        #expect(value.count == 2)
    }

    @Test func anErrorBodyIsDecodedByTheSerializerForItsOwnType() throws {
        let prepared = try SerializerRegistry.standard.prepare(for: Self.json, as: JSONValue.self)
        let response = Response(
            status: 500, headers: ["Content-Type": "application/xml"], body: Data("<oops code='7'/>".utf8))
        let error = #expect(throws: SerializationError.self) { try prepared.serialize(response) }
        #expect(error?.code == .unacceptableStatusCode)
        #expect(error?.errorValue is XMLTree)
    }

    @Test func nothingToPrepareForAnUnknownType() throws {
        let error = #expect(throws: SerializationError.self) {
            try SerializerRegistry.standard.prepare(
                for: MediaType(type: "application", subtype: "x-nothing"), as: JSONValue.self)
        }
        #expect(error?.code == .noSerializer)
        #expect(error?.message.contains("application/x-nothing") == true)
    }

    @Test func aDecodableTypeIsPointedAtDecode() throws {
        struct User: Decodable, Sendable { var name: String }
        let error = #expect(throws: SerializationError.self) {
            try SerializerRegistry.standard.prepare(for: Self.json, as: User.self)
        }
        #expect(error?.code == .unexpectedOutputType)
        #expect(error?.message.contains("registry.decode(User.self") == true)
    }

    @Test func theNextCandidateOfTheSameTypeIsTriedAndBothErrorsKept() throws {
        // Two serializers of the same output for one type: the first fails, the second produces the value.
        let failing = AnyResponseSerializer<String>(id: "acme.first", mediaRanges: [MediaRange("text/x-two")]) {
            _ in throw SerializationError(code: .invalidBody, message: "first refuses")
        }
        let working = AnyResponseSerializer<String>(id: "acme.second", mediaRanges: [MediaRange("text/x-two")]) {
            String(decoding: $0.body, as: UTF8.self)
        }
        var registry = SerializerRegistry()
        registry.install(
            SerializerModule(
                name: "Acme", factories: [FixedFactory(serializer: failing), FixedFactory(serializer: working)]))
        let prepared = try registry.prepare(for: MediaType(type: "text", subtype: "x-two"), as: String.self)
        let response = Response(status: 200, headers: ["Content-Type": "text/x-two"], body: Data("two".utf8))
        #expect(try prepared.serialize(response) == "two")
        #expect(try registry.serialize(response, as: String.self) == "two")
    }
}

/// A factory that hands out one fixed serializer (tests).
struct FixedFactory: SerializerFactory {
    var format: MediaFormat {
        MediaFormat(id: serializer.id, mediaRanges: serializer.mediaRanges, summary: "A fixed serializer (tests).")
    }
    var serializer: AnyResponseSerializer<String>
    func makeSerializer(options: Void) -> AnyResponseSerializer<String> { serializer }
}
