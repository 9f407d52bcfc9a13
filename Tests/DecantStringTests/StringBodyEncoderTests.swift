import DecantCharset
import DecantCore
import DecantString
import Foundation
import Testing

/// The `string` format's encoder, its factory option and its module, through DecantCore's public API only.
@Suite struct StringBodyEncoderTests {
    static func hex(_ data: Data) -> String {
        data.map { String(format: "%02X", $0) }.joined(separator: " ")
    }

    static func encode(
        _ value: any Sendable, as type: String, encoder: StringBodyEncoder = StringBodyEncoder()
    ) throws(SerializationError) -> EncodedBody {
        try encoder.encode(value, as: MediaType(type)!, options: EncodingOptions())
    }

    static func error(
        _ value: any Sendable, as type: String, encoder: StringBodyEncoder = StringBodyEncoder()
    )
        -> SerializationError?
    {
        do {
            _ = try encode(value, as: type, encoder: encoder)
            return nil
        } catch {
            return error
        }
    }

    @Test func writesUTF8ByDefaultAndSaysSo() throws {
        let body = try Self.encode("héllo", as: "text/plain")
        #expect(body.body == Data("héllo".utf8))
        #expect(body.contentType.description == "text/plain;charset=utf-8")
        #expect(body.serializerID == "string")
    }

    /// Python: "日本語".encode("shift_jis"); the label is canonicalised and lowercased.
    @Test func writesTheRequestedCharsetUnderItsCanonicalName() throws {
        let body = try Self.encode("日本語", as: "text/html; charset=\"SJIS\"")
        #expect(Self.hex(body.body) == "93 FA 96 7B 8C EA")
        #expect(body.contentType.description == "text/html;charset=shift_jis")
        let latin = try Self.encode("café", as: "text/plain;charset=latin1")
        #expect(Self.hex(latin.body) == "63 61 66 E9")
        #expect(latin.contentType.charset == "windows-1252")
    }

    @Test func keepsTheOtherParameters() throws {
        let body = try Self.encode("a", as: "text/plain;format=flowed;charset=UTF-8")
        #expect(body.contentType.description == "text/plain;format=flowed;charset=utf-8")
    }

    /// Python: "a😀".encode("utf-16-le"): `utf-16` means UTF-16LE, written without a byte order mark.
    @Test func writesUTF16AsAsked() throws {
        let body = try Self.encode("a😀", as: "text/plain;charset=utf-16")
        #expect(Self.hex(body.body) == "61 00 3D D8 00 DE")
        #expect(body.contentType.charset == "utf-16le")
        #expect(try Self.encode("a", as: "text/plain;charset=utf-16be").contentType.charset == "utf-16be")
    }

    @Test func writesStringsSubstringsAndDecodedText() throws {
        let encoder = StringBodyEncoder()
        #expect(encoder.canEncode("a"))
        #expect(encoder.canEncode("abc".dropFirst()))
        #expect(encoder.canEncode(DecodedText(text: "a", encoding: .windows1252, source: .mediaTypeDefault)))
        #expect(!encoder.canEncode(42))
        #expect(!encoder.canEncode(Data()))
        #expect(try Self.encode("abc".dropFirst(), as: "text/plain").body == Data("bc".utf8))
        let decoded = DecodedText(text: "é", encoding: .windows1252, source: .mediaTypeDefault)
        // Decoded text keeps its own encoding unless a charset is asked for (Python: "é".encode("cp1252") == b"\xe9").
        let own = try Self.encode(decoded, as: "text/plain")
        #expect(own.body == Data([0xE9]))
        #expect(own.contentType.charset == "windows-1252")
        #expect(try Self.encode(decoded, as: "text/plain;charset=utf-8").body == Data("é".utf8))
        #expect(Self.error(42, as: "text/plain")?.code == .unsupportedValue)
        #expect(encoder.defaultMediaType?.description == "text/plain")
        #expect(StringBodyEncoder(mediaRanges: ["text/markdown"]).defaultMediaType?.description == "text/markdown")
    }

    @Test func unknownAndRefusedCharsetsAreErrors() throws {
        let unknown = try #require(Self.error("a", as: "text/plain;charset=klingon"))
        #expect(unknown.code == .invalidEncoding)
        #expect(unknown.message.contains("\"klingon\""))
        #expect(unknown.message.contains("utf-8"))
        #expect(unknown.serializerID == "string")
        #expect(unknown.mediaType?.charset == "klingon")
        let refused = try #require(Self.error("a", as: "text/plain;charset=iso-2022-kr"))
        #expect(refused.code == .invalidEncoding)
        #expect(refused.message.contains("replacement"))
    }

    @Test func unencodableCharactersAreErrorsOrReferences() throws {
        let error = try #require(Self.error("a → b", as: "text/plain;charset=windows-1252"))
        #expect(error.code == .encodingFailed)
        #expect(error.serializerID == "string")
        #expect(error.mediaType?.charset == "windows-1252")
        let underlying = try #require(error.underlying as? TextEncodingError)
        #expect(underlying.scalar == "→")
        #expect(underlying.offset == 2)
        // Python: "a → b".encode("cp1252", "xmlcharrefreplace")
        let html = try Self.encode(
            "a → b", as: "text/html;charset=windows-1252", encoder: StringBodyEncoder(mode: .html))
        #expect(html.body == Data("a &#8594; b".utf8))
    }

    @Test func theFactoryBuildsTheEncoderWithItsOptions() throws {
        let factory = StringSerializerFactory()
        let plain = try #require(try factory.makeEncoder(configuration: [:]) as? StringBodyEncoder)
        #expect(plain.mode == .strict)
        let html = try #require(try factory.makeEncoder(configuration: ["encodingMode": "html"]) as? StringBodyEncoder)
        #expect(html.mode == .html)
        let narrow = try #require(
            try factory.makeEncoder(configuration: ["mediaRanges": ["text/csv"]]) as? StringBodyEncoder)
        #expect(narrow.mediaRanges == ["text/csv"])
        #expect(throws: SerializationError.self) { try factory.makeEncoder(configuration: ["encodingMode": "lax"]) }
    }

    @Test func theModuleWritesAndReadsBack() throws {
        let registry = SerializerRegistry(modules: [.string])
        let body = try registry.encode("Grüße", as: "text/plain;charset=iso-8859-15")
        #expect(Self.hex(body.body) == "47 72 FC DF 65")
        let decoded = try #require(try registry.serialize(body.response()).value as? DecodedText)
        #expect(decoded.text == "Grüße")
        #expect(decoded.encoding == .iso8859_15)
    }
}
