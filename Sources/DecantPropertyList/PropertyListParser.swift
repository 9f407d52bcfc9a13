import DecantCharset
public import DecantCore

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// The property list formats Decant reads.
public enum PropertyListFormat: String, Sendable, Hashable, CaseIterable {
    /// Detect the format: `bplist` magic is binary, a leading `<` is XML, anything else OpenStep.
    case auto
    /// Binary property lists (`bplist00`).
    case binary
    /// XML property lists (the Apple plist DTD).
    case xml
    /// OpenStep (old-style ASCII) property lists.
    case openStep
}

/// How property lists are parsed: the format and the limits that keep untrusted input bounded.
public struct PropertyListParsingOptions: Sendable, Hashable {
    /// The default ``maxDepth``.
    public static let defaultMaxDepth = 512
    /// The default ``maxObjects``.
    public static let defaultMaxObjects = 1_000_000
    /// The default ``maxValueBytes``: 128 MiB, twice the default body limit.
    public static let defaultMaxValueBytes = 128 << 20

    /// The format to read; ``PropertyListFormat/auto`` detects it.
    public var format: PropertyListFormat
    /// The deepest nesting of arrays and dictionaries accepted (parsing never recurses, whatever the depth).
    public var maxDepth: Int
    /// The most values the result may hold, counting every value each time it is reachable: a binary object
    /// referenced from ten places counts ten times, which bounds shared-reference bombs. A binary property list's
    /// offset table may list at most twice this many objects (values and the dictionary keys beside them).
    public var maxObjects: Int
    /// The most bytes of string and data (UTF-8 text, data bytes, dictionary keys included) the result may hold,
    /// counting a shared binary object at every reference: a 500 KB string referenced from 300,000 places in a 1 MB
    /// binary property list would otherwise expand to 150 GB wherever the value is rendered. XML and OpenStep text
    /// cannot hold more string and data than their body, so only binary property lists can reach this limit.
    public var maxValueBytes: Int

    /// Options with the given format and limits.
    public init(
        format: PropertyListFormat = .auto,
        maxDepth: Int = PropertyListParsingOptions.defaultMaxDepth,
        maxObjects: Int = PropertyListParsingOptions.defaultMaxObjects,
        maxValueBytes: Int = PropertyListParsingOptions.defaultMaxValueBytes
    ) {
        self.format = format
        self.maxDepth = maxDepth
        self.maxObjects = maxObjects
        self.maxValueBytes = maxValueBytes
    }
}

/// Parses binary, XML and OpenStep property lists into ``PropertyListValue``s.
///
/// Errors are `SerializationError`s with the code `invalidBody` (with the byte offset, and the line and column for
/// text formats), `limitExceeded` or `unsupportedFeature`.
public struct PropertyListParser: Sendable {
    /// The format and limits.
    public var options: PropertyListParsingOptions

    /// A parser with `options`.
    public init(options: PropertyListParsingOptions = PropertyListParsingOptions()) {
        self.options = options
    }

    /// The format `auto` detection picks for `data`.
    ///
    /// `bplist` magic is binary, even when the rest is too short to be one (the binary reader then says what is
    /// wrong). Otherwise the first 64 bytes are read as text (UTF-8, or UTF-16 after its byte order mark): a first
    /// non-space character `<` that opens markup is XML, and anything else OpenStep, including a `<` that opens hex
    /// data (hex digits and spaces up to `>`, such as the whole document `<0fbd7761>`).
    public static func detectFormat(of data: Data) -> PropertyListFormat {
        if data.starts(with: Array("bplist".utf8)) { return .binary }
        var bytes = Array(data.prefix(64))
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) {
            let bigEndian = bytes[0] == 0xFE
            var units: [UInt16] = []
            var index = 2
            while index + 1 < bytes.count {
                let (high, low) = bigEndian ? (bytes[index], bytes[index + 1]) : (bytes[index + 1], bytes[index])
                units.append(UInt16(high) << 8 | UInt16(low))
                index += 2
            }
            return textFormat(units)
        }
        if bytes.count >= 2 && (bytes[0] == 0 && bytes[1] == 0x3C || bytes[0] == 0x3C && bytes[1] == 0) { return .xml }
        return textFormat(bytes.map { UInt16($0) })
    }

    /// The format of text starting with the code units `units`: XML when the first non-space one is a `<` opening
    /// markup, otherwise OpenStep (a `<` followed by hex digits and spaces up to `>`, or up to the end of `units`, is
    /// OpenStep data: no XML markup looks like that).
    private static func textFormat(_ units: [UInt16]) -> PropertyListFormat {
        func isSpace(_ unit: UInt16) -> Bool { unit == 0x20 || unit == 0x09 || unit == 0x0A || unit == 0x0D }
        guard let start = units.firstIndex(where: { !isSpace($0) }), units[start] == 0x3C else { return .openStep }
        for unit in units[(start + 1)...] {
            if unit == 0x3E { return .openStep }
            let folded = unit | 0x20
            let isHexDigit = (unit >= 0x30 && unit <= 0x39) || (folded >= 0x61 && folded <= 0x66)
            if !isHexDigit && !isSpace(unit) { return .xml }
        }
        return .openStep
    }

    /// Parses `data` in the configured format.
    ///
    /// - Parameters:
    ///   - data: The property list bytes.
    ///   - mediaType: The body's media type, whose `charset` parameter names the encoding of text formats that have
    ///     neither a byte order mark nor an XML declaration naming one.
    public func parse(_ data: Data, mediaType: MediaType? = nil) throws(SerializationError) -> PropertyListValue {
        let format = options.format == .auto ? PropertyListParser.detectFormat(of: data) : options.format
        switch format {
        case .binary, .auto:
            return try BinaryPropertyListParser.parse(data, options: options)
        case .xml:
            let decoded = try PropertyListText.decode(data, mediaType: mediaType, xml: true)
            do {
                return try XMLPropertyListParser.parse(decoded.text, options: options)
            } catch {
                throw PropertyListText.bodyOffsets(error, decoded)
            }
        case .openStep:
            let decoded = try PropertyListText.decode(data, mediaType: mediaType, xml: false)
            var parser = OpenStepPropertyListParser(text: Array(decoded.text.utf8), options: options)
            do {
                return try parser.parse()
            } catch {
                throw PropertyListText.bodyOffsets(error, decoded)
            }
        }
    }
}

/// Decoding text property lists through DecantCore's charset pipeline.
enum PropertyListText {
    /// The text of `data`: a byte order mark, else (XML) the declaration's encoding or UTF-16 detected from `<?`,
    /// else the media type's charset, else UTF-8. Invalid bytes are an error.
    static func decode(_ data: Data, mediaType: MediaType?, xml: Bool) throws(SerializationError) -> DecodedText {
        var encoding: TextEncoding? = nil
        if CharsetPipeline.byteOrderMark(in: data) == nil, xml {
            let head = Array(data.prefix(2))
            if head == [0x00, 0x3C] {
                encoding = .utf16BE
            } else if head == [0x3C, 0x00] {
                encoding = .utf16LE
            } else if let label = declaredEncoding(in: Array(data.prefix(256))) {
                guard let declared = TextEncoding(label: label) else {
                    throw PropertyListErrors.make(
                        .unsupportedFeature,
                        "The XML declaration names the encoding '\(label)', which is not a known encoding label. "
                            + "Encode the property list as UTF-8 (and declare encoding=\"UTF-8\").",
                        offset: 0)
                }
                encoding = declared
            }
        }
        var pipeline = CharsetPipeline(defaultEncoding: encoding ?? .utf8, mode: .strict)
        pipeline.unknownLabelIsError = false
        return try pipeline.decode(data, mediaType: encoding == nil ? mediaType : nil)
    }

    /// `error` with its offset made a body offset: UTF-8 text is the body past its byte order mark; for other
    /// encodings the offset stays one in the UTF-8 text, and the message says so.
    static func bodyOffsets(_ error: SerializationError, _ decoded: DecodedText) -> SerializationError {
        guard let offset = error.offset else { return error }
        var copy = error
        if decoded.encoding == .utf8 {
            copy.offset = offset + decoded.byteOrderMarkLength
        } else {
            copy.message +=
                " (The offset \(offset) counts bytes of the text converted from \(decoded.encoding) to UTF-8.)"
        }
        return copy
    }

    /// The `encoding` pseudo-attribute of a leading `<?xml ...?>` declaration, read as ASCII.
    static func declaredEncoding(in bytes: [UInt8]) -> String? {
        guard bytes.starts(with: Array("<?xml".utf8)), let end = bytes.firstIndex(of: UInt8(ascii: ">")) else {
            return nil
        }
        let declaration = Array(bytes[..<end])
        let name = Array("encoding".utf8)
        guard
            let start = (0...max(0, declaration.count - name.count)).first(where: {
                declaration.count >= name.count && Array(declaration[$0..<$0 + name.count]) == name
            })
        else { return nil }
        var rest = declaration[(start + name.count)...].drop {
            $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "=") || $0 == UInt8(ascii: "\t")
        }
        guard let quote = rest.first, quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else { return nil }
        rest = rest.dropFirst()
        return String(decoding: rest.prefix { $0 != quote }, as: UTF8.self)
    }
}

/// Building the module's errors.
enum PropertyListErrors {
    /// An error with `code`, `message` and `offset`.
    static func make(_ code: SerializationError.Code, _ message: String, offset: Int?) -> SerializationError {
        SerializationError(code: code, message: message, serializerID: "propertyList", offset: offset)
    }

    /// The 1-based line and column of `offset` in `text`.
    static func lineAndColumn(of offset: Int, in text: [UInt8]) -> (line: Int, column: Int) {
        text.withUnsafeBufferPointer { lineAndColumn(of: offset, in: $0) }
    }

    /// The 1-based line and column of `offset` in `text`.
    static func lineAndColumn(of offset: Int, in text: UnsafeBufferPointer<UInt8>) -> (line: Int, column: Int) {
        var line = 1
        var column = 1
        for byte in text[..<min(offset, text.count)] {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return (line, column)
    }

    /// The error for exceeding `maxDepth`.
    static func tooDeep(_ limit: Int, offset: Int) -> SerializationError {
        make(
            .limitExceeded,
            "The property list nests arrays and dictionaries deeper than the limit of \(limit) levels. Raise the "
                + "option 'maxDepth' if such input is expected.",
            offset: offset)
    }

    /// The error for exceeding `maxObjects`.
    static func tooManyObjects(_ limit: Int, offset: Int?) -> SerializationError {
        make(
            .limitExceeded,
            "The property list holds more than \(limit) values (counting every reference to a shared object). "
                + "Raise the option 'maxObjects' if such input is expected; shared-reference bombs stop here.",
            offset: offset)
    }

    /// The error for exceeding `maxValueBytes`.
    static func tooManyBytes(_ limit: Int, offset: Int?) -> SerializationError {
        make(
            .limitExceeded,
            "The property list's strings and data expand to more than \(limit) bytes (counting every reference to a "
                + "shared binary object). Raise the option 'maxValueBytes' if such input is expected; shared-string "
                + "bombs stop here.",
            offset: offset)
    }
}
