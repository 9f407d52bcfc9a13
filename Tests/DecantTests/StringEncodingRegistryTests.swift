import Decant
import Foundation
import Testing

/// Text written through `SerializerRegistry.standard`: the `string` format's encoder chosen by media type and by
/// `Accept`, and read back by the same registry.
@Suite struct StringEncodingRegistryTests {
    /// Python: "héllo".encode("latin-1") == b"h\xe9llo"; the WHATWG label iso-8859-1 means windows-1252, which the
    /// written Content-Type says.
    @Test func writesLatin1AndReadsItBack() throws {
        let registry = SerializerRegistry.standard
        let body = try registry.encode("héllo", as: "text/plain;charset=iso-8859-1")
        #expect(body.body == Data([0x68, 0xE9, 0x6C, 0x6C, 0x6F]))
        #expect(body.contentType.description == "text/plain;charset=windows-1252")
        #expect(body.serializerID == "string")
        let decoded = try registry.serialize(body.response())
        #expect(decoded.serializerID == "string")
        #expect((decoded.value as? DecodedText)?.text == "héllo")
        #expect(try registry.decode(String.self, from: body.response()) == "héllo")
    }

    @Test func negotiatesHTMLForAString() throws {
        let accept = AcceptHeader(parsing: "text/html, application/json;q=0.1")
        let body = try SerializerRegistry.standard.encode("x", accepting: accept)
        #expect(body.contentType.description == "text/html;charset=utf-8")
        #expect(body.body == Data("x".utf8))
        #expect(body.serializerID == "string")
    }

    @Test func anythingAcceptableGivesPlainUTF8Text() throws {
        let body = try SerializerRegistry.standard.encode("日本", accepting: nil)
        #expect(body.contentType.description == "text/plain;charset=utf-8")
        #expect(body.body == Data("日本".utf8))
        let wildcard = try SerializerRegistry.standard.encode("日本", accepting: AcceptHeader(parsing: "*/*"))
        #expect(wildcard.contentType.description == "text/plain;charset=utf-8")
    }

    @Test func unencodableTextFailsWithTheCharacterNamed() throws {
        let error = #expect(throws: SerializationError.self) {
            try SerializerRegistry.standard.encode("日本", as: "text/plain;charset=windows-1252")
        }
        #expect(error?.code == .encodingFailed)
        #expect(error?.message.contains("U+65E5 \"日\" at code point offset 0") == true)
    }
}
