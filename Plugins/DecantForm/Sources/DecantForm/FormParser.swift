public import DecantCore

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// The WHATWG URL Standard's `application/x-www-form-urlencoded` parser
/// (https://url.spec.whatwg.org/#concept-urlencoded-parser).
///
/// The body is split on `&` and empty sequences are skipped; each sequence is split at its first `=` (a sequence
/// without one is a name with an empty value); in name and value, `+` becomes a space, then `%XX` escapes are
/// decoded (a `%` not followed by two hex digits stays as it is, so `%zz` and a trailing `%` survive); finally the
/// bytes are decoded as UTF-8 without BOM handling (a leading U+FEFF is kept) and with replacement, so malformed
/// sequences become U+FFFD and parsing never fails on content. Only the limits in ``FormParsingOptions`` make it
/// throw.
///
/// The parser is one linear pass over the bytes. It does not consult a `charset` parameter: the standard defines the
/// format as UTF-8 only (the legacy `_charset_` field of HTML form submission is returned like any other field).
///
/// ```swift
/// let form = try FormParser().parse(Data("a=1&b=%E2%9C%93&c".utf8))
/// form.pairs.map { [$0.name, $0.value] }   // [["a", "1"], ["b", "✓"], ["c", ""]]
/// ```
public struct FormParser: Sendable {
    /// The limits applied.
    public var options: FormParsingOptions

    /// Creates a parser.
    public init(options: FormParsingOptions = FormParsingOptions()) {
        self.options = options
    }

    /// Parses `data` as `application/x-www-form-urlencoded` bytes.
    ///
    /// - Parameter data: The body.
    /// - Returns: The fields in body order.
    /// - Throws: `SerializationError` with code `limitExceeded` when the body is longer than
    ///   ``FormParsingOptions/maxBytes`` or holds more fields than ``FormParsingOptions/maxPairs``; its
    ///   ``SerializationError/offset`` is where the limit was crossed.
    public func parse(_ data: Data) throws(SerializationError) -> FormData {
        guard data.count <= options.maxBytes else {
            throw SerializationError(
                code: .limitExceeded,
                message: "The form body is \(data.count) bytes, more than the limit of \(options.maxBytes) bytes. "
                    + "Raise the option 'maxBytes' (FormParsingOptions.maxBytes) if such bodies are expected.",
                offset: max(options.maxBytes, 0))
        }
        var failure: SerializationError?
        let form = data.withUnsafeBytes { buffer -> FormData in
            do throws(SerializationError) {
                return try parse(bytes: buffer)
            } catch {
                failure = error
                return FormData()
            }
        }
        if let failure { throw failure }
        return form
    }

    /// Parses the UTF-8 bytes of `text`, as a body holding that text would be parsed.
    ///
    /// - Throws: As ``parse(_:)-(Data)`` does.
    public func parse(_ text: String) throws(SerializationError) -> FormData {
        try parse(Data(text.utf8))
    }

    /// The pass over the bytes.
    private func parse(bytes: UnsafeRawBufferPointer) throws(SerializationError) -> FormData {
        let count = bytes.count
        var pairs: [FormData.Pair] = []
        // Reused for every name and value that needs `+` or `%` decoding; never longer than the longest field.
        var scratch: [UInt8] = []
        var start = 0
        while start < count {
            var end = start
            var equals = -1
            var needsDecoding = false
            while end < count {
                let byte = bytes[end]
                if byte == ASCII.ampersand { break }
                if byte == ASCII.equals && equals < 0 {
                    equals = end
                } else if byte == ASCII.plus || byte == ASCII.percent {
                    needsDecoding = true
                }
                end &+= 1
            }
            if end > start {
                guard pairs.count < options.maxPairs else {
                    throw SerializationError(
                        code: .limitExceeded,
                        message: "The form body has more than \(options.maxPairs) fields. Raise the option "
                            + "'maxPairs' (FormParsingOptions.maxPairs) if such bodies are expected.",
                        offset: start)
                }
                let nameEnd = equals < 0 ? end : equals
                let name = Self.decode(bytes, from: start, to: nameEnd, needsDecoding, &scratch)
                let value =
                    equals < 0 ? "" : Self.decode(bytes, from: equals &+ 1, to: end, needsDecoding, &scratch)
                pairs.append(FormData.Pair(name: name, value: value))
            }
            start = end &+ 1
        }
        return FormData(pairs: pairs)
    }

    /// Decodes `bytes[lower..<upper]`: `+` to space, percent escapes, then UTF-8 with replacement.
    private static func decode(
        _ bytes: UnsafeRawBufferPointer, from lower: Int, to upper: Int, _ needsDecoding: Bool,
        _ scratch: inout [UInt8]
    ) -> String {
        let slice = UnsafeRawBufferPointer(rebasing: bytes[lower..<upper])
        guard needsDecoding else { return String(decoding: slice, as: UTF8.self) }
        scratch.removeAll(keepingCapacity: true)
        var index = 0
        let count = slice.count
        while index < count {
            let byte = slice[index]
            if byte == ASCII.plus {
                scratch.append(ASCII.space)
            } else if byte == ASCII.percent, index &+ 2 < count, let high = hexValue(slice[index &+ 1]),
                let low = hexValue(slice[index &+ 2])
            {
                scratch.append(high << 4 | low)
                index &+= 3
                continue
            } else {
                scratch.append(byte)
            }
            index &+= 1
        }
        return String(decoding: scratch, as: UTF8.self)
    }

    /// The value of an ASCII hex digit, or `nil`.
    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte &- 0x30
        case 0x41...0x46: byte &- 0x41 &+ 10
        case 0x61...0x66: byte &- 0x61 &+ 10
        default: nil
        }
    }
}

/// The bytes the parser looks for.
private enum ASCII {
    static let ampersand = UInt8(ascii: "&")
    static let equals = UInt8(ascii: "=")
    static let plus = UInt8(ascii: "+")
    static let percent = UInt8(ascii: "%")
    static let space = UInt8(ascii: " ")
}
