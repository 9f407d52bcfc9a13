import DecantCore
import DecantXMLParser
import Foundation
import Testing

/// Encoding detection (XML 1.0 Appendix F, RFC 7303 §3). Expected texts were produced with Python's codecs and
/// `xml.parsers.expat` when the tests were written (expat gives `['café']` for the ISO-8859-1 document; it cannot
/// decode Shift_JIS, so that expectation is Python's `'日本語'.encode('shift_jis')` reversed).
@Suite struct XMLEncodingTests {
    static func text(_ data: Data, charset: String? = nil) throws(SerializationError) -> String {
        let mediaType = charset.flatMap { try? MediaType(parsing: "application/xml; charset=\($0)") }
        let events = try XMLStreamParser(data: data, mediaType: mediaType).events()
        return events.compactMap { if case .characters(let text) = $0 { text } else { nil } }.joined()
    }

    static func utf16(_ text: String, bigEndian: Bool, byteOrderMark: Bool) -> Data {
        var bytes: [UInt8] = byteOrderMark ? (bigEndian ? [0xFE, 0xFF] : [0xFF, 0xFE]) : []
        for unit in text.utf16 {
            let pair = [UInt8(unit >> 8), UInt8(unit & 0xFF)]
            bytes += bigEndian ? pair : pair.reversed()
        }
        return Data(bytes)
    }

    @Test(arguments: [(false, false), (false, true), (true, false), (true, true)])
    func readsUTF16(bigEndian: Bool, byteOrderMark: Bool) throws {
        let document = "<?xml version=\"1.0\" encoding=\"UTF-16\"?><r>h\u{E9}\u{1F600}</r>"
        let data = Self.utf16(document, bigEndian: bigEndian, byteOrderMark: byteOrderMark)
        #expect(try Self.text(data) == "h\u{E9}\u{1F600}")
        // Without a declaration too.
        let bare = Self.utf16("<r>x</r>", bigEndian: bigEndian, byteOrderMark: true)
        #expect(try Self.text(bare) == "x")
    }

    @Test func readsDeclaredLegacyEncodings() throws {
        let latin1 =
            Data("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><r>caf".utf8) + Data([0xE9]) + Data("</r>".utf8)
        #expect(try Self.text(latin1) == "café")
        let shiftJIS =
            Data("<?xml version=\"1.0\" encoding=\"Shift_JIS\"?><r>".utf8)
            + Data([0x93, 0xFA, 0x96, 0x7B, 0x8C, 0xEA]) + Data("</r>".utf8)
        #expect(try Self.text(shiftJIS) == "日本語")
    }

    @Test func charsetParameterOverridesTheDeclaration() throws {
        let body = Data("<?xml version=\"1.0\" encoding=\"UTF-8\"?><r>caf".utf8) + Data([0xE9]) + Data("</r>".utf8)
        // As UTF-8 the lone 0xE9 is invalid; the charset parameter says ISO-8859-1 and wins (RFC 7303 §3).
        let error = #expect(throws: SerializationError.self) { try Self.text(body) }
        #expect(error?.code == .invalidEncoding)
        #expect(try Self.text(body, charset: "iso-8859-1") == "café")
        // A byte order mark wins over the charset parameter.
        let marked = Data([0xEF, 0xBB, 0xBF]) + Data("<r>é</r>".utf8)
        #expect(try Self.text(marked, charset: "iso-8859-1") == "é")
    }

    @Test func reportsEncodingErrors() {
        func code(_ data: Data, charset: String? = nil) -> SerializationError.Code? {
            do {
                _ = try Self.text(data, charset: charset)
                return nil
            } catch {
                return error.code
            }
        }
        // Invalid UTF-8.
        #expect(code(Data("<r>".utf8) + Data([0xC3, 0x28]) + Data("</r>".utf8)) == .invalidEncoding)
        // A UTF-16 byte order mark contradicting the declaration.
        let contradiction = Self.utf16(
            "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><r/>", bigEndian: false, byteOrderMark: true)
        #expect(code(contradiction) == .invalidEncoding)
        // UTF-16 declared on ASCII bytes.
        #expect(code(Data("<?xml version=\"1.0\" encoding=\"UTF-16\"?><r/>".utf8)) == .invalidEncoding)
        // Unknown labels.
        #expect(code(Data("<?xml version=\"1.0\" encoding=\"x-klingon\"?><r/>".utf8)) == .unsupportedFeature)
        #expect(code(Data("<r/>".utf8), charset: "x-klingon") == .unsupportedFeature)
        // Bytes that are not valid Shift_JIS.
        let badShiftJIS =
            Data("<?xml version=\"1.0\" encoding=\"Shift_JIS\"?><r>".utf8) + Data([0x82, 0x22])
            + Data("</r>".utf8)
        #expect(code(badShiftJIS) == .invalidEncoding)
        // UTF-32 is not supported.
        #expect(code(Data([0x00, 0x00, 0xFE, 0xFF, 0, 0, 0, 0x3C])) == .unsupportedFeature)
    }
}
