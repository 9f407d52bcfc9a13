public import DecantCore

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes a ``MultipartBody`` as bytes (RFC 2046 §5.1): the one place that states how a multipart body is framed,
/// which ``MultipartBodyEncoder`` and ``MultipartUpload`` both use.
///
/// The body is `preamble CRLF` (when there is one), then for each part `--boundary CRLF`, its header fields
/// (`Name: value CRLF` each), `CRLF` and its bytes, each later delimiter preceded by `CRLF`, and finally
/// `CRLF --boundary-- CRLF` and the epilogue. A part whose `Content-Transfer-Encoding` is `base64` or
/// `quoted-printable` has its ``MultipartPart/body`` (the decoded bytes) encoded again that way; other parts are
/// written as they are.
///
/// The body's ``MultipartBody/boundary`` is kept when it is a valid boundary (1-70 `bchars`, not ending with a space)
/// and `--boundary` occurs nowhere in the preamble, a header block or a part's bytes; otherwise a new random one is
/// generated (``makeBoundary()``) and checked the same way. So no part can hold a delimiter of its own body.
///
/// ```swift
/// let written = try MultipartWriter().write(body)
/// let contentType = body.mediaType.settingParameter("boundary", to: written.boundary)
/// ```
public struct MultipartWriter: Sendable {
    /// Creates a writer.
    public init() {}

    /// The bytes of `body` and the boundary they are delimited by.
    ///
    /// - Throws: `SerializationError` with code `encodingFailed` when a header field name is not a token or a
    ///   header field value holds a CR, LF or NUL (it would end the header block early); `limitExceeded` when no
    ///   boundary absent from the parts was found in 16 attempts (which random 128-bit boundaries make impossible in
    ///   practice).
    public func write(_ body: MultipartBody) throws(SerializationError) -> (bytes: Data, boundary: String) {
        var heads: [Data] = []
        var contents: [Data] = []
        heads.reserveCapacity(body.parts.count)
        contents.reserveCapacity(body.parts.count)
        for part in body.parts {
            heads.append(try Self.headerBlock(part.headers, codingPath: ["parts", String(part.index)]))
            contents.append(Self.transferEncoded(part))
        }
        let pieces = [body.preamble ?? Data()] + heads + contents
        var boundary = body.boundary
        var attempts = 0
        while !Self.isValidBoundary(boundary) || pieces.contains(where: { Self.contains($0, delimiterOf: boundary) }) {
            attempts += 1
            guard attempts <= 16 else {
                throw SerializationError(
                    code: .limitExceeded,
                    message: "No boundary absent from the parts was found in 16 attempts. Check the random number "
                        + "generator of this system.")
            }
            boundary = Self.makeBoundary()
        }
        var bytes = Data()
        bytes.reserveCapacity(contents.reduce(heads.reduce(256) { $0 + $1.count }) { $0 + $1.count + 80 })
        if let preamble = body.preamble {
            bytes.append(preamble)
            bytes.append(contentsOf: Self.lineBreak)
        }
        for index in heads.indices {
            bytes.append(Self.delimiter(boundary, first: index == 0))
            bytes.append(heads[index])
            bytes.append(contents[index])
        }
        bytes.append(Self.closeDelimiter(boundary, afterParts: !heads.isEmpty))
        if let epilogue = body.epilogue { bytes.append(epilogue) }
        return (bytes, boundary)
    }

    /// A new random boundary: `decant-` and 32 hexadecimal digits (128 random bits from the system's generator), so
    /// that no content that was not made to hold it can.
    public static func makeBoundary() -> String {
        var generator = SystemRandomNumberGenerator()
        let high = generator.next() as UInt64
        let low = generator.next() as UInt64
        return "decant-" + hex(high) + hex(low)
    }

    /// Whether `boundary` is a valid boundary (RFC 2046 §5.1.1): 1 to 70 `bchars` (digits, letters and
    /// `'()+_,-./:=?` and space), not ending with a space.
    public static func isValidBoundary(_ boundary: String) -> Bool {
        let bytes = Array(boundary.utf8)
        guard (1...70).contains(bytes.count), bytes.last != 0x20 else { return false }
        return bytes.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "A")...UInt8(ascii: "Z"):
                true
            default: Array("'()+_,-./:=? ".utf8).contains(byte)
            }
        }
    }

    // MARK: - The pieces, shared with MultipartUpload

    /// CR LF.
    static let lineBreak: [UInt8] = [0x0D, 0x0A]

    /// The delimiter line that opens a part: `--boundary CRLF`, with the line break of the previous part's end
    /// before it unless it is the first.
    static func delimiter(_ boundary: String, first: Bool) -> Data {
        Data(((first ? "" : "\r\n") + "--" + boundary + "\r\n").utf8)
    }

    /// The close delimiter line: `CRLF --boundary-- CRLF` (without the leading line break when there are no parts,
    /// which the reader rejects anyway).
    static func closeDelimiter(_ boundary: String, afterParts: Bool) -> Data {
        Data(((afterParts ? "\r\n" : "") + "--" + boundary + "--\r\n").utf8)
    }

    /// `fields` as a header block: `Name: value CRLF` each, then the empty line.
    static func headerBlock(_ fields: HTTPHeaderFields, codingPath: [String]) throws(SerializationError) -> Data {
        var block = Data()
        for field in fields {
            guard !field.name.isEmpty, field.name.utf8.allSatisfy(HeaderSyntax.isTokenByte) else {
                throw invalidHeader(
                    "The header field name \"\(field.name)\" is not a token (RFC 9110 §5.1).", codingPath: codingPath)
            }
            guard !field.value.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 }) else {
                throw invalidHeader(
                    "The value of the header field \(field.name) holds a CR, LF or NUL, which would end the part's "
                        + "header block early. Remove them (file names are escaped by MultipartUpload).",
                    codingPath: codingPath)
            }
            block.append(contentsOf: field.name.utf8)
            block.append(contentsOf: ": ".utf8)
            block.append(contentsOf: field.value.utf8)
            block.append(contentsOf: lineBreak)
        }
        block.append(contentsOf: lineBreak)
        return block
    }

    /// A `Content-Disposition` value: `form-data` (or `type`) with the `name` and `filename` parameters quoted and
    /// escaped as the WHATWG HTML Standard's form submission does (`"` as `%22`, CR as `%0D`, LF as `%0A`, everything
    /// else, non-ASCII included, as UTF-8), which RFC 7578 §4.2 allows.
    static func disposition(_ type: String = "form-data", name: String?, filename: String?) -> String {
        var value = type
        if let name { value += "; name=\"" + escaped(name) + "\"" }
        if let filename { value += "; filename=\"" + escaped(filename) + "\"" }
        return value
    }

    /// `value` with `"`, CR and LF percent-encoded.
    static func escaped(_ value: String) -> String {
        var result = ""
        result.reserveCapacity(value.utf8.count)
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": result += "%22"
            case "\r": result += "%0D"
            case "\n": result += "%0A"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Whether `--boundary` occurs anywhere in `data`: a superset of the delimiters a reader could find there.
    static func contains(_ data: Data, delimiterOf boundary: String) -> Bool {
        var scanner = BoundaryScanner(boundary: boundary)
        return scanner.scan(data)
    }

    /// The bytes of `part` as sent: its body encoded again with its `Content-Transfer-Encoding` when that is
    /// `base64` or `quoted-printable`.
    static func transferEncoded(_ part: MultipartPart) -> Data {
        switch part.headers["Content-Transfer-Encoding"]?.trimmingSpaces.lowercased() {
        case "base64": TransferEncoding.encodeBase64(part.body)
        case "quoted-printable": TransferEncoding.encodeQuotedPrintable(part.body)
        default: part.body
        }
    }

    /// The error for a header field that cannot be written.
    private static func invalidHeader(_ message: String, codingPath: [String]) -> SerializationError {
        SerializationError(code: .encodingFailed, message: message, codingPath: codingPath)
    }

    /// `value` as 16 lowercase hexadecimal digits.
    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}

/// Finds `--boundary` in bytes that arrive in pieces: it keeps the last bytes of one piece that could start a match
/// completed by the next, so the memory it holds is the boundary's length.
struct BoundaryScanner {
    /// `--` and the boundary.
    let pattern: [UInt8]
    /// The last `pattern.count - 1` bytes seen at most.
    private var carry: [UInt8] = []

    /// A scanner for `--boundary`.
    init(boundary: String) { pattern = Array(("--" + boundary).utf8) }

    /// Whether `--boundary` occurs in the bytes seen so far, `bytes` being the next ones.
    mutating func scan(_ bytes: Data) -> Bool {
        guard !pattern.isEmpty else { return false }
        let window = carry + Array(bytes.prefix(pattern.count - 1))
        if window.withUnsafeBytes({ Self.find(pattern, in: $0) }) { return true }
        if bytes.withUnsafeBytes({ Self.find(pattern, in: $0) }) { return true }
        carry = Array((carry + Array(bytes.suffix(pattern.count - 1))).suffix(pattern.count - 1))
        return false
    }

    /// Whether `pattern` occurs in `haystack`: `memchr` finds each candidate first byte (`-`), `memcmp` compares.
    private static func find(_ pattern: [UInt8], in haystack: UnsafeRawBufferPointer) -> Bool {
        guard let first = pattern.first, haystack.count >= pattern.count, let base = haystack.baseAddress else {
            return false
        }
        return pattern.withUnsafeBytes { needle in
            let last = haystack.count - pattern.count
            var offset = 0
            while offset <= last {
                guard let hit = memchr(base + offset, Int32(first), last - offset + 1) else { return false }
                let position = base.distance(to: UnsafeRawPointer(hit))
                if memcmp(base + position, needle.baseAddress!, pattern.count) == 0 { return true }
                offset = position + 1
            }
            return false
        }
    }
}

extension String {
    /// The string without leading and trailing spaces and tabs.
    fileprivate var trimmingSpaces: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
