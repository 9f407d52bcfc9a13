import Decant
import Foundation
import Testing

/// Which bodies count as empty: no bytes always; whitespace only for formats whose grammar allows whitespace around
/// the value (JSON, XML, property lists), never for plain text or binary formats; and an empty response that no
/// installed format claims gives the neutral `EmptyResponse`, produced by `registry`.
@Suite struct EmptyBodyTests {
    static let registry = SerializerRegistry.standard

    static func response(_ body: String, _ contentType: String?, status: Int = 200) -> Response {
        var headers: HTTPHeaderFields = [:]
        if let contentType { headers.set(contentType, for: "Content-Type") }
        return Response(status: status, headers: headers, body: Data(body.utf8))
    }

    /// JSON (RFC 8259 §2), XML (§2.1: whitespace is Misc) and property lists allow whitespace around the value: a
    /// body of only whitespace is empty and gives the format's empty value.
    @Test(arguments: [
        ("application/json", "json"), ("application/problem+json", "json"), ("application/xml", "xmlDocument"),
        ("application/x-plist", "propertyList"),
    ])
    func whitespaceIsEmptyWhereTheGrammarAllowsIt(contentType: String, serializer: String) throws {
        let response = Self.response(" \r\n\t ", contentType)
        #expect(EmptyBodyPolicy.default.emptinessReason(for: response, whitespaceIsEmpty: true) == .whitespaceOnly)
        let chosen = try #require(Self.registry.resolve(response).chosen)
        #expect(chosen.id.rawValue == serializer)
        let serializerValue = try Self.registry.serializer(id: chosen.id)
        #expect(serializerValue.countsWhitespaceAsEmpty(for: response))
    }

    /// Plain text keeps its whitespace: it is the content.
    @Test(arguments: ["  ", "\n", "\t\r\n"])
    func whitespaceIsTextInPlainText(_ body: String) throws {
        let text = try Self.registry.serialize(Self.response(body, "text/plain; charset=utf-8"), as: DecodedText.self)
        #expect(text.text == body)
    }

    /// JSON's empty value for a whitespace body, through the registry's chain.
    @Test func jsonWhitespaceGivesNull() throws {
        let result = try Self.registry.serialize(Self.response("  \n", "application/json"))
        #expect(result.serializerID == "json")
        #expect(result.value as? JSONValue == JSONValue(nilLiteral: ()))
    }

    /// The policy's own switch still turns whitespace emptiness off, even for JSON.
    @Test func thePolicySwitchStillApplies() throws {
        let policy = EmptyBodyPolicy(treatsWhitespaceAsEmpty: false)
        let response = Self.response("  ", "application/json")
        #expect(policy.emptinessReason(for: response, whitespaceIsEmpty: true) == nil)
        #expect(throws: SerializationError.self) {
            try Self.registry.serialize(response, emptyBodyPolicy: policy)
        }
    }

    /// An empty 200 of a media type nothing accepts, and a 204 without `Content-Type`, give `EmptyResponse` from
    /// `registry`: no format is named for a body none of them claimed.
    @Test(arguments: [
        (200, "application/x-unknown" as String?), (204, nil), (200, nil), (204, "application/vnd.acme.thing"),
    ])
    func unclaimedEmptyResponsesAreNeutral(status: Int, contentType: String?) throws {
        let result = try Self.registry.serialize(Self.response("", contentType, status: status))
        #expect(result.serializerID == "registry")
        #expect(result.value is EmptyResponse)
    }

    /// A typed request still gets its format's empty value, and a claimed media type its serializer's.
    @Test func claimedOrTypedEmptyResponsesUseTheFormat() throws {
        let json = try Self.registry.serialize(Self.response("", "application/json"))
        #expect(json.serializerID == "json")
        let typed = try Self.registry.serialize(Self.response("", nil, status: 204), as: JSONValue.self)
        #expect(typed == JSONValue(nilLiteral: ()))
    }
}
