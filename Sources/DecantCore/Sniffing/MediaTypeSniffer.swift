#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// Guesses a media type from the first bytes of a body (WHATWG MIME Sniffing signatures plus JSON, XML and
/// property-list heuristics).
///
/// Only the WHATWG MIME Sniffing §5.2 "resource header" is read: the first ``resourceHeaderLength`` (1445) bytes.
/// The checks run in this order; the first that matches wins:
///
/// 1. A byte order mark (WHATWG MIME Sniffing §7.1; UTF-32 is checked before UTF-16 so that `FF FE 00 00` reads as
///    UTF-32LE). The text after it goes through the text rules below; text that matches none of them is
///    `text/plain;charset=<encoding>`.
/// 2. Binary signatures: images (§6.1, plus TIFF and BigTIFF), audio and video (§6.2, including the §6.2.1 MP4
///    algorithm), fonts (§6.3), archives (§6.4, with the corrected RAR 4 and RAR 5 signatures), PDF and PostScript
///    (§7.1) and binary property lists (`bplist`).
/// 3. BOM-less UTF-16 and UTF-32 JSON (RFC 4627 §3 zero-byte patterns) and XML (XML 1.0 Appendix F).
/// 4. The text rules, after skipping leading whitespace bytes (§3): JSON (RFC 8259 §2: an object or an array, never a
///    bare scalar), the §7.1 HTML tag list, XML (property lists, RSS and Atom by their root element, §7.3), and any
///    other `<` followed by an ASCII letter as `application/xml`.
/// 5. `text/plain` when the resource header holds no binary data byte (§3, §7.1), otherwise `nil` ("unknown").
///
/// Two deliberate departures from the standard, both to keep text from being mistaken for binary formats:
/// signatures made only of printable ASCII and at most six bytes long (`BM`, `ID3`, `OTTO`, `wOFF`, `wOF2`, `ttcf`,
/// `bplist` other than `bplist00`) only count when the resource header also contains a binary data byte, as every
/// real file of those formats does; and TrueType (`00 01 00 00`) also requires a consistent offset table.
///
/// ```swift
/// MediaTypeSniffer.sniff(Data("{\"a\": 1}".utf8))            // application/json
/// MediaTypeSniffer.sniff(Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))  // image/png
/// MediaTypeSniffer.sniffWithReason(Data("<rss version=\"2.0\">".utf8))?.reason
/// ```
public enum MediaTypeSniffer {
    /// The number of leading bytes the sniffer reads: the WHATWG MIME Sniffing §5.2 resource header size.
    public static let resourceHeaderLength = 1445

    /// The media type `body` most likely has, or `nil` when nothing is recognised.
    ///
    /// `nil` for an empty body and for binary data that matches no known signature (WHATWG MIME Sniffing §7.1 would
    /// say `application/octet-stream`; `nil` lets callers tell "unknown" apart from a real type). See
    /// ``sniffWithReason(_:)`` for why a type was chosen.
    public static func sniff(_ body: Data) -> MediaType? {
        sniffWithReason(body)?.mediaType
    }

    /// The media type `body` most likely has together with the rule that matched, or `nil` when nothing is
    /// recognised.
    ///
    /// Reads at most ``resourceHeaderLength`` bytes (WHATWG MIME Sniffing §5.2). Never traps: any length, any bytes
    /// and `Data` slices with a non-zero `startIndex` are fine.
    public static func sniffWithReason(_ body: Data) -> SniffResult? {
        let header = ByteReader([UInt8](body.prefix(resourceHeaderLength)))
        guard header.count > 0 else { return nil }
        if let result = sniffByteOrderMark(header) { return result }
        let hasBinaryDataByte = header.bytes.contains(where: isBinaryDataByte)
        if let result = sniffSignature(header, hasBinaryDataByte: hasBinaryDataByte) { return result }
        if let result = sniffWideTextWithoutByteOrderMark(header) { return result }
        if let match = classifyText(header, allowing: .all) {
            return SniffResult(mediaType: match.mediaType, rule: match.rule, reason: match.reason)
        }
        if hasBinaryDataByte { return nil }
        return SniffResult(
            mediaType: plainText, rule: .plainText,
            reason: "no binary data bytes in the resource header (WHATWG MIME Sniffing §7.1)")
    }

    // MARK: - Public result types

    /// What the sniffer found: a media type, the rule that produced it and, for text, how it was read.
    public struct SniffResult: Sendable, Hashable, CustomStringConvertible {
        /// The sniffed media type, such as `image/png` or `text/plain;charset=UTF-16LE`.
        public let mediaType: MediaType
        /// The kind of rule that matched.
        public let rule: Rule
        /// A sentence naming the exact signature or heuristic and the specification section it comes from.
        public let reason: String
        /// The encoding the body was read in, when a byte order mark or an RFC 4627 §3 zero-byte pattern showed it;
        /// `nil` for binary signatures and for ASCII-compatible text without a byte order mark.
        public let textEncoding: TextEncoding?
        /// The length of the byte order mark at the start of the body (0, 2, 3 or 4), WHATWG Encoding "BOM sniff".
        public let byteOrderMarkLength: Int

        init(
            mediaType: MediaType, rule: Rule, reason: String, textEncoding: TextEncoding? = nil,
            byteOrderMarkLength: Int = 0
        ) {
            self.mediaType = mediaType
            self.rule = rule
            self.reason = reason
            self.textEncoding = textEncoding
            self.byteOrderMarkLength = byteOrderMarkLength
        }

        /// The media type followed by the reason, for traces.
        public var description: String { "\(mediaType) (\(reason))" }
    }

    /// The family of rule that identified a body.
    public enum Rule: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        /// An image signature (WHATWG MIME Sniffing §6.1, plus TIFF 6.0 §2 and BigTIFF headers).
        case imageSignature
        /// An audio or video signature (WHATWG MIME Sniffing §6.2 and the §6.2.1 MP4 algorithm).
        case audioVideoSignature
        /// A font signature (WHATWG MIME Sniffing §6.3).
        case fontSignature
        /// An archive signature (WHATWG MIME Sniffing §6.4).
        case archiveSignature
        /// The PDF or PostScript signature (WHATWG MIME Sniffing §7.1).
        case documentSignature
        /// A binary property list (`bplist` magic of Apple's binary plist format).
        case binaryPropertyList
        /// An XML property list: an optional XML declaration, then a `plist` doctype or root element.
        case xmlPropertyList
        /// One of the HTML tags of WHATWG MIME Sniffing §7.1.
        case html
        /// An RSS or Atom root element (WHATWG MIME Sniffing §7.3).
        case feed
        /// An XML declaration (WHATWG MIME Sniffing §7.1) or a leading `<` and ASCII letter.
        case xml
        /// The start of a JSON object or array (RFC 8259 §2).
        case json
        /// Text after a byte order mark that matched nothing more specific (WHATWG MIME Sniffing §7.1).
        case byteOrderMark
        /// A resource header without binary data bytes (WHATWG MIME Sniffing §7.1).
        case plainText

        /// The rule's name.
        public var description: String { rawValue }
    }

    /// A Unicode encoding recognised from a byte order mark or, without one, from RFC 4627 §3 zero-byte patterns.
    ///
    /// The raw values are the charset names used in sniffed `text/plain` types.
    public enum TextEncoding: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        /// UTF-8 (byte order mark `EF BB BF`).
        case utf8 = "UTF-8"
        /// UTF-16, big-endian (byte order mark `FE FF`).
        case utf16BigEndian = "UTF-16BE"
        /// UTF-16, little-endian (byte order mark `FF FE`).
        case utf16LittleEndian = "UTF-16LE"
        /// UTF-32, big-endian (byte order mark `00 00 FE FF`).
        case utf32BigEndian = "UTF-32BE"
        /// UTF-32, little-endian (byte order mark `FF FE 00 00`).
        case utf32LittleEndian = "UTF-32LE"

        /// The charset name, such as `UTF-16LE`.
        public var description: String { rawValue }

        /// The number of bytes in one code unit.
        var codeUnitSize: Int {
            switch self {
            case .utf8: 1
            case .utf16BigEndian, .utf16LittleEndian: 2
            case .utf32BigEndian, .utf32LittleEndian: 4
            }
        }
    }
}

// MARK: - Byte order marks and wide text

extension MediaTypeSniffer {
    /// Byte order marks, longest first so that UTF-32LE wins over UTF-16LE.
    private static let byteOrderMarks: [(bytes: [UInt8], encoding: TextEncoding)] = [
        ([0x00, 0x00, 0xFE, 0xFF], .utf32BigEndian),
        ([0xFF, 0xFE, 0x00, 0x00], .utf32LittleEndian),
        ([0xEF, 0xBB, 0xBF], .utf8),
        ([0xFE, 0xFF], .utf16BigEndian),
        ([0xFF, 0xFE], .utf16LittleEndian),
    ]

    /// WHATWG MIME Sniffing §7.1 byte order mark steps, extended to UTF-32 and to the text rules.
    private static func sniffByteOrderMark(_ header: ByteReader) -> SniffResult? {
        guard let (mark, encoding) = byteOrderMarks.first(where: { header.matches($0.bytes) }) else { return nil }
        let text = decodeASCII(header, from: mark.count, encoding: encoding)
        if let match = classifyText(text, allowing: .all) {
            return SniffResult(
                mediaType: match.mediaType, rule: match.rule,
                reason: match.reason + " after a \(encoding) byte order mark",
                textEncoding: encoding, byteOrderMarkLength: mark.count)
        }
        return SniffResult(
            mediaType: plainText.settingParameter("charset", to: encoding.rawValue), rule: .byteOrderMark,
            reason: "\(encoding) byte order mark (WHATWG MIME Sniffing §7.1)",
            textEncoding: encoding, byteOrderMarkLength: mark.count)
    }

    /// JSON (RFC 4627 §3) or XML (XML 1.0 Appendix F) in UTF-16 or UTF-32 without a byte order mark, recognised by
    /// where the zero bytes of the first ASCII characters fall.
    private static func sniffWideTextWithoutByteOrderMark(_ header: ByteReader) -> SniffResult? {
        guard header.count >= 4, let b0 = header[0], let b1 = header[1], let b2 = header[2], let b3 = header[3]
        else { return nil }
        let encoding: TextEncoding
        switch (b0 == 0, b1 == 0, b2 == 0, b3 == 0) {
        case (true, true, true, false): encoding = .utf32BigEndian
        case (false, true, true, true): encoding = .utf32LittleEndian
        case (true, false, _, _): encoding = .utf16BigEndian
        case (false, true, _, _): encoding = .utf16LittleEndian
        default: return nil
        }
        let text = decodeASCII(header, from: 0, encoding: encoding)
        guard let match = classifyText(text, allowing: .jsonAndXMLDeclaration) else { return nil }
        return SniffResult(
            mediaType: match.mediaType, rule: match.rule,
            reason: match.reason + " in \(encoding) without a byte order mark (zero-byte pattern, RFC 4627 §3)",
            textEncoding: encoding)
    }

    /// The code units of `header` from `offset` in `encoding`, each ASCII one as its byte and every other one as
    /// ``nonASCIIPlaceholder``. A trailing partial code unit is dropped.
    private static func decodeASCII(_ header: ByteReader, from offset: Int, encoding: TextEncoding) -> ByteReader {
        let bytes = header.bytes
        guard offset < bytes.count else { return ByteReader([]) }
        let size = encoding.codeUnitSize
        if size == 1 { return ByteReader(Array(bytes[offset...])) }
        var units: [UInt8] = []
        units.reserveCapacity((bytes.count - offset) / size)
        var index = offset
        while index + size <= bytes.count {
            var value: UInt32 = 0
            switch encoding {
            case .utf8:
                value = UInt32(bytes[index])
            case .utf16BigEndian:
                value = UInt32(bytes[index]) << 8 | UInt32(bytes[index + 1])
            case .utf16LittleEndian:
                value = UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index])
            case .utf32BigEndian:
                for byte in bytes[index..<index + 4] { value = value << 8 | UInt32(byte) }
            case .utf32LittleEndian:
                for byte in bytes[index..<index + 4].reversed() { value = value << 8 | UInt32(byte) }
            }
            units.append(value < 0x80 ? UInt8(value) : nonASCIIPlaceholder)
            index += size
        }
        return ByteReader(units)
    }

    /// Stands in for a non-ASCII code unit in decoded text: not whitespace, not a delimiter, not a letter.
    private static let nonASCIIPlaceholder: UInt8 = 0x80
}

// MARK: - Binary signatures

extension MediaTypeSniffer {
    /// A byte pattern at offset 0; `nil` entries match any byte (a WHATWG mask byte of `00`).
    private struct Signature: Sendable {
        let name: String
        let pattern: [UInt8?]
        let mediaType: MediaType
        let rule: Rule
        let citation: String
        /// Whether the match also needs a binary data byte somewhere in the resource header.
        let needsBinaryDataByte: Bool

        init(
            _ name: String, _ pattern: [UInt8?], _ type: String, _ subtype: String, _ rule: Rule, _ citation: String,
            needsBinaryDataByte: Bool = false
        ) {
            self.name = name
            self.pattern = pattern
            self.mediaType = MediaType(type: type, subtype: subtype)
            self.rule = rule
            self.citation = citation
            self.needsBinaryDataByte = needsBinaryDataByte
        }
    }

    /// `count` wildcard bytes.
    private static func any(_ count: Int) -> [UInt8?] { Array(repeating: nil, count: count) }

    /// The bytes of an ASCII literal as a pattern.
    private static func ascii(_ literal: String) -> [UInt8?] { literal.utf8.map { $0 } }

    private static let signatures: [Signature] = {
        let image = "WHATWG MIME Sniffing §6.1"
        let media = "WHATWG MIME Sniffing §6.2"
        let font = "WHATWG MIME Sniffing §6.3"
        let archive = "WHATWG MIME Sniffing §6.4"
        let document = "WHATWG MIME Sniffing §7.1"
        let tiff = "TIFF 6.0 §2 image file header"
        let bigTIFF = "BigTIFF file header"
        let plist = "Apple binary property list header"
        return [
            // §6.1 images.
            Signature("Windows icon", [0x00, 0x00, 0x01, 0x00], "image", "x-icon", .imageSignature, image),
            Signature("Windows cursor", [0x00, 0x00, 0x02, 0x00], "image", "x-icon", .imageSignature, image),
            Signature("BMP", ascii("BM"), "image", "bmp", .imageSignature, image, needsBinaryDataByte: true),
            Signature("GIF87a", ascii("GIF87a"), "image", "gif", .imageSignature, image),
            Signature("GIF89a", ascii("GIF89a"), "image", "gif", .imageSignature, image),
            Signature("WebP", ascii("RIFF") + any(4) + ascii("WEBPVP"), "image", "webp", .imageSignature, image),
            Signature(
                "PNG", [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], "image", "png", .imageSignature, image),
            Signature("JPEG", [0xFF, 0xD8, 0xFF], "image", "jpeg", .imageSignature, image),
            Signature("little-endian TIFF", ascii("II*") + [0x00], "image", "tiff", .imageSignature, tiff),
            Signature("big-endian TIFF", ascii("MM") + [0x00] + ascii("*"), "image", "tiff", .imageSignature, tiff),
            Signature(
                "little-endian BigTIFF", ascii("II+") + [0x00, 0x08, 0x00, 0x00, 0x00], "image", "tiff",
                .imageSignature, bigTIFF),
            Signature(
                "big-endian BigTIFF", ascii("MM") + [0x00] + ascii("+") + [0x00, 0x08, 0x00, 0x00], "image", "tiff",
                .imageSignature, bigTIFF),
            // §6.2 audio and video.
            Signature("AIFF", ascii("FORM") + any(4) + ascii("AIFF"), "audio", "aiff", .audioVideoSignature, media),
            Signature(
                "MP3 with ID3", ascii("ID3"), "audio", "mpeg", .audioVideoSignature, media,
                needsBinaryDataByte: true),
            Signature("Ogg", ascii("OggS") + [0x00], "application", "ogg", .audioVideoSignature, media),
            Signature(
                "MIDI", ascii("MThd") + [0x00, 0x00, 0x00, 0x06], "audio", "midi", .audioVideoSignature, media),
            Signature("AVI", ascii("RIFF") + any(4) + ascii("AVI "), "video", "avi", .audioVideoSignature, media),
            Signature("WAVE", ascii("RIFF") + any(4) + ascii("WAVE"), "audio", "wave", .audioVideoSignature, media),
            // §6.3 fonts (TrueType is checked separately, with its offset table).
            Signature("OpenType", ascii("OTTO"), "font", "otf", .fontSignature, font, needsBinaryDataByte: true),
            Signature(
                "TrueType collection", ascii("ttcf"), "font", "collection", .fontSignature, font,
                needsBinaryDataByte: true),
            Signature("WOFF", ascii("wOFF"), "font", "woff", .fontSignature, font, needsBinaryDataByte: true),
            Signature("WOFF 2.0", ascii("wOF2"), "font", "woff2", .fontSignature, font, needsBinaryDataByte: true),
            // §6.4 archives (RAR as corrected by whatwg/mimesniff#144, plus the RAR 5 signature).
            Signature("GZIP", [0x1F, 0x8B, 0x08], "application", "x-gzip", .archiveSignature, archive),
            Signature("ZIP", ascii("PK") + [0x03, 0x04], "application", "zip", .archiveSignature, archive),
            Signature(
                "RAR 4", ascii("Rar!") + [0x1A, 0x07, 0x00], "application", "x-rar-compressed", .archiveSignature,
                archive),
            Signature(
                "RAR 5", ascii("Rar!") + [0x1A, 0x07, 0x01, 0x00], "application", "x-rar-compressed",
                .archiveSignature, archive),
            // §7.1 documents.
            Signature("PDF", ascii("%PDF-"), "application", "pdf", .documentSignature, document),
            Signature("PostScript", ascii("%!PS-Adobe-"), "application", "postscript", .documentSignature, document),
            // Binary property lists: `bplist00` is unmistakable; other versions need binary evidence.
            Signature("bplist00", ascii("bplist00"), "application", "x-plist", .binaryPropertyList, plist),
            Signature(
                "bplist", ascii("bplist"), "application", "x-plist", .binaryPropertyList, plist,
                needsBinaryDataByte: true),
        ]
    }()

    private static func sniffSignature(_ header: ByteReader, hasBinaryDataByte: Bool) -> SniffResult? {
        for signature in signatures where header.matches(signature.pattern) {
            if signature.needsBinaryDataByte && !hasBinaryDataByte { continue }
            return SniffResult(
                mediaType: signature.mediaType, rule: signature.rule,
                reason: "\(signature.name) signature \(hex(signature.pattern)) (\(signature.citation))")
        }
        if isMP4(header) {
            return SniffResult(
                mediaType: MediaType(type: "video", subtype: "mp4"), rule: .audioVideoSignature,
                reason: "ftyp box with an mp4 brand (WHATWG MIME Sniffing §6.2.1)")
        }
        if isTrueType(header) {
            return SniffResult(
                mediaType: MediaType(type: "font", subtype: "ttf"), rule: .fontSignature,
                reason: "TrueType signature 00 01 00 00 with a consistent offset table (WHATWG MIME Sniffing §6.3)")
        }
        return nil
    }

    /// WHATWG MIME Sniffing §6.2.1 "signature for MP4", bounded by the resource header.
    private static func isMP4(_ header: ByteReader) -> Bool {
        guard header.count >= 12, let boxSize = header.uint32BigEndian(at: 0) else { return false }
        guard header.count >= boxSize, boxSize % 4 == 0, header.matches(ascii("ftyp"), at: 4) else { return false }
        let mp4 = ascii("mp4")
        if header.matches(mp4, at: 8) { return true }
        var offset = 16
        while offset < boxSize {
            if header.matches(mp4, at: offset) { return true }
            offset += 4
        }
        return false
    }

    /// A TrueType offset table: `00 01 00 00`, then a table count of at least one whose `searchRange`
    /// (16 × the largest power of two ≤ the count) and `entrySelector` (log₂ of that power) agree with it.
    ///
    /// WHATWG MIME Sniffing §6.3 matches the first four bytes alone; four bytes starting with zero are too weak a
    /// signal outside a font context, so the table header is checked too (OpenType `sfnt` table directory).
    private static func isTrueType(_ header: ByteReader) -> Bool {
        guard header.matches([0x00, 0x01, 0x00, 0x00]), let tables = header.uint16BigEndian(at: 4),
            let searchRange = header.uint16BigEndian(at: 6), let entrySelector = header.uint16BigEndian(at: 8),
            tables > 0
        else { return false }
        var power = 1
        var log2 = 0
        while power * 2 <= tables {
            power *= 2
            log2 += 1
        }
        return searchRange == power * 16 && entrySelector == log2
    }

    /// `pattern` as spaced hexadecimal bytes, `??` for wildcards.
    private static func hex(_ pattern: [UInt8?]) -> String {
        let digits = Array("0123456789ABCDEF")
        return pattern.map { byte in
            guard let byte else { return "??" }
            return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
        }.joined(separator: " ")
    }
}

// MARK: - Text rules

extension MediaTypeSniffer {
    /// Which text rules may match.
    private enum TextRules {
        /// Every rule: JSON, HTML, XML, property lists and feeds.
        case all
        /// JSON, and XML only when it starts with an XML declaration (for BOM-less UTF-16 and UTF-32).
        case jsonAndXMLDeclaration
    }

    /// A text rule's verdict.
    private struct TextMatch {
        let mediaType: MediaType
        let rule: Rule
        let reason: String
    }

    private static let plainText = MediaType(type: "text", subtype: "plain")
    private static let json = MediaType(type: "application", subtype: "json")
    private static let html = MediaType(type: "text", subtype: "html")
    private static let xml = MediaType(type: "application", subtype: "xml")
    private static let propertyList = MediaType(type: "application", subtype: "x-plist")
    private static let rss = MediaType(type: "application", subtype: "rss+xml")
    private static let atom = MediaType(type: "application", subtype: "atom+xml")

    /// The WHATWG MIME Sniffing §7.1 HTML patterns, uppercase; each must be followed by a tag-terminating byte.
    private static let htmlPatterns: [[UInt8]] = [
        "<!DOCTYPE HTML", "<HTML", "<HEAD", "<SCRIPT", "<IFRAME", "<H1", "<DIV", "<FONT", "<TABLE", "<A", "<STYLE",
        "<TITLE", "<B", "<BODY", "<BR", "<P", "<!--",
    ].map { Array($0.utf8) }

    private static let xmlDeclaration = Array("<?xml".utf8)
    private static let doctype = Array("<!DOCTYPE".utf8)
    private static let commentStart = Array("<!--".utf8)
    private static let commentEnd = Array("-->".utf8)
    private static let processingInstructionStart = Array("<?".utf8)
    private static let processingInstructionEnd = Array("?>".utf8)
    private static let literals: [[UInt8]] = ["true", "false", "null"].map { Array($0.utf8) }

    /// Applies the text rules to `text` (ASCII code units) after skipping leading whitespace bytes.
    private static func classifyText(_ text: ByteReader, allowing rules: TextRules) -> TextMatch? {
        let start = text.skip(from: 0, while: isWhitespaceByte)
        guard let first = text[start] else { return nil }
        switch first {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            guard let opening = jsonOpening(text, at: start) else { return nil }
            return TextMatch(mediaType: json, rule: .json, reason: "\(opening) (RFC 8259 §2)")
        case UInt8(ascii: "<"):
            if rules == .jsonAndXMLDeclaration && !text.matches(xmlDeclaration, at: start) { return nil }
            return classifyMarkup(text, at: start)
        default:
            return nil
        }
    }

    /// A description of the JSON object or array opening at `start`, or `nil` when it does not look like JSON.
    private static func jsonOpening(_ text: ByteReader, at start: Int) -> String? {
        let next = text.skip(from: start + 1, while: isJSONWhitespace)
        guard let opener = text[start], let byte = text[next] else { return nil }
        if opener == UInt8(ascii: "{") {
            switch byte {
            case UInt8(ascii: "\""): return "an object opening with a member name"
            case UInt8(ascii: "}"): return "an empty object"
            default: return nil
            }
        }
        switch byte {
        case UInt8(ascii: "]"):
            return "an empty array"
        case UInt8(ascii: "\""), UInt8(ascii: "{"), UInt8(ascii: "["):
            return "an array opening with a string, object or array"
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            let end = text.skip(from: next + 1) { isASCIIDigit($0) || "+-.eE".utf8.contains($0) }
            guard byte != UInt8(ascii: "-") || text[next + 1].map(isASCIIDigit) == true,
                closesArrayElement(text, at: end)
            else { return nil }
            return "an array opening with a number"
        default:
            guard let literal = literals.first(where: { text.matches($0, at: next) }),
                closesArrayElement(text, at: next + literal.count)
            else { return nil }
            return "an array opening with a literal"
        }
    }

    /// Whether an array element that ended at `offset` is followed (after whitespace) by `,` or `]`.
    private static func closesArrayElement(_ text: ByteReader, at offset: Int) -> Bool {
        let next = text.skip(from: offset, while: isJSONWhitespace)
        return text[next] == UInt8(ascii: ",") || text[next] == UInt8(ascii: "]")
    }

    /// HTML, XML, property list or feed for text whose first non-whitespace byte is `<` at `start`.
    private static func classifyMarkup(_ text: ByteReader, at start: Int) -> TextMatch? {
        for pattern in htmlPatterns where text.matchesIgnoringASCIICase(pattern, at: start) {
            let terminator = text[start + pattern.count]
            guard terminator == 0x20 || terminator == 0x3E else { continue }
            let tag = String(decoding: pattern, as: UTF8.self)
            return TextMatch(
                mediaType: html, rule: .html,
                reason: "HTML pattern \"\(tag)\" followed by a tag-terminating byte (WHATWG MIME Sniffing §7.1)")
        }
        let hasDeclaration = text.matches(xmlDeclaration, at: start)
        let startsMarkup =
            hasDeclaration || text.matches(doctype, at: start) || text[start + 1].map(isASCIILetter) == true
        guard startsMarkup else { return nil }
        let root = xmlRootName(text, from: start)
        let opening = hasDeclaration ? "an XML declaration" : "markup"
        switch root.map(localName) {
        case "plist":
            return TextMatch(
                mediaType: propertyList, rule: .xmlPropertyList,
                reason: "\(opening) with a plist \(root?.viaDoctype == true ? "doctype" : "root element") "
                    + "(Apple XML property list, XML 1.0 §2.8)")
        case "rss":
            let reason = "\(opening) with an rss root element (WHATWG MIME Sniffing §7.3)"
            return TextMatch(mediaType: rss, rule: .feed, reason: reason)
        case "feed":
            let reason = "\(opening) with a feed root element (WHATWG MIME Sniffing §7.3)"
            return TextMatch(mediaType: atom, rule: .feed, reason: reason)
        default:
            let reason =
                hasDeclaration
                ? "an XML declaration \"<?xml\" (WHATWG MIME Sniffing §7.1)"
                : "\"<\" followed by an ASCII letter or a doctype (XML 1.0 §2.8)"
            return TextMatch(mediaType: xml, rule: .xml, reason: reason)
        }
    }

    /// The name of the root element (or of the doctype, which names it) after the XML prolog starting at `start`:
    /// an optional XML declaration, then comments, processing instructions and whitespace (XML 1.0 §2.8).
    private static func xmlRootName(_ text: ByteReader, from start: Int) -> (name: String, viaDoctype: Bool)? {
        var offset = start
        while offset < text.count {
            offset = text.skip(from: offset, while: isWhitespaceByte)
            if text.matches(commentStart, at: offset) {
                guard let end = text.firstIndex(of: commentEnd, from: offset + commentStart.count) else { return nil }
                offset = end + commentEnd.count
            } else if text.matches(processingInstructionStart, at: offset) {
                let from = offset + processingInstructionStart.count
                guard let end = text.firstIndex(of: processingInstructionEnd, from: from) else { return nil }
                offset = end + processingInstructionEnd.count
            } else if text.matches(doctype, at: offset) {
                let nameStart = text.skip(from: offset + doctype.count, while: isWhitespaceByte)
                return xmlName(text, at: nameStart).map { ($0, true) }
            } else if text[offset] == UInt8(ascii: "<") {
                return xmlName(text, at: offset + 1).map { ($0, false) }
            } else {
                return nil
            }
        }
        return nil
    }

    /// The ASCII XML name at `offset`, or `nil` when none starts there.
    private static func xmlName(_ text: ByteReader, at offset: Int) -> String? {
        guard let first = text[offset], isASCIILetter(first) || first == UInt8(ascii: "_") || first == UInt8(ascii: ":")
        else { return nil }
        let end = text.skip(from: offset) { isASCIILetter($0) || isASCIIDigit($0) || "-_.:".utf8.contains($0) }
        return String(decoding: text.bytes[offset..<end], as: UTF8.self)
    }

    /// The part of a qualified name after its prefix: `feed` for `atom:feed`.
    private static func localName(_ root: (name: String, viaDoctype: Bool)) -> String {
        guard let colon = root.name.lastIndex(of: ":") else { return root.name }
        return String(root.name[root.name.index(after: colon)...])
    }
}

// MARK: - Byte classes and reading

extension MediaTypeSniffer {
    /// WHATWG MIME Sniffing §3 "binary data byte": 0x00-0x08, 0x0B, 0x0E-0x1A, 0x1C-0x1F.
    static func isBinaryDataByte(_ byte: UInt8) -> Bool {
        byte <= 0x08 || byte == 0x0B || (0x0E...0x1A).contains(byte) || (0x1C...0x1F).contains(byte)
    }

    /// WHATWG MIME Sniffing §3 "whitespace byte": TAB, LF, FF, CR, SPACE.
    private static func isWhitespaceByte(_ byte: UInt8) -> Bool {
        byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D || byte == 0x20
    }

    /// RFC 8259 §2 whitespace: SPACE, TAB, LF, CR.
    private static func isJSONWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    private static func isASCIILetter(_ byte: UInt8) -> Bool {
        (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
    }

    private static func isASCIIDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }

    /// Bounds-checked reads over a copied resource header; every read past either end yields `nil` or `false`.
    private struct ByteReader {
        let bytes: [UInt8]

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        var count: Int { bytes.count }

        subscript(_ offset: Int) -> UInt8? {
            offset >= 0 && offset < bytes.count ? bytes[offset] : nil
        }

        /// Whether `pattern` (with `nil` wildcards) occurs at `offset`.
        func matches(_ pattern: [UInt8?], at offset: Int = 0) -> Bool {
            guard offset >= 0, offset <= bytes.count, pattern.count <= bytes.count - offset else { return false }
            for (index, expected) in pattern.enumerated() {
                if let expected, bytes[offset + index] != expected { return false }
            }
            return true
        }

        /// Whether `literal` occurs at `offset`.
        func matches(_ literal: [UInt8], at offset: Int = 0) -> Bool {
            guard offset >= 0, offset <= bytes.count, literal.count <= bytes.count - offset else { return false }
            return bytes[offset..<offset + literal.count].elementsEqual(literal)
        }

        /// Whether `uppercase` occurs at `offset`, ASCII letters compared case-insensitively.
        func matchesIgnoringASCIICase(_ uppercase: [UInt8], at offset: Int) -> Bool {
            guard offset >= 0, offset <= bytes.count, uppercase.count <= bytes.count - offset else { return false }
            for (index, expected) in uppercase.enumerated() {
                let byte = bytes[offset + index]
                let folded = (0x61...0x7A).contains(byte) ? byte - 0x20 : byte
                if folded != expected { return false }
            }
            return true
        }

        /// The first offset at or after `offset` whose byte fails `predicate` (or `count`).
        func skip(from offset: Int, while predicate: (UInt8) -> Bool) -> Int {
            var index = max(offset, 0)
            while index < bytes.count && predicate(bytes[index]) { index += 1 }
            return index
        }

        /// The offset of the first occurrence of `needle` at or after `offset`.
        func firstIndex(of needle: [UInt8], from offset: Int) -> Int? {
            var index = max(offset, 0)
            while index + needle.count <= bytes.count {
                if matches(needle, at: index) { return index }
                index += 1
            }
            return nil
        }

        func uint16BigEndian(at offset: Int) -> Int? {
            guard let high = self[offset], let low = self[offset + 1] else { return nil }
            return Int(high) << 8 | Int(low)
        }

        func uint32BigEndian(at offset: Int) -> Int? {
            guard let high = uint16BigEndian(at: offset), let low = uint16BigEndian(at: offset + 2) else { return nil }
            return high << 16 | low
        }
    }
}
