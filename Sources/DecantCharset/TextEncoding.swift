import DecantCore

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// A text encoding of the WHATWG Encoding Standard (https://encoding.spec.whatwg.org/), with its decoder.
///
/// Every encoding a browser knows is here: UTF-8, UTF-16LE/BE, the 28 legacy single-byte encodings, the Chinese,
/// Japanese and Korean multi-byte encodings, `replacement` and `x-user-defined` (``allWHATWG``, §4.2 "Names and
/// labels"). Find one from a `charset` parameter with ``init(label:)``, which knows all 228 labels, or use a constant
/// such as ``shiftJIS``. One more, ``isoLatin1``, is not a WHATWG encoding: it is true ISO-8859-1 (each byte is its
/// own code point) for the `text/*` default of RFC 2616, since WHATWG maps the label `iso-8859-1` to
/// ``windows1252``.
///
/// ```swift
/// let encoding = TextEncoding(label: " Shift_JIS ")!     // Shift_JIS
/// let text = try encoding.decode(body, mode: .strict)   // throws TextDecodingError at the first invalid byte
/// ```
///
/// ``decode(_:mode:)`` runs the encoding's decoder only; byte order marks are the job of ``CharsetPipeline``, which
/// implements the standard's "decode" (§6).
public struct TextEncoding: Sendable, Hashable, CustomStringConvertible {
    /// The canonical name, as the standard spells it: `UTF-8`, `windows-1252`, `Shift_JIS`, `gb18030`, ...
    public let name: String

    /// Which decoder runs.
    let kind: Kind

    /// The decoder families.
    enum Kind: Sendable, Hashable {
        case utf8, utf16LE, utf16BE
        /// A legacy single-byte encoding (§9) using the named index.
        case singleByte(index: String)
        case gb18030, big5, eucJP, iso2022JP, shiftJIS, eucKR
        case replacement, xUserDefined
        /// Not WHATWG: byte = code point.
        case isoLatin1
    }

    init(name: String, kind: Kind) {
        self.name = name
        self.kind = kind
    }

    private init(singleByte name: String, index: String? = nil) {
        self.init(name: name, kind: .singleByte(index: index ?? name))
    }

    /// The encoding for `label`, per the standard's "get an encoding" (§4.2): leading and trailing ASCII whitespace
    /// (TAB, LF, FF, CR, SPACE) is removed, ASCII letters are lowercased, and the result must be one of the 228
    /// labels exactly. `nil` for anything else.
    ///
    /// `iso-8859-1`, `latin1` and `us-ascii` give ``windows1252``; `utf-16` gives ``utf16LE``; labels such as
    /// `iso-2022-kr` give ``replacement``, which decodes any non-empty input to one U+FFFD (or an error in strict
    /// mode).
    public init?(label: String) {
        var bytes = Array(label.utf8)
        let isWhitespace = { (byte: UInt8) in
            byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D || byte == 0x20
        }
        while let last = bytes.last, isWhitespace(last) { bytes.removeLast() }
        let leading = bytes.prefix(while: isWhitespace).count
        if leading > 0 { bytes.removeFirst(leading) }
        for index in bytes.indices where bytes[index] >= UInt8(ascii: "A") && bytes[index] <= UInt8(ascii: "Z") {
            bytes[index] += 0x20
        }
        guard let encoding = TextEncoding.labelMap[String(decoding: bytes, as: UTF8.self)] else { return nil }
        self = encoding
    }

    /// The encoding's labels (§4.2), lowercase, in the standard's order. Empty for ``isoLatin1``, which no label
    /// reaches.
    public var labels: [String] { TextEncoding.labelsByName[name] ?? [] }

    /// The ``name``.
    public var description: String { name }

    // MARK: - The encoding (§8)

    /// UTF-8 (§8.1): the encoding of the web, and the default of JSON and XML.
    public static let utf8 = TextEncoding(name: "UTF-8", kind: .utf8)

    // MARK: - Legacy single-byte encodings (§9)

    /// IBM866 (DOS Cyrillic).
    public static let ibm866 = TextEncoding(singleByte: "IBM866")
    /// ISO-8859-2 (Latin-2, Central European).
    public static let iso8859_2 = TextEncoding(singleByte: "ISO-8859-2")
    /// ISO-8859-3 (Latin-3, South European).
    public static let iso8859_3 = TextEncoding(singleByte: "ISO-8859-3")
    /// ISO-8859-4 (Latin-4, North European).
    public static let iso8859_4 = TextEncoding(singleByte: "ISO-8859-4")
    /// ISO-8859-5 (Cyrillic).
    public static let iso8859_5 = TextEncoding(singleByte: "ISO-8859-5")
    /// ISO-8859-6 (Arabic).
    public static let iso8859_6 = TextEncoding(singleByte: "ISO-8859-6")
    /// ISO-8859-7 (Greek).
    public static let iso8859_7 = TextEncoding(singleByte: "ISO-8859-7")
    /// ISO-8859-8 (Hebrew, visual order).
    public static let iso8859_8 = TextEncoding(singleByte: "ISO-8859-8")
    /// ISO-8859-8-I (Hebrew, logical order): decodes exactly as ``iso8859_8`` (§9).
    public static let iso8859_8I = TextEncoding(singleByte: "ISO-8859-8-I", index: "ISO-8859-8")
    /// ISO-8859-10 (Latin-6, Nordic).
    public static let iso8859_10 = TextEncoding(singleByte: "ISO-8859-10")
    /// ISO-8859-13 (Latin-7, Baltic).
    public static let iso8859_13 = TextEncoding(singleByte: "ISO-8859-13")
    /// ISO-8859-14 (Latin-8, Celtic).
    public static let iso8859_14 = TextEncoding(singleByte: "ISO-8859-14")
    /// ISO-8859-15 (Latin-9, Western European with €).
    public static let iso8859_15 = TextEncoding(singleByte: "ISO-8859-15")
    /// ISO-8859-16 (Latin-10, South-Eastern European).
    public static let iso8859_16 = TextEncoding(singleByte: "ISO-8859-16")
    /// KOI8-R (Russian).
    public static let koi8R = TextEncoding(singleByte: "KOI8-R")
    /// KOI8-U (Ukrainian).
    public static let koi8U = TextEncoding(singleByte: "KOI8-U")
    /// macintosh (Mac OS Roman).
    public static let macintosh = TextEncoding(singleByte: "macintosh")
    /// windows-874 (Thai; also the labels `tis-620` and `iso-8859-11`).
    public static let windows874 = TextEncoding(singleByte: "windows-874")
    /// windows-1250 (Central European).
    public static let windows1250 = TextEncoding(singleByte: "windows-1250")
    /// windows-1251 (Cyrillic).
    public static let windows1251 = TextEncoding(singleByte: "windows-1251")
    /// windows-1252 (Western European): also what the labels `iso-8859-1`, `latin1` and `us-ascii` mean on the web.
    public static let windows1252 = TextEncoding(singleByte: "windows-1252")
    /// windows-1253 (Greek).
    public static let windows1253 = TextEncoding(singleByte: "windows-1253")
    /// windows-1254 (Turkish; also the labels `iso-8859-9` and `latin5`).
    public static let windows1254 = TextEncoding(singleByte: "windows-1254")
    /// windows-1255 (Hebrew).
    public static let windows1255 = TextEncoding(singleByte: "windows-1255")
    /// windows-1256 (Arabic).
    public static let windows1256 = TextEncoding(singleByte: "windows-1256")
    /// windows-1257 (Baltic).
    public static let windows1257 = TextEncoding(singleByte: "windows-1257")
    /// windows-1258 (Vietnamese).
    public static let windows1258 = TextEncoding(singleByte: "windows-1258")
    /// x-mac-cyrillic (Mac OS Cyrillic).
    public static let xMacCyrillic = TextEncoding(singleByte: "x-mac-cyrillic")

    // MARK: - Legacy multi-byte encodings (§10-§13)

    /// GBK (§10.1): decodes exactly as ``gb18030`` (the labels `gb2312`, `chinese`, ... reach it).
    public static let gbk = TextEncoding(name: "GBK", kind: .gb18030)
    /// gb18030 (§10.2): simplified Chinese, one to four bytes per character, covering all of Unicode.
    public static let gb18030 = TextEncoding(name: "gb18030", kind: .gb18030)
    /// Big5 (§11.1): traditional Chinese, with the Hong Kong Supplementary Character Set.
    public static let big5 = TextEncoding(name: "Big5", kind: .big5)
    /// EUC-JP (§12.1): Japanese, JIS X 0208 and JIS X 0212.
    public static let eucJP = TextEncoding(name: "EUC-JP", kind: .eucJP)
    /// ISO-2022-JP (§12.2): Japanese, stateful with escape sequences.
    public static let iso2022JP = TextEncoding(name: "ISO-2022-JP", kind: .iso2022JP)
    /// Shift_JIS (§12.3): Japanese, including the Windows (code page 932) extensions.
    public static let shiftJIS = TextEncoding(name: "Shift_JIS", kind: .shiftJIS)
    /// EUC-KR (§13.1): Korean, as Windows code page 949 (Unified Hangul Code).
    public static let eucKR = TextEncoding(name: "EUC-KR", kind: .eucKR)

    // MARK: - Legacy miscellaneous encodings (§14)

    /// replacement (§14.1): what the labels of encodings browsers refuse (`iso-2022-kr`, `hz-gb-2312`, ...) map to.
    /// Any non-empty input decodes to a single U+FFFD; in strict mode it is an error at offset 0.
    public static let replacement = TextEncoding(name: "replacement", kind: .replacement)
    /// UTF-16BE (§14.3).
    public static let utf16BE = TextEncoding(name: "UTF-16BE", kind: .utf16BE)
    /// UTF-16LE (§14.4); the label `utf-16` means this one.
    public static let utf16LE = TextEncoding(name: "UTF-16LE", kind: .utf16LE)
    /// x-user-defined (§14.5): bytes 0x80-0xFF become U+F780-U+F7FF, so binary data survives a text round trip.
    public static let xUserDefined = TextEncoding(name: "x-user-defined", kind: .xUserDefined)

    // MARK: - Not WHATWG

    /// True ISO-8859-1 (each byte is the code point of the same value, so 0x80-0x9F are C1 controls). Not a WHATWG
    /// encoding: the standard maps the label `iso-8859-1` to ``windows1252``, so no label reaches this one. It exists
    /// for the `text/*` default of HTTP/1.1 (RFC 2616 §3.7.1) that some servers still assume.
    public static let isoLatin1 = TextEncoding(name: "ISO-8859-1", kind: .isoLatin1)

    /// The 40 WHATWG encodings in the standard's order (§4.2), from ``utf8`` to ``xUserDefined``; without
    /// ``isoLatin1``.
    public static var allWHATWG: [TextEncoding] { whatwgEncodings }

    private static let whatwgEncodings: [TextEncoding] = [
        utf8,
        ibm866, iso8859_2, iso8859_3, iso8859_4, iso8859_5, iso8859_6, iso8859_7, iso8859_8, iso8859_8I, iso8859_10,
        iso8859_13, iso8859_14, iso8859_15, iso8859_16, koi8R, koi8U, macintosh, windows874, windows1250,
        windows1251, windows1252, windows1253, windows1254, windows1255, windows1256, windows1257, windows1258,
        xMacCyrillic,
        gbk, gb18030, big5, eucJP, iso2022JP, shiftJIS, eucKR,
        replacement, utf16BE, utf16LE, xUserDefined,
    ]

    /// Label to encoding, parsed once from the generated label table.
    static let labelMap: [String: TextEncoding] = {
        var map: [String: TextEncoding] = [:]
        for (name, labels) in parsedLabelTable {
            guard let encoding = whatwgEncodings.first(where: { $0.name == name }) else { continue }
            for label in labels { map[label] = encoding }
        }
        return map
    }()

    /// Encoding name to its labels, in the standard's order.
    static let labelsByName: [String: [String]] = Dictionary(
        parsedLabelTable.map { ($0.name, $0.labels) }, uniquingKeysWith: { first, _ in first })

    /// The generated label table as (name, labels) groups.
    static let parsedLabelTable: [(name: String, labels: [String])] = {
        var groups: [(name: String, labels: [String])] = []
        for token in EncodingTables.labelTable.split(whereSeparator: { $0 == " " || $0 == "\n" }) {
            if token.hasPrefix("@") {
                groups.append((name: String(token.dropFirst()), labels: []))
            } else if !groups.isEmpty {
                groups[groups.count - 1].labels.append(String(token))
            }
        }
        return groups
    }()

    // MARK: - Decoding

    /// Decodes `bytes` with this encoding's decoder (the standard's "process a queue" with this decoder, error mode
    /// "replacement" or "fatal").
    ///
    /// No byte order mark is sniffed or removed: a UTF-8 BOM decoded as UTF-8 becomes U+FEFF. Use
    /// ``CharsetPipeline`` for the standard's "decode" (§6), where a BOM wins over the label.
    ///
    /// - Parameters:
    ///   - bytes: The encoded text.
    ///   - mode: ``TextDecodingMode/replacement`` (the default) turns every invalid sequence into one U+FFFD, as
    ///     browsers do; ``TextDecodingMode/strict`` throws at the first one.
    /// - Throws: ``TextDecodingError`` with the byte offset of the first invalid sequence, in strict mode only.
    public func decode(_ bytes: Data, mode: TextDecodingMode = .replacement) throws(TextDecodingError) -> String {
        let result: Result<String, TextDecodingError> = bytes.withUnsafeBytes { raw in
            let buffer = raw.assumingMemoryBound(to: UInt8.self)
            do throws(TextDecodingError) {
                return .success(try decode(buffer: buffer, mode: mode))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Decodes the bytes in `buffer` (see ``decode(_:mode:)``).
    func decode(buffer: UnsafeBufferPointer<UInt8>, mode: TextDecodingMode) throws(TextDecodingError) -> String {
        switch kind {
        case .utf8:
            return try UTF8Decoder.decode(buffer, mode: mode, encoding: self)
        case .utf16LE:
            return try UTF16Decoder.decode(buffer, bigEndian: false, mode: mode, encoding: self)
        case .utf16BE:
            return try UTF16Decoder.decode(buffer, bigEndian: true, mode: mode, encoding: self)
        case .singleByte(let index):
            return try SingleByteDecoder.decode(
                buffer, table: SingleByteDecoder.table(forIndex: index), mode: mode, encoding: self)
        case .xUserDefined:
            return try SingleByteDecoder.decode(
                buffer, table: SingleByteDecoder.xUserDefinedTable, mode: mode, encoding: self)
        case .isoLatin1:
            return try SingleByteDecoder.decode(
                buffer, table: SingleByteDecoder.isoLatin1Table, mode: mode, encoding: self)
        case .gb18030:
            return try ChineseDecoders.decodeGB18030(buffer, mode: mode, encoding: self)
        case .big5:
            return try ChineseDecoders.decodeBig5(buffer, mode: mode, encoding: self)
        case .eucJP:
            return try JapaneseDecoders.decodeEUCJP(buffer, mode: mode, encoding: self)
        case .iso2022JP:
            return try JapaneseDecoders.decodeISO2022JP(buffer, mode: mode, encoding: self)
        case .shiftJIS:
            return try JapaneseDecoders.decodeShiftJIS(buffer, mode: mode, encoding: self)
        case .eucKR:
            return try KoreanDecoder.decodeEUCKR(buffer, mode: mode, encoding: self)
        case .replacement:
            // §14.1: one error for any non-empty input, then finished.
            guard !buffer.isEmpty else { return "" }
            if mode == .strict { throw TextDecodingError(encoding: self, offset: 0, input: buffer) }
            return "\u{FFFD}"
        }
    }
}
