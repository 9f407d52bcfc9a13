import DecantTestSupport
import Foundation
import Testing

@testable import DecantCore

@Suite struct SerializationErrorTests {
    @Test func descriptionCapsTheBodySnippet() {
        let body = String(repeating: "x", count: 100_000)
        let error = SerializationError(
            code: .invalidBody, message: "Bad.", response: .make(type: "application/json", body: body))
        #expect(error.description.count < 600)
        #expect(error.description.contains("100000 bytes"))
        #expect(error.description.contains("…"))
    }

    @Test func binaryBodiesAreShownAsHex() {
        let error = SerializationError(
            code: .invalidBody, message: "Bad.", response: Response(body: Data([0x89, 0x50, 0x00, 0x01])))
        #expect(error.description.contains("4 bytes: 89 50 00 01"))
    }

    @Test func descriptionNamesTheContext() throws {
        let error = SerializationError(
            code: .invalidBody, message: "Unexpected character.", mediaType: try MediaType(parsing: "application/json"),
            serializerID: "json", offset: 17, codingPath: ["user", "0", "name"],
            response: .make(502, type: "application/json", body: "{"))
        let text = error.description
        #expect(text.hasPrefix("[invalidBody] Unexpected character."))
        #expect(
            text.contains("serializer: json, media type: application/json, status: 502, offset: 17, path: user.0.name"))
    }

    @Test func codesAreExtensibleByThirdParties() {
        let custom = SerializationError.Code("acme.yaml.tabs")
        #expect(custom != .invalidBody)
        #expect(custom.rawValue == "acme.yaml.tabs")
    }

    @Test func wrappingKeepsExistingSerializationErrorsAndFillsContext() {
        let original = SerializationError(code: .invalidBody, message: "x", offset: 3)
        let wrapped = SerializationError(wrapping: original, serializerID: "json", response: .make(body: "abc"))
        #expect(wrapped.code == .invalidBody)
        #expect(wrapped.offset == 3)
        #expect(wrapped.serializerID == "json")
        #expect(wrapped.response?.body == Data("abc".utf8))
    }
}
