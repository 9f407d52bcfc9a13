import Decant
import Foundation
import Testing

/// A record an API answers with.
struct Shipment: Codable, Sendable, Equatable {
    var id: Int
    var destination: String
    var weightKilograms: Double
    var shippedAt: Date?
    var tags: [String]
}

/// The standard registry writes JSON bodies through the `json` format's encoder: by media type and by `Accept`
/// negotiation, and what it writes reads back.
@Suite struct JSONEncodingRegistryTests {
    let registry = SerializerRegistry.standard
    let shipment = Shipment(
        id: 7, destination: "Zürich / HB", weightKilograms: 2.5, shippedAt: Date(timeIntervalSince1970: 1_700_000_000),
        tags: ["fragile"])

    @Test func encodesByMediaType() throws {
        let value: JSONValue = ["id": 1, "name": "Ada", "ratio": 0.25]
        let body = try registry.encode(value, as: "application/json")
        #expect(body.contentType.description == "application/json")
        #expect(body.serializerID == "json")
        #expect(String(decoding: body.body, as: UTF8.self) == #"{"id":1,"name":"Ada","ratio":0.25}"#)

        let encodable = try registry.encode(
            shipment, as: "application/json", options: EncodingOptions(outputFormatting: [.sortedKeys]))
        let foundation = JSONEncoder()
        foundation.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        #expect(encodable.body == (try foundation.encode(shipment)))
    }

    @Test func theBodyReadsBack() throws {
        let options = EncodingOptions(keyEncodingStrategy: .convertToSnakeCase, dateEncodingStrategy: .iso8601)
        let body = try registry.encode(shipment, as: "application/json", options: options)
        let decoded = try registry.decode(
            Shipment.self, from: body.response(),
            options: DecodingOptions(keyDecodingStrategy: .convertFromSnakeCase, dateDecodingStrategy: .iso8601))
        #expect(decoded == shipment)
        let value: JSONValue = ["nested": [1, [2, ["three": nil]]]]
        let written = try registry.encode(value, as: "application/json")
        #expect(try registry.serialize(written.response()).value as? JSONValue == value)
    }

    /// `text/html` is preferred but cannot carry the value, so JSON is chosen although its q is 0.1.
    @Test func negotiatesJSONWhenThePreferredTypeCannotCarryTheValue() throws {
        let accept = AcceptHeader(parsing: "text/html, application/json;q=0.1")
        let body = try registry.encode(shipment, accepting: accept)
        #expect(body.contentType.description == "application/json")
        let value = try registry.encode(JSONValue.array([1]), accepting: accept)
        #expect(value.contentType.description == "application/json")
    }

    @Test func negotiatesTheNamedJSONType() throws {
        let body = try registry.encode(shipment, accepting: AcceptHeader(parsing: "application/vnd.api+json"))
        #expect(body.contentType.description == "application/vnd.api+json")
        #expect(try registry.decode(Shipment.self, from: body.response()) == shipment)
    }

    /// `q=0` excludes `application/json`, even when `*/*` would otherwise allow it.
    @Test func qZeroExcludesApplicationJSON() {
        let accept = AcceptHeader(parsing: "application/json;q=0, */*")
        let negotiation = registry.negotiate(shipment, accepting: accept)
        #expect(negotiation.chosen?.mediaType.essence != "application/json")
        do {
            let body = try registry.encode(shipment, accepting: accept)
            #expect(body.contentType.essence != "application/json")
        } catch {
            #expect(error.code == .notAcceptable)
        }
    }

    @Test func nothingAcceptableIsNotAcceptable() {
        #expect {
            try registry.encode(shipment, accepting: AcceptHeader(parsing: "image/png"))
        } throws: { error in
            let error = error as! SerializationError
            return error.code == .notAcceptable && error.message.contains("application/json")
        }
    }
}
