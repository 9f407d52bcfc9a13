import DecantTestSupport
import Foundation
import Testing

@testable import DecantCore

/// One hand-made body and the media type it must sniff as (`nil`: unknown).
struct SniffCase: Sendable, CustomTestStringConvertible {
    let name: String
    let bytes: [UInt8]
    let expected: String?

    init(_ name: String, _ bytes: [UInt8], _ expected: String?) {
        self.name = name
        self.bytes = bytes
        self.expected = expected
    }

    init(_ name: String, _ text: String, _ expected: String?) {
        self.init(name, Array(text.utf8), expected)
    }

    var testDescription: String { name }
}

/// Byte encodings for building test bodies.
enum Encode {
    static func ascii(_ text: String) -> [UInt8] { Array(text.utf8) }

    static func utf16LE(_ text: String) -> [UInt8] {
        text.utf16.flatMap { [UInt8(truncatingIfNeeded: $0), UInt8(truncatingIfNeeded: $0 >> 8)] }
    }

    static func utf16BE(_ text: String) -> [UInt8] {
        text.utf16.flatMap { [UInt8(truncatingIfNeeded: $0 >> 8), UInt8(truncatingIfNeeded: $0)] }
    }

    static func utf32LE(_ text: String) -> [UInt8] {
        text.unicodeScalars.flatMap { scalar in (0..<4).map { UInt8(truncatingIfNeeded: scalar.value >> (8 * $0)) } }
    }

    static func utf32BE(_ text: String) -> [UInt8] {
        text.unicodeScalars.flatMap { scalar in
            (0..<4).reversed().map { UInt8(truncatingIfNeeded: scalar.value >> (8 * $0)) }
        }
    }
}

/// A corpus folder whose files must all sniff as one type, apart from named exceptions.
struct SnifferCorpusGroup: Sendable, CustomTestStringConvertible {
    let folder: String
    let extensions: Set<String>
    let expected: String
    let minimumCount: Int
    /// Files (by name) whose signature is broken on purpose: they must not sniff as anything.
    var unknown: Set<String> = []
    /// Files (by name) whose content is another format than the extension says, with the type they really are.
    var actual: [String: String] = [:]

    var testDescription: String { "\(folder) *.{\(extensions.sorted().joined(separator: ","))} → \(expected)" }

    /// PngSuite's corrupt files whose 8-byte signature itself is damaged (xs*: signature bytes changed;
    /// xcr/xlf: CR/LF conversion applied). The other `x*` files have a good signature and a bad body.
    static let brokenPNGSignatures: Set<String> = [
        "xcrn0g04.png", "xlfn0g04.png", "xs1n0g01.png", "xs2n0g01.png", "xs4n0g01.png", "xs7n0g01.png",
    ]

    static let all: [SnifferCorpusGroup] = [
        SnifferCorpusGroup(
            folder: "images/pngsuite", extensions: ["png"], expected: "image/png", minimumCount: 380,
            unknown: brokenPNGSignatures),
        SnifferCorpusGroup(folder: "images/image-gif", extensions: ["gif"], expected: "image/gif", minimumCount: 16),
        SnifferCorpusGroup(folder: "images/bmpsuite/g", extensions: ["bmp"], expected: "image/bmp", minimumCount: 27),
        SnifferCorpusGroup(
            folder: "images/jpeg-decoder", extensions: ["jpg"], expected: "image/jpeg", minimumCount: 48,
            actual: ["jpg-size-6x6.jpg": "image/png"]),
        SnifferCorpusGroup(
            folder: "images/image-tiff/tests", extensions: ["tif", "tiff"], expected: "image/tiff", minimumCount: 200),
        SnifferCorpusGroup(
            folder: "images/golang-image", extensions: ["tif", "tiff"], expected: "image/tiff", minimumCount: 20),
        SnifferCorpusGroup(
            folder: "images/image-rs/tests", extensions: ["ico"], expected: "image/x-icon", minimumCount: 16),
        SnifferCorpusGroup(
            folder: "images/image-rs/tests", extensions: ["png"], expected: "image/png", minimumCount: 190),
        SnifferCorpusGroup(
            folder: "images/image-rs/tests", extensions: ["gif"], expected: "image/gif", minimumCount: 12),
        SnifferCorpusGroup(
            folder: "images/image-rs/tests", extensions: ["bmp"], expected: "image/bmp", minimumCount: 70),
        SnifferCorpusGroup(
            folder: "images/image-rs/tests", extensions: ["jpg", "jpeg"], expected: "image/jpeg", minimumCount: 7),
        SnifferCorpusGroup(
            folder: "images/image-rs/tests", extensions: ["tif", "tiff"], expected: "image/tiff", minimumCount: 21),
        SnifferCorpusGroup(
            folder: "images/image-rs/tests", extensions: ["webp"], expected: "image/webp", minimumCount: 10),
        SnifferCorpusGroup(
            folder: "plist/cpython/valid", extensions: ["plist"], expected: "application/x-plist", minimumCount: 3),
        SnifferCorpusGroup(
            folder: "plist/cpython/xml_cases", extensions: ["plist"], expected: "application/x-plist",
            minimumCount: 20),
        SnifferCorpusGroup(
            folder: "plist/libplist/test/data", extensions: ["plist", "bplist"], expected: "application/x-plist",
            minimumCount: 35),
        SnifferCorpusGroup(
            folder: "json/swift-foundation-resources/Tests/FoundationEssentialsTests/Resources/JSON/pass",
            extensions: ["json"], expected: "application/json", minimumCount: 19),
        SnifferCorpusGroup(
            folder: "json/swift-foundation-resources/Tests/FoundationEssentialsTests/Resources/JSON/pass",
            extensions: ["plist"], expected: "application/x-plist", minimumCount: 12),
    ]
}

@Suite struct MediaTypeSnifferTests {
    // MARK: Hand-made cases

    static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// A RIFF container header: `RIFF`, a little-endian size, then `form`.
    static func riff(_ form: String) -> [UInt8] {
        Encode.ascii("RIFF") + [0x24, 0x08, 0x00, 0x00] + Encode.ascii(form)
    }

    static let imageCases: [SniffCase] = [
        SniffCase("ICO", [0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x10, 0x10], "image/x-icon"),
        SniffCase("CUR", [0x00, 0x00, 0x02, 0x00, 0x01, 0x00], "image/x-icon"),
        SniffCase(
            "BMP", Encode.ascii("BM") + [0x36, 0x00, 0x0C, 0x00, 0, 0, 0, 0, 0x36, 0, 0, 0, 0x28, 0], "image/bmp"),
        SniffCase("GIF87a", Encode.ascii("GIF87a") + [0x01, 0x00, 0x01, 0x00, 0x80], "image/gif"),
        SniffCase("GIF89a", Encode.ascii("GIF89a") + [0x01, 0x00, 0x01, 0x00, 0x80], "image/gif"),
        SniffCase("WebP lossy", riff("WEBPVP8 ") + [0x10, 0, 0, 0], "image/webp"),
        SniffCase("WebP lossless", riff("WEBPVP8L"), "image/webp"),
        SniffCase("PNG", pngSignature + [0x00, 0x00, 0x00, 0x0D] + Encode.ascii("IHDR"), "image/png"),
        SniffCase("PNG signature alone", pngSignature, "image/png"),
        SniffCase("JPEG", [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + Encode.ascii("JFIF"), "image/jpeg"),
        SniffCase("JPEG, three bytes", [0xFF, 0xD8, 0xFF], "image/jpeg"),
        SniffCase("TIFF little-endian", Encode.ascii("II*") + [0x00, 0x08, 0x00, 0x00, 0x00], "image/tiff"),
        SniffCase("TIFF big-endian", Encode.ascii("MM") + [0x00] + Encode.ascii("*") + [0, 0, 0, 8], "image/tiff"),
        SniffCase("BigTIFF little-endian", Encode.ascii("II+") + [0x00, 0x08, 0x00, 0x00, 0x00, 0x10], "image/tiff"),
        SniffCase("BigTIFF big-endian", Encode.ascii("MM") + [0x00] + Encode.ascii("+") + [0, 8, 0, 0], "image/tiff"),
    ]

    static let mediaCases: [SniffCase] = [
        SniffCase("Ogg", Encode.ascii("OggS") + [0x00, 0x02, 0, 0], "application/ogg"),
        SniffCase("WAVE", riff("WAVEfmt "), "audio/wave"),
        SniffCase("AVI", riff("AVI LIST"), "video/avi"),
        SniffCase("MP3 with ID3v2.4", Encode.ascii("ID3") + [0x04, 0x00, 0x00, 0x00, 0x00, 0x01, 0x7F], "audio/mpeg"),
        SniffCase("MIDI", Encode.ascii("MThd") + [0x00, 0x00, 0x00, 0x06, 0x00, 0x01], "audio/midi"),
        SniffCase("AIFF", Encode.ascii("FORM") + [0x00, 0x01, 0x02, 0x03] + Encode.ascii("AIFFCOMM"), "audio/aiff"),
        SniffCase(
            "MP4, mp4 major brand",
            [0x00, 0x00, 0x00, 0x14] + Encode.ascii("ftypmp42") + [0, 0, 0, 0] + Encode.ascii("isom"),
            "video/mp4"),
        SniffCase(
            "MP4, mp4 compatible brand",
            [0x00, 0x00, 0x00, 0x18] + Encode.ascii("ftypisom") + [0, 0, 2, 0] + Encode.ascii("isommp41"), "video/mp4"),
        SniffCase(
            "ftyp without an mp4 brand",
            [0x00, 0x00, 0x00, 0x18] + Encode.ascii("ftypheic") + [0, 0, 0, 0] + Encode.ascii("mif1heic"), nil),
        SniffCase("ftyp box larger than the body", [0x00, 0x00, 0x00, 0x40] + Encode.ascii("ftypisom"), nil),
    ]

    static let fontCases: [SniffCase] = [
        SniffCase("WOFF", Encode.ascii("wOFF") + [0x00, 0x01, 0x00, 0x00], "font/woff"),
        SniffCase("WOFF2", Encode.ascii("wOF2") + [0x00, 0x01, 0x00, 0x00], "font/woff2"),
        SniffCase("OpenType CFF", Encode.ascii("OTTO") + [0x00, 0x0A, 0x00, 0x80, 0x00, 0x03, 0x00, 0x20], "font/otf"),
        SniffCase("TrueType collection", Encode.ascii("ttcf") + [0x00, 0x01, 0x00, 0x00], "font/collection"),
        // 11 tables: searchRange 8 × 16 = 128, entrySelector 3, rangeShift 48.
        SniffCase("TrueType", [0x00, 0x01, 0x00, 0x00, 0x00, 0x0B, 0x00, 0x80, 0x00, 0x03, 0x00, 0x30], "font/ttf"),
        SniffCase("TrueType, one table", [0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x00, 0x10, 0x00, 0x00], "font/ttf"),
        SniffCase("00 01 00 00 with no tables", [0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00], nil),
        SniffCase(
            "00 01 00 00 with a bad searchRange", [0x00, 0x01, 0x00, 0x00, 0x00, 0x0B, 0x00, 0x40, 0x00, 0x03], nil),
        SniffCase("00 01 00 00 alone", [0x00, 0x01, 0x00, 0x00], nil),
    ]

    static let archiveAndDocumentCases: [SniffCase] = [
        SniffCase("GZIP", [0x1F, 0x8B, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00], "application/x-gzip"),
        SniffCase("ZIP", Encode.ascii("PK") + [0x03, 0x04, 0x14, 0x00], "application/zip"),
        SniffCase("RAR 4", Encode.ascii("Rar!") + [0x1A, 0x07, 0x00, 0xCF, 0x90], "application/x-rar-compressed"),
        SniffCase("RAR 5", Encode.ascii("Rar!") + [0x1A, 0x07, 0x01, 0x00, 0x33], "application/x-rar-compressed"),
        SniffCase("old spec typo 'Rar ' is not RAR", Encode.ascii("Rar ") + [0x1A, 0x07, 0x00], nil),
        SniffCase("PDF", "%PDF-1.7\n%\u{E2}\u{E3}\u{CF}\u{D3}\n1 0 obj", "application/pdf"),
        SniffCase("PostScript", "%!PS-Adobe-3.0\n%%Creator: test\n", "application/postscript"),
        SniffCase("binary plist", Encode.ascii("bplist00") + [0xD1, 0x01, 0x02, 0x51], "application/x-plist"),
        SniffCase("binary plist, other version", Encode.ascii("bplist15") + [0x00, 0x01], "application/x-plist"),
        SniffCase("bplist00 alone", "bplist00", "application/x-plist"),
    ]

    static let xmlDeclaration = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    static let plistDoctype =
        "<!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" \"http://www.apple.com/DTDs/PropertyList-1.0.dtd\">\n"
    static let xmlPlist = xmlDeclaration + plistDoctype + "<plist version=\"1.0\">\n<dict/>\n</plist>\n"

    static let markupCases: [SniffCase] = [
        SniffCase("XML plist with declaration and doctype", xmlPlist, "application/x-plist"),
        SniffCase(
            "XML plist with declaration, no doctype", xmlDeclaration + "<plist version=\"1.0\"><true/></plist>",
            "application/x-plist"),
        SniffCase("XML plist without declaration", "<plist version=\"1.0\">\n<dict/></plist>", "application/x-plist"),
        SniffCase("XML plist, bare root", "<plist><integer>1</integer></plist>", "application/x-plist"),
        SniffCase("XML plist, doctype only", plistDoctype + "<plist/>", "application/x-plist"),
        SniffCase(
            "XML plist after comments and whitespace",
            "\n \t" + xmlDeclaration + "<!-- generated -->\n<?pi data?>\n" + plistDoctype + "<plist/>",
            "application/x-plist"),
        SniffCase("plain XML with declaration", xmlDeclaration + "<note><to>Tove</to></note>", "application/xml"),
        SniffCase("XML declaration only", "<?xml version=\"1.0\"?>", "application/xml"),
        SniffCase("unterminated XML declaration", "<?xml version=\"1.0\"", "application/xml"),
        SniffCase("XML declaration, then an unterminated comment", xmlDeclaration + "<!-- plist", "application/xml"),
        SniffCase("plain XML without declaration", "<note>\n<to>Tove</to>\n</note>", "application/xml"),
        SniffCase("XML with a non-plist doctype", "<!DOCTYPE svg>\n<svg/>", "application/xml"),
        SniffCase(
            "XHTML with declaration stays XML", xmlDeclaration + "<html xmlns=\"http://www.w3.org/1999/xhtml\">",
            "application/xml"),
        SniffCase("root element plistx is not a plist", "<plistx/>", "application/xml"),
        SniffCase(
            "RSS with declaration", xmlDeclaration + "<rss version=\"2.0\"><channel/></rss>", "application/rss+xml"),
        SniffCase("RSS without declaration", "<rss version=\"2.0\">", "application/rss+xml"),
        SniffCase("RSS after a stylesheet PI", "<?xml-stylesheet href=\"a.xsl\"?>\n<rss>", "application/rss+xml"),
        SniffCase(
            "Atom with declaration", xmlDeclaration + "<feed xmlns=\"http://www.w3.org/2005/Atom\">",
            "application/atom+xml"),
        SniffCase("Atom without declaration", "<feed xmlns=\"http://www.w3.org/2005/Atom\"/>", "application/atom+xml"),
        SniffCase(
            "prefixed Atom root", "<atom:feed xmlns:atom=\"http://www.w3.org/2005/Atom\">", "application/atom+xml"),
        SniffCase("HTML doctype", "<!DOCTYPE html>\n<html>", "text/html"),
        SniffCase("HTML doctype, uppercase", "<!DOCTYPE HTML PUBLIC \"-//W3C//DTD HTML 4.01//EN\">", "text/html"),
        SniffCase("HTML doctype, mixed case", "<!doctype Html>", "text/html"),
        SniffCase("HTML after whitespace", " \t\r\n\u{0C}<html lang=\"en\">", "text/html"),
        SniffCase("HTML comment", "<!-- page -->\n<p>", "text/html"),
        SniffCase("html", "<html>", "text/html"),
        SniffCase("head", "<HEAD>", "text/html"),
        SniffCase("script", "<script src=\"a.js\">", "text/html"),
        SniffCase("iframe", "<iframe src=x>", "text/html"),
        SniffCase("h1", "<h1>Title</h1>", "text/html"),
        SniffCase("div", "<Div class=a>", "text/html"),
        SniffCase("font", "<font face=x>", "text/html"),
        SniffCase("table", "<table>", "text/html"),
        SniffCase("a", "<a href=\"/\">home</a>", "text/html"),
        SniffCase("style", "<style>p{}</style>", "text/html"),
        SniffCase("title", "<title>t</title>", "text/html"),
        SniffCase("b", "<b>bold</b>", "text/html"),
        SniffCase("body", "<BODY bgcolor=white>", "text/html"),
        SniffCase("br", "<br>", "text/html"),
        SniffCase("p", "<p>para", "text/html"),
        SniffCase("tag without a tag-terminating byte is XML", "<html/>", "application/xml"),
        SniffCase("abbr is not a", "<abbr>x</abbr>", "application/xml"),
        SniffCase("comment without a terminator", "<!--x-->", "text/plain"),
        SniffCase("less-than and a digit", "<3 you", "text/plain"),
        SniffCase("PHP is not XML", "<?php echo 1; ?>", "text/plain"),
    ]

    static let jsonCases: [SniffCase] = [
        SniffCase("object", "{\"a\":1}", "application/json"),
        SniffCase("empty object", "{}", "application/json"),
        SniffCase("object with whitespace", " \n\t{ \r\n \"key\" : [] }", "application/json"),
        SniffCase("array of numbers", "[1,2,3]", "application/json"),
        SniffCase("empty array", "[]", "application/json"),
        SniffCase("array of strings", "[ \"x\" ]", "application/json"),
        SniffCase("array of objects", "[{\"a\":1}]", "application/json"),
        SniffCase("nested arrays", "[[[]]]", "application/json"),
        SniffCase("negative number", "[-1.5e3, 2]", "application/json"),
        SniffCase("true", "[true]", "application/json"),
        SniffCase("false", "[ false , 1]", "application/json"),
        SniffCase("null", "[null]", "application/json"),
        SniffCase("bare string is not sniffed", "\"hello\"", "text/plain"),
        SniffCase("bare number is not sniffed", "42", "text/plain"),
        SniffCase("bare literal is not sniffed", "true", "text/plain"),
        SniffCase("unquoted key", "{a: 1}", "text/plain"),
        SniffCase("lone brace", "{", "text/plain"),
        SniffCase("lone bracket", "[", "text/plain"),
        SniffCase("bracketed word", "[note] call me", "text/plain"),
        SniffCase("nothing after a literal", "[true", "text/plain"),
        SniffCase("literal prefix", "[nul]", "text/plain"),
        SniffCase("minus without digits", "[-]", "text/plain"),
        SniffCase("INI section", "[section]\nkey=value", "text/plain"),
    ]

    static let byteOrderMarkCases: [SniffCase] = [
        SniffCase("UTF-8 BOM, JSON", [0xEF, 0xBB, 0xBF] + Encode.ascii("{\"a\":1}"), "application/json"),
        SniffCase("UTF-8 BOM, text", [0xEF, 0xBB, 0xBF] + Encode.ascii("hello"), "text/plain;charset=UTF-8"),
        SniffCase("UTF-8 BOM, XML plist", [0xEF, 0xBB, 0xBF] + Encode.ascii(xmlPlist), "application/x-plist"),
        SniffCase("UTF-8 BOM alone", [0xEF, 0xBB, 0xBF], "text/plain;charset=UTF-8"),
        SniffCase("UTF-16LE BOM, text", [0xFF, 0xFE] + Encode.utf16LE("héllo"), "text/plain;charset=UTF-16LE"),
        SniffCase("UTF-16BE BOM, text", [0xFE, 0xFF] + Encode.utf16BE("hello"), "text/plain;charset=UTF-16BE"),
        SniffCase(
            "UTF-32LE BOM, text", [0xFF, 0xFE, 0x00, 0x00] + Encode.utf32LE("hi"), "text/plain;charset=UTF-32LE"),
        SniffCase(
            "UTF-32BE BOM, text", [0x00, 0x00, 0xFE, 0xFF] + Encode.utf32BE("hi"), "text/plain;charset=UTF-32BE"),
        SniffCase("UTF-16LE BOM alone", [0xFF, 0xFE], "text/plain;charset=UTF-16LE"),
        SniffCase("UTF-16LE BOM, odd trailing byte", [0xFF, 0xFE, 0x41], "text/plain;charset=UTF-16LE"),
        SniffCase("UTF-16LE BOM, JSON", [0xFF, 0xFE] + Encode.utf16LE("{\"é\": [1]}"), "application/json"),
        SniffCase("UTF-16BE BOM, JSON array", [0xFE, 0xFF] + Encode.utf16BE("[\"😀\"]"), "application/json"),
        SniffCase("UTF-32LE BOM, JSON", [0xFF, 0xFE, 0x00, 0x00] + Encode.utf32LE("[1]"), "application/json"),
        SniffCase("UTF-32BE BOM, JSON", [0x00, 0x00, 0xFE, 0xFF] + Encode.utf32BE("{}"), "application/json"),
        SniffCase("UTF-16BE BOM, HTML", [0xFE, 0xFF] + Encode.utf16BE("<html><body>"), "text/html"),
        SniffCase("UTF-16LE BOM, XML", [0xFF, 0xFE] + Encode.utf16LE(xmlDeclaration + "<a/>"), "application/xml"),
        SniffCase("UTF-16LE BOM, XML plist", [0xFF, 0xFE] + Encode.utf16LE(xmlPlist), "application/x-plist"),
        SniffCase(
            "UTF-32BE BOM, XML plist", [0x00, 0x00, 0xFE, 0xFF] + Encode.utf32BE(xmlPlist), "application/x-plist"),
        SniffCase("UTF-16LE BOM, RSS", [0xFF, 0xFE] + Encode.utf16LE("<rss version=\"2.0\">"), "application/rss+xml"),
        SniffCase(
            "UTF-16LE BOM, non-ASCII lookalike", [0xFF, 0xFE] + Encode.utf16LE("\u{FF5B}\"a\"}"),
            "text/plain;charset=UTF-16LE"),
    ]

    static let wideWithoutByteOrderMarkCases: [SniffCase] = [
        SniffCase("UTF-16LE JSON object", Encode.utf16LE("{\"a\":1}"), "application/json"),
        SniffCase("UTF-16BE JSON object", Encode.utf16BE("{\"a\":1}"), "application/json"),
        SniffCase("UTF-16LE JSON array", Encode.utf16LE("[1, 2]"), "application/json"),
        SniffCase("UTF-16BE JSON array", Encode.utf16BE("[\"é\"]"), "application/json"),
        SniffCase("UTF-16LE JSON, leading whitespace", Encode.utf16LE(" \n [ ]"), "application/json"),
        SniffCase("UTF-16BE JSON, empty object", Encode.utf16BE("{}"), "application/json"),
        SniffCase("UTF-32LE JSON object", Encode.utf32LE("{\"a\":1}"), "application/json"),
        SniffCase("UTF-32BE JSON object", Encode.utf32BE("{\"a\":1}"), "application/json"),
        SniffCase("UTF-32LE JSON array", Encode.utf32LE("[]"), "application/json"),
        SniffCase("UTF-32BE JSON array", Encode.utf32BE("[true]"), "application/json"),
        SniffCase("UTF-16LE XML plist", Encode.utf16LE(xmlPlist), "application/x-plist"),
        SniffCase("UTF-16BE XML", Encode.utf16BE(xmlDeclaration + "<a/>"), "application/xml"),
        SniffCase("UTF-16LE bare string", Encode.utf16LE("\"abc\""), nil),
        SniffCase("UTF-16LE text", Encode.utf16LE("hello world"), nil),
        SniffCase("UTF-16LE HTML needs a BOM", Encode.utf16LE("<html>"), nil),
        SniffCase("UTF-16LE XML without declaration needs a BOM", Encode.utf16LE("<plist/>"), nil),
        SniffCase("UTF-16LE, one code unit", Encode.utf16LE("["), nil),
    ]

    static let textAndUnknownCases: [SniffCase] = [
        SniffCase("empty", [], nil),
        SniffCase("one NUL byte", [0x00], nil),
        SniffCase("one letter", "a", "text/plain"),
        SniffCase("one high byte", [0xFF], "text/plain"),
        SniffCase("plain text", "hello, world\n", "text/plain"),
        SniffCase("UTF-8 text", "Grüße, 世界", "text/plain"),
        SniffCase("Latin-1 text", [0x63, 0x61, 0x66, 0xE9], "text/plain"),
        SniffCase("whitespace only", " \t\r\n\u{0C}", "text/plain"),
        SniffCase("text with ESC (0x1B is not binary)", [0x1B] + Encode.ascii("[31mred"), "text/plain"),
        SniffCase("CSV", "a,b,c\n1,2,3\n", "text/plain"),
        SniffCase("binary", [0x00, 0x01, 0x02, 0x03, 0xFF], nil),
        SniffCase("text with a NUL", "abc\u{0}def", nil),
        SniffCase("text with a vertical tab", "abc\u{0B}def", nil),
        SniffCase("text that starts with BM", "BMW is a car brand", "text/plain"),
        SniffCase("text that starts with ID3", "ID3 tags store metadata", "text/plain"),
        SniffCase("text that starts with OTTO", "OTTO von Bismarck", "text/plain"),
        SniffCase("text that starts with wOFF", "wOFF", "text/plain"),
        SniffCase("text that starts with bplist", "bplist is Apple's format", "text/plain"),
        SniffCase("BM in binary", Encode.ascii("BM") + [0x00], "image/bmp"),
    ]

    static let truncatedSignatureCases: [SniffCase] = [
        SniffCase("GIF8", "GIF8", "text/plain"),
        SniffCase("GIF89", "GIF89", "text/plain"),
        SniffCase("GIF88a", "GIF88a", "text/plain"),
        SniffCase("89 50 4E", [0x89, 0x50, 0x4E], "text/plain"),
        SniffCase("PNG signature minus one byte", Array(pngSignature.dropLast()), nil),
        SniffCase("PNG with CRLF damage", [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0D, 0x1A, 0x0D], nil),
        SniffCase("FF D8", [0xFF, 0xD8], "text/plain"),
        SniffCase("00 00 01", [0x00, 0x00, 0x01], nil),
        SniffCase("RIFF WEBP without VP", riff("WEBP"), nil),
        SniffCase("RIFF, short", Encode.ascii("RIFF") + [0x10, 0x00], nil),
        SniffCase("OggS without NUL", "OggS", "text/plain"),
        SniffCase("MThd with a wrong length", Encode.ascii("MThd") + [0x00, 0x00, 0x00, 0x05], nil),
        SniffCase("%PDF without dash", "%PDF", "text/plain"),
        SniffCase("%!PS-Adobe without dash", "%!PS-Adobe", "text/plain"),
        SniffCase("PK 03", Encode.ascii("PK") + [0x03], nil),
        SniffCase("Rar! 1A 07", Encode.ascii("Rar!") + [0x1A, 0x07], nil),
        SniffCase("1F 8B", [0x1F, 0x8B], nil),
        SniffCase("II*", "II*", "text/plain"),
        SniffCase("bplist", "bplist", "text/plain"),
        SniffCase("<?xm", "<?xm", "text/plain"),
        SniffCase("<!DOCTYPE HTM is a non-HTML doctype", "<!DOCTYPE HTM", "application/xml"),
    ]

    static let allCases: [SniffCase] =
        imageCases + mediaCases + fontCases + archiveAndDocumentCases + markupCases + jsonCases + byteOrderMarkCases
        + wideWithoutByteOrderMarkCases + textAndUnknownCases + truncatedSignatureCases

    @Test("images", arguments: imageCases)
    func sniffsImages(_ sniffCase: SniffCase) { expectSniff(sniffCase) }

    @Test("audio and video", arguments: mediaCases)
    func sniffsAudioAndVideo(_ sniffCase: SniffCase) { expectSniff(sniffCase) }

    @Test("fonts", arguments: fontCases)
    func sniffsFonts(_ sniffCase: SniffCase) { expectSniff(sniffCase) }

    @Test("archives, documents and binary plists", arguments: archiveAndDocumentCases)
    func sniffsArchivesAndDocuments(_ sniffCase: SniffCase) { expectSniff(sniffCase) }

    @Test("HTML, XML, plists and feeds", arguments: markupCases)
    func sniffsMarkup(_ sniffCase: SniffCase) { expectSniff(sniffCase) }

    @Test("JSON", arguments: jsonCases)
    func sniffsJSON(_ sniffCase: SniffCase) { expectSniff(sniffCase) }

    @Test("byte order marks", arguments: byteOrderMarkCases)
    func sniffsByteOrderMarks(_ sniffCase: SniffCase) { expectSniff(sniffCase) }

    @Test("UTF-16 and UTF-32 without a byte order mark", arguments: wideWithoutByteOrderMarkCases)
    func sniffsWideTextWithoutByteOrderMark(_ sniffCase: SniffCase) { expectSniff(sniffCase) }

    @Test("plain text and unknown binary", arguments: textAndUnknownCases)
    func sniffsTextAndUnknown(_ sniffCase: SniffCase) { expectSniff(sniffCase) }

    @Test("truncated signatures do not match", arguments: truncatedSignatureCases)
    func rejectsTruncatedSignatures(_ sniffCase: SniffCase) { expectSniff(sniffCase) }

    private func expectSniff(_ sniffCase: SniffCase, sourceLocation: SourceLocation = #_sourceLocation) {
        let sniffed = MediaTypeSniffer.sniff(Data(sniffCase.bytes))
        #expect(sniffed?.description == sniffCase.expected, sourceLocation: sourceLocation)
        let reasoned = MediaTypeSniffer.sniffWithReason(Data(sniffCase.bytes))
        #expect(reasoned?.mediaType == sniffed, sourceLocation: sourceLocation)
        if let reasoned {
            #expect(!reasoned.reason.isEmpty, sourceLocation: sourceLocation)
            #expect(reasoned.description.hasPrefix(reasoned.mediaType.description), sourceLocation: sourceLocation)
        }
    }

    // MARK: Results and reasons

    @Test func reportsRuleEncodingAndByteOrderMark() throws {
        let png = try #require(MediaTypeSniffer.sniffWithReason(Data(Self.pngSignature)))
        #expect(png.rule == .imageSignature)
        #expect(png.textEncoding == nil && png.byteOrderMarkLength == 0)
        #expect(png.reason.contains("PNG") && png.reason.contains("89 50 4E 47 0D 0A 1A 0A"))
        #expect(png.reason.contains("§6.1"))

        let utf16 = try #require(MediaTypeSniffer.sniffWithReason(Data([0xFF, 0xFE] + Encode.utf16LE("{}"))))
        #expect(utf16.rule == .json && utf16.textEncoding == .utf16LittleEndian && utf16.byteOrderMarkLength == 2)

        let utf32 = try #require(MediaTypeSniffer.sniffWithReason(Data([0xFF, 0xFE, 0, 0] + Encode.utf32LE("hi"))))
        #expect(utf32.rule == .byteOrderMark && utf32.textEncoding == .utf32LittleEndian)
        #expect(utf32.byteOrderMarkLength == 4 && utf32.mediaType.charset == "UTF-32LE")

        let utf8 = try #require(MediaTypeSniffer.sniffWithReason(Data([0xEF, 0xBB, 0xBF] + Encode.ascii("x"))))
        #expect(utf8.textEncoding == .utf8 && utf8.byteOrderMarkLength == 3)

        let bomless = try #require(MediaTypeSniffer.sniffWithReason(Data(Encode.utf32BE("[1]"))))
        #expect(bomless.rule == .json && bomless.textEncoding == .utf32BigEndian && bomless.byteOrderMarkLength == 0)
        #expect(bomless.reason.contains("RFC 4627"))

        let plist = try #require(MediaTypeSniffer.sniffWithReason(Data(Self.xmlPlist.utf8)))
        #expect(plist.rule == .xmlPropertyList && plist.reason.contains("doctype"))

        let html = try #require(MediaTypeSniffer.sniffWithReason(Data("<b>x".utf8)))
        #expect(html.rule == .html && html.reason.contains("§7.1"))

        let text = try #require(MediaTypeSniffer.sniffWithReason(Data("plain".utf8)))
        #expect(text.rule == .plainText && text.textEncoding == nil)

        #expect(MediaTypeSniffer.Rule.allCases.allSatisfy { !$0.description.isEmpty })
        #expect(
            MediaTypeSniffer.TextEncoding.allCases.map(\.description) == [
                "UTF-8", "UTF-16BE", "UTF-16LE", "UTF-32BE", "UTF-32LE",
            ])
    }

    // MARK: Resource header and robustness

    @Test func readsOnlyTheResourceHeader() {
        #expect(MediaTypeSniffer.resourceHeaderLength == 1445)
        let length = MediaTypeSniffer.resourceHeaderLength
        // A binary byte after the resource header does not make text binary.
        let text = Data(repeating: UInt8(ascii: "a"), count: length) + Data([0x00, 0x01])
        #expect(MediaTypeSniffer.sniff(text)?.description == "text/plain")
        // JSON whose first value starts past the resource header is not seen.
        let late = Data(repeating: UInt8(ascii: " "), count: length - 1) + Data("{\"a\":1}".utf8)
        #expect(MediaTypeSniffer.sniff(late)?.description == "text/plain")
        let early = Data(repeating: UInt8(ascii: " "), count: length - 3) + Data("{\"a\":1}".utf8)
        #expect(MediaTypeSniffer.sniff(early)?.description == "application/json")
        // A binary byte inside the header makes unknown data unknown.
        let binary = Data([0x00]) + Data(repeating: UInt8(ascii: "a"), count: 5000)
        #expect(MediaTypeSniffer.sniff(binary) == nil)
        // A plist root element past a long comment but inside the header is found.
        let comment = "<!--" + String(repeating: "x", count: 1300) + "-->"
        let commented = Data((Self.xmlDeclaration + comment + "<plist/>").utf8)
        #expect(MediaTypeSniffer.sniff(commented)?.description == "application/x-plist")
    }

    @Test("Data slices with a non-zero startIndex", arguments: allCases)
    func sniffsSlices(_ sniffCase: SniffCase) {
        let padding: [UInt8] = [0x00, 0xFF, 0x3C, 0x7B, 0x89]
        let whole = Data(padding + sniffCase.bytes + [0x00, 0x01])
        let slice = whole[whole.startIndex + padding.count..<whole.endIndex - 2]
        #expect(slice.startIndex == padding.count)
        #expect(MediaTypeSniffer.sniff(slice)?.description == sniffCase.expected)
    }

    @Test("every prefix of every case is safe", arguments: allCases)
    func sniffsEveryPrefix(_ sniffCase: SniffCase) {
        let data = Data([0xAA] + sniffCase.bytes)
        for end in data.startIndex + 1...data.endIndex {
            let prefix = data[data.startIndex + 1..<end]
            let result = MediaTypeSniffer.sniff(prefix)
            #expect(result == MediaTypeSniffer.sniff(Data(Array(prefix))))
            if prefix.isEmpty { #expect(result == nil) }
        }
    }

    @Test("random bytes never crash", arguments: 0..<8)
    func randomBytesNeverCrash(seed: Int) {
        var generator = SplitMix64(state: UInt64(seed) &* 0x2545_F491_4F6C_DD1D)
        let seeds: [[UInt8]] =
            Self.allCases.map(\.bytes).filter { !$0.isEmpty } + [Encode.ascii("<?xml"), Encode.ascii("<!--")]
        let alphabet = Encode.ascii("<>{}[]\"?!- \n/plistrsfedxmlhtmlDOCTYPE0123456789tfn,:") + [0x00, 0x80, 0xFF]
        for iteration in 0..<400 {
            let maximumLength = iteration % 10 == 0 ? 3000 : 48
            let length = Int.random(in: 0...maximumLength, using: &generator)
            var bytes: [UInt8]
            switch iteration % 3 {
            case 0:
                bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            case 1:
                bytes = (0..<length).map { _ in alphabet.randomElement(using: &generator)! }
            default:
                let start = seeds.randomElement(using: &generator)!
                let keep = Int.random(in: 0...start.count, using: &generator)
                let tail = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
                bytes = Array(start.prefix(keep)) + tail
            }
            let result = MediaTypeSniffer.sniffWithReason(Data(bytes))
            let header = bytes.prefix(MediaTypeSniffer.resourceHeaderLength)
            if result == nil {
                // Unknown only for empty bodies and for binary data.
                #expect(header.isEmpty || header.contains(where: MediaTypeSniffer.isBinaryDataByte), "\(bytes)")
            }
            let offset = Int.random(in: 1...7, using: &generator)
            let padded = Data([UInt8](repeating: 0x20, count: offset) + bytes)
            #expect(MediaTypeSniffer.sniffWithReason(padded[offset...]) == result)
        }
    }

    // MARK: Corpora

    @Test(
        "corpus files sniff as their format", .enabled(if: Corpora.isAvailable, "needs ../shared/corpora"),
        arguments: SnifferCorpusGroup.all)
    func sniffsCorpus(_ group: SnifferCorpusGroup) throws {
        let files = Corpora.files(under: group.folder, extensions: group.extensions)
        #expect(files.count >= group.minimumCount, "found only \(files.count) files")
        for url in files {
            let name = url.lastPathComponent
            let expected: String? = group.unknown.contains(name) ? nil : group.actual[name] ?? group.expected
            let sniffed = MediaTypeSniffer.sniff(try Self.resourceHeader(of: url))
            #expect(sniffed?.description == expected, "\(Corpora.relativePath(of: url))")
        }
    }

    @Test(
        "JSONTestSuite y_ files: structures are JSON, scalars are not",
        .enabled(if: Corpora.isAvailable, "needs ../shared/corpora"))
    func sniffsJSONTestSuite() throws {
        let files = Corpora.files(under: "json/JSONTestSuite/test_parsing", extension: "json")
            .filter { $0.lastPathComponent.hasPrefix("y_") }
        #expect(files.count == 95)
        var structures = 0
        for url in files {
            let bytes = try Data(contentsOf: url)
            let first = bytes.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
            let sniffed = MediaTypeSniffer.sniff(bytes)?.description
            if first == UInt8(ascii: "{") || first == UInt8(ascii: "[") {
                structures += 1
                #expect(sniffed == "application/json", "\(url.lastPathComponent)")
            } else {
                #expect(sniffed == "text/plain", "\(url.lastPathComponent): bare scalars are not sniffed")
            }
        }
        #expect(structures == 87)
    }

    static let namedCorpusFiles: [String: String?] = [
        "json/JSONTestSuite/test_parsing/i_string_UTF-16LE_with_BOM.json": "application/json",
        "json/JSONTestSuite/test_parsing/i_string_utf16BE_no_BOM.json": "application/json",
        "json/JSONTestSuite/test_parsing/i_string_utf16LE_no_BOM.json": "application/json",
        "json/JSONTestSuite/test_parsing/i_structure_UTF-8_BOM_empty_object.json": "application/json",
        "json/JSONTestSuite/test_parsing/n_structure_UTF8_BOM_no_data.json": "text/plain;charset=UTF-8",
        "json/JSONTestSuite/test_parsing/n_structure_incomplete_UTF8_BOM.json": "text/plain",
        "images/jpeg-decoder/tests/reftest/images/mozilla/jpg-size-6x6.jpg": "image/png",
        "images/pngsuite/image-png/tests/pngsuite/xs1n0g01.png": nil,
    ]

    @Test(
        "named corpus files", .enabled(if: Corpora.isAvailable, "needs ../shared/corpora"),
        arguments: namedCorpusFiles.keys.sorted())
    func sniffsNamedCorpusFile(_ path: String) throws {
        let url = try #require(Corpora.url(path))
        let expected = try #require(Self.namedCorpusFiles[path])
        #expect(MediaTypeSniffer.sniff(try Data(contentsOf: url))?.description == expected)
    }

    @Test(
        "malformed corpus inputs never crash", .enabled(if: Corpora.isAvailable, "needs ../shared/corpora"),
        arguments: [
            "images/image-tiff/tests/fuzz_images", "images/image-rs/tests/bad", "json/JSONTestSuite/test_parsing",
            "plist/cpython/invalid_binary", "images/bmpsuite/b", "images/image-gif/tests",
        ])
    func malformedInputsNeverCrash(_ folder: String) throws {
        let files = Corpora.files(under: folder) { _ in true }
        #expect(!files.isEmpty)
        for url in files {
            let data = try Self.resourceHeader(of: url)
            let result = MediaTypeSniffer.sniff(data)
            let shifted = Data([0x7F]) + data
            #expect(MediaTypeSniffer.sniff(shifted[(shifted.startIndex + 1)...]) == result)
            if result == nil {
                #expect(data.isEmpty || data.contains(where: MediaTypeSniffer.isBinaryDataByte))
            }
        }
    }

    /// The first bytes of `url`: enough for the resource header, without reading large images whole.
    static func resourceHeader(of url: URL) throws -> Data {
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        return try handle.read(upToCount: 4096) ?? Data()
    }
}
