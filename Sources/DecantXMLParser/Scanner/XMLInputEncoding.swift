import DecantCharset
internal import DecantCore

#if canImport(FoundationEssentials)
    internal import FoundationEssentials
#else
    internal import Foundation
#endif

/// Finds a body's encoding (XML 1.0 Appendix F, RFC 7303 §3) and prepares UTF-8 bytes for the scanner.
///
/// The order: a byte order mark; else the `<?` pattern of UTF-16 without one; else the media type's `charset`
/// parameter; else the XML declaration's `encoding`; else UTF-8. UTF-8 (and US-ASCII) bodies are scanned in place;
/// every other encoding is transcoded with `TextEncoding`'s strict decoder first.
struct XMLInputEncoding {
    /// Why the encoding was chosen.
    enum Source {
        case byteOrderMark, utf16Pattern, charsetParameter, declaration, defaultUTF8
    }

    /// The encoding, or `nil` for UTF-8 scanned in place.
    var encoding: TextEncoding?
    var source: Source
    /// Bytes to skip (a byte order mark).
    var skip: Int
    /// Whether the encoding is UTF-16 (from a mark or the pattern).
    var isUTF16: Bool { encoding == .utf16LE || encoding == .utf16BE }
    /// Checks only ASCII (from a `us-ascii` label).
    var asciiOnly = false

    static let utf16Labels: Set<String> = [
        "utf-16", "utf-16le", "utf-16be", "ucs-2", "iso-10646-ucs-2", "csunicode", "unicode", "unicodefffe",
        "unicodefeff", "utf16",
    ]
    static let latin1Labels: Set<String> = [
        "iso-8859-1", "iso8859-1", "iso88591", "iso_8859-1", "iso_8859-1:1987", "latin1", "l1", "iso-ir-100",
        "ibm819", "cp819", "csisolatin1",
    ]
    static let asciiLabels: Set<String> = ["us-ascii", "ascii", "ansi_x3.4-1968", "iso646-us", "csascii", "us"]

    /// Detects the encoding of `data`.
    static func detect(_ data: Data, mediaType: MediaType?) throws(XMLFailure) -> XMLInputEncoding {
        let prefix = Array(data.prefix(4))
        func at(_ index: Int) -> UInt8? { index < prefix.count ? prefix[index] : nil }
        if at(0) == 0xEF, at(1) == 0xBB, at(2) == 0xBF { return XMLInputEncoding(source: .byteOrderMark, skip: 3) }
        if at(0) == 0x00, at(1) == 0x00, (at(2) == 0xFE && at(3) == 0xFF) || (at(2) == 0x00 && at(3) == 0x3C) {
            throw unsupported("the body is UTF-32 (big-endian), which Decant does not decode; send it as UTF-8")
        }
        if at(0) == 0xFF, at(1) == 0xFE, at(2) == 0x00, at(3) == 0x00 {
            throw unsupported("the body is UTF-32 (little-endian), which Decant does not decode; send it as UTF-8")
        }
        if at(0) == 0x3C, at(1) == 0x00, at(2) == 0x00, at(3) == 0x00 {
            throw unsupported("the body is UTF-32 (little-endian), which Decant does not decode; send it as UTF-8")
        }
        if at(0) == 0xFE, at(1) == 0xFF {
            return XMLInputEncoding(encoding: .utf16BE, source: .byteOrderMark, skip: 2)
        }
        if at(0) == 0xFF, at(1) == 0xFE {
            return XMLInputEncoding(encoding: .utf16LE, source: .byteOrderMark, skip: 2)
        }
        if at(0) == 0x3C, at(1) == 0x00, at(2) == 0x3F, at(3) == 0x00 {
            return XMLInputEncoding(encoding: .utf16LE, source: .utf16Pattern, skip: 0)
        }
        if at(0) == 0x00, at(1) == 0x3C, at(2) == 0x00, at(3) == 0x3F {
            return XMLInputEncoding(encoding: .utf16BE, source: .utf16Pattern, skip: 0)
        }
        if at(0) == 0x4C, at(1) == 0x6F, at(2) == 0xA7, at(3) == 0x94 {
            throw unsupported("the body is in an EBCDIC encoding, which Decant does not decode; send it as UTF-8")
        }
        if let label = mediaType?.charset {
            return try resolve(label, source: .charsetParameter, where: "the charset parameter")
        }
        if let label = declaredEncoding(in: data) {
            return try resolve(label, source: .declaration, where: "the XML declaration")
        }
        return XMLInputEncoding(source: .defaultUTF8, skip: 0)
    }

    /// The encoding a label names, for an ASCII-compatible body.
    static func resolve(_ label: String, source: Source, where place: String) throws(XMLFailure) -> XMLInputEncoding {
        let lowered = label.trimmingASCIIWhitespace().lowercased()
        if utf16Labels.contains(lowered) {
            var failure = XMLFailure(
                kind: .invalidEncoding,
                reason: "\(place) names the encoding `\(label)`, but the body does not start like UTF-16 (no byte "
                    + "order mark and no `<?` in UTF-16); send UTF-16 with a byte order mark or correct the label",
                offset: 0)
            failure.kind = .invalidEncoding
            throw failure
        }
        if latin1Labels.contains(lowered) { return XMLInputEncoding(encoding: .isoLatin1, source: source, skip: 0) }
        if asciiLabels.contains(lowered) {
            return XMLInputEncoding(encoding: nil, source: source, skip: 0, asciiOnly: true)
        }
        guard let encoding = TextEncoding(label: lowered), encoding != .replacement else {
            throw unsupported(
                "\(place) names the encoding `\(label)`, which Decant does not know; use UTF-8 or a WHATWG encoding "
                    + "label such as `windows-1252` or `Shift_JIS`")
        }
        if encoding == .utf8 { return XMLInputEncoding(encoding: nil, source: source, skip: 0) }
        return XMLInputEncoding(encoding: encoding, source: source, skip: 0)
    }

    static func unsupported(_ reason: String) -> XMLFailure {
        XMLFailure(kind: .unsupportedFeature, reason: reason, offset: 0)
    }

    /// The `encoding` pseudo-attribute of an XML declaration in an ASCII-compatible body, read without decoding.
    static func declaredEncoding(in data: Data) -> String? {
        let head = Array(data.prefix(512))
        guard head.count > 6, head.starts(with: Array("<?xml".utf8)),
            [0x20, 0x09, 0x0A, 0x0D].contains(head[5])
        else { return nil }
        guard let close = firstIndex(of: Array("?>".utf8), in: head) else { return nil }
        let declaration = Array(head[..<close])
        guard var index = firstIndex(of: Array("encoding".utf8), in: declaration) else { return nil }
        index += 8
        while index < declaration.count, [0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: "=")].contains(declaration[index]) {
            index += 1
        }
        guard index < declaration.count, declaration[index] == UInt8(ascii: "\"") || declaration[index] == 0x27
        else { return nil }
        let quote = declaration[index]
        let start = index + 1
        guard let stop = declaration[start...].firstIndex(of: quote) else { return nil }
        return String(decoding: declaration[start..<stop], as: UTF8.self)
    }

    static func firstIndex(of needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for index in 0...(haystack.count - needle.count)
        where haystack[index..<(index + needle.count)].elementsEqual(needle) {
            return index
        }
        return nil
    }

    /// Checks the XML declaration's `encoding` against this one; a failure when they contradict each other.
    func check(declared label: String) -> XMLFailure? {
        let lowered = label.lowercased()
        let declaresUTF16 = XMLInputEncoding.utf16Labels.contains(lowered)
        switch source {
        case .byteOrderMark, .utf16Pattern:
            let isUTF16 = self.isUTF16
            if isUTF16 != declaresUTF16 && !(isUTF16 == false && (lowered == "utf-8" || lowered == "utf8")) {
                let found =
                    isUTF16 ? "UTF-16" : "UTF-8"
                let why = source == .byteOrderMark ? "its byte order mark" : "its first bytes"
                return XMLFailure(
                    kind: .invalidEncoding,
                    reason: "the XML declaration says the encoding is `\(label)`, but \(why) say the body is \(found); "
                        + "correct the declaration",
                    offset: 0)
            }
            if !isUTF16, !(lowered == "utf-8" || lowered == "utf8") {
                return XMLFailure(
                    kind: .invalidEncoding,
                    reason: "the XML declaration says the encoding is `\(label)`, but the body starts with a UTF-8 "
                        + "byte order mark; correct the declaration",
                    offset: 0)
            }
            return nil
        case .charsetParameter, .declaration, .defaultUTF8:
            return nil
        }
    }
}

extension String {
    func trimmingASCIIWhitespace() -> String {
        let bytes = Array(utf8)
        let isSpace = { (byte: UInt8) in byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0C }
        guard let first = bytes.firstIndex(where: { !isSpace($0) }), let last = bytes.lastIndex(where: { !isSpace($0) })
        else { return "" }
        return String(decoding: bytes[first...last], as: UTF8.self)
    }
}
