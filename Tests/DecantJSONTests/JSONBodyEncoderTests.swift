import DecantCore
import Foundation
import Testing

@testable import DecantJSON

/// The `json` format's `BodyEncoder`: what it accepts, the content type it reports, and how a registry with only JSON
/// installed uses it.
@Suite struct JSONBodyEncoderTests {
    let encoder = JSONBodyEncoder()

    @Test func encodesJSONValuesAndEncodableValuesOnly() {
        #expect(encoder.canEncode(JSONValue.object([("a", 1)])))
        #expect(encoder.canEncode(JSONValueEncoderTests.user))
        #expect(encoder.canEncode([1, 2]))
        #expect(encoder.canEncode(Int?.none))
        struct Opaque: Sendable {}
        #expect(!encoder.canEncode(Opaque()))
        #expect {
            try encoder.encode(Opaque(), as: "application/json", options: EncodingOptions())
        } throws: { error in
            (error as? SerializationError)?.code == .unsupportedValue
        }
    }

    /// The content type is the requested type's essence, without `charset` (RFC 8259 §11 defines none).
    @Test(arguments: [
        ("application/json", "application/json"), ("application/json; charset=utf-8", "application/json"),
        ("application/vnd.api+json", "application/vnd.api+json"), ("Text/JSON", "text/json"),
    ])
    func contentTypeIsTheRequestedEssence(_ requested: String, _ expected: String) throws {
        let body = try encoder.encode(JSONValue.array([1]), as: MediaType(requested)!, options: EncodingOptions())
        #expect(body.contentType.description == expected)
        #expect(body.contentType.parameters.isEmpty)
        #expect(body.serializerID == "json")
    }

    /// A `JSONValue` keeps its numbers' text and its member order, and honours `outputFormatting`.
    @Test func jsonValuesAreWrittenByTheValueWriter() throws {
        let value = try JSONParser().parse(Data(#"{"b":1.50,"a":[1e400,{}],"c":"x/y"}"#.utf8))
        let compact = try encoder.encode(value, as: "application/json", options: EncodingOptions())
        #expect(String(decoding: compact.body, as: UTF8.self) == #"{"b":1.50,"a":[1e400,{}],"c":"x/y"}"#)
        let sorted = try encoder.encode(
            value, as: "application/json", options: EncodingOptions(outputFormatting: [.sortedKeys, .prettyPrinted]))
        #expect(sorted.body == value.jsonData(options: [.sortedKeys, .prettyPrinted]))
    }

    /// `Encodable` values go through `JSONValueEncoder` with the options' strategies; errors carry the media type.
    @Test func encodableValuesUseTheStrategies() throws {
        let options = EncodingOptions(keyEncodingStrategy: .convertToSnakeCase, outputFormatting: [.sortedKeys])
        let body = try encoder.encode(
            SnakeKeys(
                userID: 1, myURLKey: "u", oneTwoThree: 3, _leading: 4, trailing_: 5, plain: 6, nested: [:],
                intKeyed: [:]), as: "application/json", options: options)
        #expect(
            String(decoding: body.body, as: UTF8.self)
                == #"{"_leading":4,"int_keyed":{},"my_url_key":"u","nested":{},"one_two_three":3,"plain":6,"#
                + #""trailing_":5,"user_id":1}"#)
        #expect {
            try encoder.encode([Double.nan], as: "application/problem+json", options: EncodingOptions())
        } throws: { error in
            let error = error as! SerializationError
            return error.code == .encodingFailed && error.mediaType?.essence == "application/problem+json"
                && error.codingPath == ["0"]
        }
    }

    /// The factory returns the encoder, and a registry with JSON installed writes and reads back.
    @Test func registryWithJSONWritesAndReadsBack() throws {
        var registry = SerializerRegistry()
        registry.install(.json)
        let body = try registry.encode(JSONValueEncoderTests.user, as: "application/json")
        #expect(body.contentType.description == "application/json")
        let decoded = try registry.decode(EncodingUser.self, from: body.response())
        #expect(decoded == JSONValueEncoderTests.user)
        let value: JSONValue = ["id": 1, "tags": ["a"]]
        let written = try registry.encode(value, as: "application/vnd.api+json")
        #expect(written.contentType.description == "application/vnd.api+json")
        #expect(try registry.serialize(written.response()).value as? JSONValue == value)
    }
}
