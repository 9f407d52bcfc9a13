import DecantCore
import Foundation
import Testing

@testable import DecantCharset

/// The charset pipeline: BOM, then `charset`, then the media type's default (WHATWG Encoding §6 "decode").
@Suite struct CharsetPipelineTests {
    static func type(_ text: String) -> MediaType { MediaType(text)! }

    // MARK: - Byte order marks

    @Test(
        arguments: [
            // A BOM wins over any label and is removed.
            ([0xEF, 0xBB, 0xBF, 0x41, 0xC3, 0xA9], "text/plain; charset=windows-1252", TextEncoding.utf8, "Aé", 3),
            ([0xFF, 0xFE, 0x41, 0x00, 0xE9, 0x00], "text/plain; charset=shift_jis", .utf16LE, "Aé", 2),
            ([0xFE, 0xFF, 0x00, 0x41, 0x00, 0xE9], "text/plain; charset=utf-8", .utf16BE, "Aé", 2),
            ([0xFE, 0xFF, 0x00, 0x41], "application/json", .utf16BE, "A", 2),
            ([0xEF, 0xBB, 0xBF], "text/plain", .utf8, "", 3),
        ] as [([UInt8], String, TextEncoding, String, Int)])
    func byteOrderMarkWinsOverTheLabel(
        body: [UInt8], type: String, encoding: TextEncoding, text: String, bomLength: Int
    ) throws {
        let decoded = try CharsetPipeline().decode(Data(body), mediaType: Self.type(type))
        #expect(decoded.encoding == encoding)
        #expect(decoded.source == .byteOrderMark)
        #expect(decoded.text == text)
        #expect(decoded.byteOrderMarkLength == bomLength)
        #expect(decoded.description == text)
    }

    @Test func byteOrderMarkWithoutAMediaType() throws {
        let decoded = try CharsetPipeline(mode: .strict).decode(
            Data([0xFF, 0xFE, 0x3D, 0xD8, 0x00, 0xDE]), mediaType: nil)
        #expect(decoded.text == "😀")
        #expect(decoded.encoding == .utf16LE)
    }

    @Test func partialByteOrderMarksAreNotMarks() throws {
        #expect(CharsetPipeline.byteOrderMark(in: Data([0xEF, 0xBB])) == nil)
        #expect(CharsetPipeline.byteOrderMark(in: Data([0xFF])) == nil)
        #expect(CharsetPipeline.byteOrderMark(in: Data()) == nil)
        #expect(CharsetPipeline.byteOrderMark(in: Data([0xFF, 0xFE]))?.encoding == .utf16LE)
        // "EF BB" decoded as windows-1252 (the label), not sniffed: ï».
        let decoded = try CharsetPipeline().decode(
            Data([0xEF, 0xBB]), mediaType: Self.type("text/plain;charset=latin1"))
        #expect(decoded.text == "ï»")
        #expect(decoded.source == .charsetParameter(label: "latin1"))
    }

    @Test func byteOrderMarkInASlicedBody() throws {
        let whole = Data([0x00, 0xEF, 0xBB, 0xBF, 0x68, 0x69])
        let slice = whole[1...]
        let decoded = try CharsetPipeline().decode(slice, mediaType: nil)
        #expect(decoded.text == "hi")
        #expect(decoded.byteOrderMarkLength == 3)
    }

    // MARK: - The charset parameter

    @Test(arguments: [
        // Python: "こんにちは".encode("shift_jis").hex(" ")
        ("text/plain; charset=Shift_JIS", "82 b1 82 f1 82 c9 82 bf 82 cd", "こんにちは", TextEncoding.shiftJIS),
        // Python: "€‚ƒ".encode("cp1252") -- the label latin1 means windows-1252
        ("text/plain; charset=latin1", "80 82 83", "€‚ƒ", .windows1252),
        ("text/plain; charset=\"ISO-8859-1\"", "80 e9", "€é", .windows1252),
        // Python: "Grüße".encode("utf-16-le"); the label utf-16 means UTF-16LE
        ("text/plain; charset=utf-16", "47 00 72 00 fc 00 df 00 65 00", "Grüße", .utf16LE),
        // Python: "中文".encode("gbk")
        ("text/html; charset=GB2312", "d6 d0 ce c4", "中文", .gbk),
        // Python: "한국어".encode("euc-kr")
        ("text/plain; charset=ks_c_5601-1987", "c7 d1 b1 b9 be ee", "한국어", .eucKR),
        // Python: "Привет".encode("koi8-r")
        ("text/plain; charset=koi8-r", "f0 d2 c9 d7 c5 d4", "Привет", .koi8R),
    ])
    func charsetParameterSelectsTheEncoding(type: String, hex: String, text: String, encoding: TextEncoding) throws {
        let body = Data(hex.split(separator: " ").map { UInt8($0, radix: 16)! })
        let mediaType = Self.type(type)
        let decoded = try CharsetPipeline(mode: .strict).decode(body, mediaType: mediaType)
        #expect(decoded.text == text)
        #expect(decoded.encoding == encoding)
        #expect(decoded.source == .charsetParameter(label: mediaType.charset!))
        #expect(decoded.byteOrderMarkLength == 0)
    }

    @Test func replacementLabelsDecodeToOneReplacementCharacter() throws {
        let type = Self.type("text/plain; charset=iso-2022-kr")
        let decoded = try CharsetPipeline().decode(Data("anything".utf8), mediaType: type)
        #expect(decoded.text == "\u{FFFD}")
        #expect(decoded.encoding == .replacement)
        #expect(try CharsetPipeline().decode(Data(), mediaType: type).text == "")
        let error = #expect(throws: SerializationError.self) {
            try CharsetPipeline(mode: .strict).decode(Data("anything".utf8), mediaType: type)
        }
        #expect(error?.code == .invalidEncoding)
    }

    // MARK: - Unknown labels

    @Test func unknownLabelFallsBackInReplacementMode() throws {
        let pipeline = CharsetPipeline(defaultEncoding: .windows1252)
        #expect(!pipeline.unknownLabelIsError)
        let decoded = try pipeline.decode(Data([0x80]), mediaType: Self.type("text/plain; charset=klingon"))
        #expect(decoded.encoding == .windows1252)
        #expect(decoded.text == "€")
        #expect(decoded.source == .fallbackAfterUnknownLabel(label: "klingon"))
        #expect(decoded.source.description == "default after unknown charset \"klingon\"")
    }

    @Test func unknownLabelIsAnErrorInStrictMode() throws {
        let pipeline = CharsetPipeline(mode: .strict)
        #expect(pipeline.unknownLabelIsError)
        let type = Self.type("text/plain; charset=utf_8")
        let error = try #require(throws: SerializationError.self) {
            try pipeline.decode(Data("ok".utf8), mediaType: type)
        }
        #expect(error.code == .invalidEncoding)
        #expect(error.mediaType == type)
        #expect(error.offset == nil)
        #expect(error.message.contains("\"utf_8\" is not a label"))
        #expect(error.message.contains("unknownLabelIsError = false"))
    }

    @Test func unknownLabelPolicyCanBeOverridden() throws {
        let lenient = CharsetPipeline(mode: .strict, unknownLabelIsError: false)
        let decoded = try lenient.decode(Data("ok".utf8), mediaType: Self.type("text/plain; charset=bogus"))
        #expect(decoded.source == .fallbackAfterUnknownLabel(label: "bogus"))
        let picky = CharsetPipeline(mode: .replacement, unknownLabelIsError: true)
        let error = #expect(throws: SerializationError.self) {
            try picky.decode(Data("ok".utf8), mediaType: Self.type("text/plain; charset=bogus"))
        }
        #expect(error?.code == .invalidEncoding)
        // An empty charset value is no label either.
        let emptyLabel = #expect(throws: SerializationError.self) {
            try picky.decode(Data("ok".utf8), mediaType: Self.type("text/plain; charset=\"\""))
        }
        #expect(emptyLabel?.code == .invalidEncoding)
    }

    // MARK: - Defaults

    @Test func defaultEncodingAppliesToTextButNotToJSONOrXML() throws {
        let pipeline = CharsetPipeline(defaultEncoding: .isoLatin1)
        let body = Data([0x63, 0x61, 0x66, 0xE9])  // "café" in Latin-1, invalid UTF-8
        let text = try pipeline.decode(body, mediaType: Self.type("text/plain"))
        #expect(text.text == "café")
        #expect(text.encoding == .isoLatin1)
        #expect(text.source == .mediaTypeDefault)
        let json = try pipeline.decode(body, mediaType: Self.type("application/problem+json"))
        #expect(json.encoding == .utf8)
        #expect(json.text == "caf\u{FFFD}")
        #expect(try pipeline.decode(body, mediaType: Self.type("text/xml")).encoding == .utf8)
        #expect(try pipeline.decode(body, mediaType: nil).encoding == .isoLatin1)
        #expect(pipeline.fallbackEncoding(for: Self.type("application/json")) == .utf8)
    }

    @Test(arguments: ["application/json", "text/plain", "application/xml", "image/svg+xml", "text/csv"])
    func standardDefaultIsUTF8(type: String) {
        #expect(CharsetPipeline.defaultEncoding(for: Self.type(type)) == .utf8)
        #expect(CharsetPipeline.defaultEncoding(for: nil) == .utf8)
    }

    // MARK: - Strict mode errors

    @Test func strictErrorOffsetCountsTheByteOrderMark() throws {
        let body = Data([0xEF, 0xBB, 0xBF, 0x41, 0xFF, 0x42])
        let error = try #require(throws: SerializationError.self) {
            try CharsetPipeline(mode: .strict).decode(body, mediaType: Self.type("text/plain"))
        }
        #expect(error.code == .invalidEncoding)
        #expect(error.offset == 4)
        let underlying = try #require(error.underlying as? TextDecodingError)
        #expect(underlying.offset == 1)
        #expect(underlying.encoding == .utf8)
        #expect(error.message.contains("not valid UTF-8 at byte 4 (FF 42)"))
        #expect(error.message.contains("byte order mark"))
        #expect(error.message.contains("replacement mode"))
    }

    @Test func strictErrorNamesTheEncodingTheOffsetAndTheFixes() throws {
        // 17 ASCII bytes, then Shift_JIS lead 0x82 with an ASCII trailing byte.
        let body = Data("0123456789abcdefg".utf8) + [0x82, 0x22]
        let type = Self.type("text/plain; charset=shift_jis")
        let error = try #require(throws: SerializationError.self) {
            try CharsetPipeline(mode: .strict).decode(body, mediaType: type)
        }
        #expect(error.offset == 17)
        #expect(error.mediaType == type)
        #expect(error.message.hasPrefix("The body is not valid Shift_JIS at byte 17 (82 22)"))
        #expect(error.message.contains("fix the charset parameter"))
        #expect(error.message.contains("decode in replacement mode"))
        // Replacement mode keeps the quote: the ASCII byte is not swallowed.
        #expect(try CharsetPipeline().decode(body, mediaType: type).text == "0123456789abcdefg\u{FFFD}\"")
    }

    @Test func strictErrorWithTheDefaultSuggestsACharsetParameter() throws {
        let error = try #require(throws: SerializationError.self) {
            try CharsetPipeline(mode: .strict).decode(Data([0xE9]), mediaType: Self.type("text/plain"))
        }
        #expect(error.message.contains("the default for text/plain without a charset parameter"))
        #expect(error.message.contains("add a charset parameter"))
        #expect(error.offset == 0)
    }

    @Test func utf16OddByteCountsThroughThePipeline() throws {
        let body = Data([0xFF, 0xFE, 0x41, 0x00, 0x42])
        #expect(try CharsetPipeline().decode(body, mediaType: nil).text == "A\u{FFFD}")
        let error = try #require(throws: SerializationError.self) {
            try CharsetPipeline(mode: .strict).decode(body, mediaType: nil)
        }
        #expect(error.offset == 4)
    }
}
