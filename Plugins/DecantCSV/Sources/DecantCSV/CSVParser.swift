import DecantBytes
public import DecantCharset
public import DecantCore

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// How CSV and TSV bodies are read, and the limits that bound what a body may cost.
public struct CSVParsingOptions: Sendable, Hashable {
    /// Whether the first record is a header row.
    public enum HeaderPolicy: String, Sendable, Hashable, CaseIterable {
        /// The first record is the header.
        case present
        /// Every record is data.
        case absent
        /// The media type's `header` parameter decides (`text/csv; header=absent`, RFC 7111 §5.1); without one the
        /// first record is the header, as most CSV files and every TSV file (IANA's registration) have one.
        case fromMediaType
    }

    /// The field separator, one ASCII byte other than `"`, CR or LF; `nil` (the default) takes it from the media
    /// type: a tab for `text/tab-separated-values`, a comma otherwise.
    public var delimiter: UInt8?
    /// Whether the first record is the header; ``HeaderPolicy/fromMediaType`` by default.
    public var header: HeaderPolicy
    /// Whether `"` quotes fields (RFC 4180 §2); `nil` (the default) takes it from the media type: on for CSV, off for
    /// TSV, whose IANA registration has no quoting (a `"` is then an ordinary character).
    public var recognizesQuotes: Bool?
    /// Whether spaces and tabs around unquoted fields, and around the quotes of quoted ones, are removed (tabs only
    /// when they are not the delimiter). Off by default: RFC 4180 §2.4 makes spaces part of a field.
    public var trimsWhitespace: Bool
    /// The most bytes one field may hold: 16 MiB by default.
    public var maxFieldBytes: Int
    /// The most fields one record may hold: 10,000 by default.
    public var maxFieldsPerRecord: Int
    /// The most records a body may hold, the header included: 10,000,000 by default.
    public var maxRecords: Int
    /// The most fields a body may hold, the header's included: 10,000,000 by default. A field takes as little as one
    /// byte of a body (a comma) and four in a ``CSVTable``, but 25 to 40 while the table's canonical form is made and
    /// printed (`decant decode`), so this, not the body size, bounds what a body of empty fields costs.
    public var maxFields: Int

    /// Creates options; the defaults follow RFC 4180 and the media type.
    public init(
        delimiter: UInt8? = nil, header: HeaderPolicy = .fromMediaType, recognizesQuotes: Bool? = nil,
        trimsWhitespace: Bool = false, maxFieldBytes: Int = 16 << 20, maxFieldsPerRecord: Int = 10_000,
        maxRecords: Int = 10_000_000, maxFields: Int = 10_000_000
    ) {
        self.delimiter = delimiter
        self.header = header
        self.recognizesQuotes = recognizesQuotes
        self.trimsWhitespace = trimsWhitespace
        self.maxFieldBytes = maxFieldBytes
        self.maxFieldsPerRecord = maxFieldsPerRecord
        self.maxRecords = maxRecords
        self.maxFields = maxFields
    }
}

/// Decant's CSV parser: RFC 4180 with the tolerance real files need, and TSV (IANA `text/tab-separated-values`).
///
/// - Records end at CRLF, LF or CR; the last one may lack a line end. A line with nothing on it (not even a
///   delimiter) is skipped, as Python's `csv.DictReader` does.
/// - A field that starts with `"` is quoted: it runs to the next lone `"`, may hold delimiters and line ends, and
///   `""` inside it is one `"`. After the closing quote only a delimiter or a line end may follow (or whitespace,
///   when trimming): anything else is an error with its line and column, as is a quote that never closes.
/// - A `"` inside an unquoted field is kept as it is, as Python's `csv` module and spreadsheets do.
/// - Records may have different numbers of fields; nothing is padded or cut.
///
/// The parser works on UTF-8 text; ``parse(_:mediaType:pipeline:)`` decodes other charsets through the core's
/// WHATWG pipeline first (a byte order mark or the `charset` parameter, UTF-8 by default). It is linear in the body,
/// and its memory is the text plus four bytes per field and per row, fields bounded by
/// ``CSVParsingOptions/maxFields``.
public struct CSVParser: Sendable {
    /// The options.
    public var options: CSVParsingOptions

    /// Creates a parser.
    public init(options: CSVParsingOptions = CSVParsingOptions()) {
        self.options = options
    }

    /// Parses a body: decodes it to text with `pipeline` (by its byte order mark, the media type's `charset`, else
    /// UTF-8), then reads its records.
    ///
    /// - Throws: ``SerializationError`` with code `invalidBody` for an unterminated quote or text after a closing
    ///   quote (the message gives the line and column, ``SerializationError/offset`` the byte when the body is
    ///   UTF-8), `limitExceeded` naming the option, or the pipeline's `invalidEncoding`.
    public func parse(
        _ body: Data, mediaType: MediaType? = nil, pipeline: CharsetPipeline = CharsetPipeline()
    ) throws(SerializationError) -> CSVTable {
        // The common case, UTF-8 that is valid, is read in place; anything else is decoded by the pipeline first.
        if let table = try parseValidUTF8(body, mediaType: mediaType, pipeline: pipeline) { return table }
        let decoded = try pipeline.decode(body, mediaType: mediaType)
        var text = decoded.text
        let offsetShift = decoded.encoding == .utf8 ? decoded.byteOrderMarkLength : nil
        let result: Result<CSVTable, SerializationError> = text.withUTF8 { bytes in
            do throws(SerializationError) {
                return .success(try parse(utf8: bytes, mediaType: mediaType))
            } catch {
                var error = error
                if let shift = offsetShift, let offset = error.offset { error.offset = offset + shift }
                if offsetShift == nil { error.offset = nil }
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// The table of `body` read where it is, when the pipeline would decode it as UTF-8 (by its byte order mark, its
    /// `charset` or the default) and it is valid UTF-8; `nil` otherwise.
    func parseValidUTF8(
        _ body: Data, mediaType: MediaType?, pipeline: CharsetPipeline
    ) throws(SerializationError) -> CSVTable? {
        let encoding: TextEncoding
        var skipped = 0
        if let (bomEncoding, length) = CharsetPipeline.byteOrderMark(in: body) {
            encoding = bomEncoding
            skipped = length
        } else if let label = mediaType?.charset {
            guard let labelled = TextEncoding(label: label) else { return nil }
            encoding = labelled
        } else {
            encoding = pipeline.fallbackEncoding(for: mediaType)
        }
        guard encoding == .utf8 else { return nil }
        let result: Result<CSVTable, SerializationError>? = body.withUnsafeBytes { raw in
            let bytes = UnsafeBufferPointer(rebasing: raw.assumingMemoryBound(to: UInt8.self)[skipped...])
            guard bytes.isEmpty || ByteRun.isValidUTF8(bytes.baseAddress!, count: bytes.count) else { return nil }
            do throws(SerializationError) {
                return .success(try parse(utf8: bytes, mediaType: mediaType))
            } catch {
                var error = error
                if let offset = error.offset { error.offset = offset + skipped }
                return .failure(error)
            }
        }
        return try result?.get()
    }

    /// Reads the records of UTF-8 `text` (no byte order mark); `mediaType` decides the delimiter, quoting and header
    /// where the options leave them open.
    public func parse(
        utf8 text: UnsafeBufferPointer<UInt8>, mediaType: MediaType? = nil
    ) throws(SerializationError)
        -> CSVTable
    {
        let isTSV = mediaType?.isTabSeparatedValues ?? false
        let delimiter = options.delimiter ?? (isTSV ? 0x09 : 0x2C)
        guard delimiter < 0x80, delimiter != 0x22, delimiter != 0x0D, delimiter != 0x0A else {
            throw SerializationError(
                code: .invalidOption,
                message: "The CSV delimiter must be one ASCII character other than a quote or a line end; "
                    + "it is byte 0x\(String(delimiter, radix: 16)).")
        }
        var reader = Reader(
            text: text, delimiter: delimiter, quotes: options.recognizesQuotes ?? !isTSV,
            trims: options.trimsWhitespace, options: options)
        // The fields' bytes go straight into the table's buffer: never more than the text (quotes only shrink).
        var failure: SerializationError? = nil
        let bytes = [UInt8](unsafeUninitializedCapacity: max(1, text.count)) { buffer, count in
            reader.out = buffer.baseAddress!
            do throws(SerializationError) {
                try reader.run()
            } catch {
                failure = error
            }
            count = reader.outCount
        }
        if let failure { throw failure }
        let hasHeader: Bool
        switch options.header {
        case .present: hasHeader = true
        case .absent: hasHeader = false
        case .fromMediaType:
            hasHeader = mediaType?.parameters["header"].map { $0.lowercased() != "absent" } ?? true
        }
        let storage = CSVTable.Storage(bytes: bytes, fieldEnds: reader.fieldEnds, rowStarts: reader.rowStarts)
        guard hasHeader && storage.rowStarts.count > 1 else {
            return CSVTable(header: nil, storage: storage, skippedRows: 0)
        }
        let header = (0..<Int(storage.rowStarts[1])).map { storage.string(ofField: $0) }
        return CSVTable(header: header, storage: storage, skippedRows: 1)
    }

    /// One pass over the text, writing fields into a ``CSVTableBuilder``.
    struct Reader {
        let text: UnsafeBufferPointer<UInt8>
        let delimiter: UInt8
        let quotes: Bool
        let trims: Bool
        let options: CSVParsingOptions
        /// Where field bytes are written, and how many have been.
        var out: UnsafeMutablePointer<UInt8>? = nil
        var outCount = 0
        var fieldEnds: [UInt32] = []
        var rowStarts: [UInt32] = [0]
        var position = 0

        init(text: UnsafeBufferPointer<UInt8>, delimiter: UInt8, quotes: Bool, trims: Bool, options: CSVParsingOptions)
        {
            self.text = text
            self.delimiter = delimiter
            self.quotes = quotes
            self.trims = trims
            self.options = options
            fieldEnds.reserveCapacity(min(text.count / 8, options.maxFields))
        }

        static let quote: UInt8 = 0x22
        static let carriageReturn: UInt8 = 0x0D
        static let lineFeed: UInt8 = 0x0A

        func isBlank(_ byte: UInt8) -> Bool { (byte == 0x20 || byte == 0x09) && byte != delimiter }

        mutating func run() throws(SerializationError) {
            let count = text.count
            var fieldsInRecord = 0
            var records = 0
            while position < count {
                // At the start of a field.
                let fieldStart = position
                if trims { while position < count && isBlank(text[position]) { position += 1 } }
                let before = outCount
                var quoted = false
                if quotes && position < count && text[position] == Self.quote {
                    quoted = true
                    try readQuoted(openedAt: position)
                    if trims { while position < count && isBlank(text[position]) { position += 1 } }
                    if position < count {
                        let next = text[position]
                        guard next == delimiter || next == Self.carriageReturn || next == Self.lineFeed else {
                            throw syntaxError(
                                at: position,
                                "the quoted field ends, then \(describe(next)) follows instead of a delimiter or a "
                                    + "line end (RFC 4180 §2.7: a quote inside a quoted field is written twice)")
                        }
                    }
                } else {
                    position = fieldStart
                    if trims { while position < count && isBlank(text[position]) { position += 1 } }
                    let start = position
                    while position < count {
                        let byte = text[position]
                        if byte == delimiter || byte == Self.lineFeed || byte == Self.carriageReturn { break }
                        position += 1
                    }
                    var end = position
                    if trims { while end > start && isBlank(text[end - 1]) { end -= 1 } }
                    write(start..<end)
                }
                guard outCount - before <= options.maxFieldBytes else {
                    throw limit(
                        "a field holds \(outCount - before) bytes, more than maxFieldBytes "
                            + "(\(options.maxFieldBytes))", at: fieldStart)
                }
                let atEnd = position >= count
                let terminator = atEnd ? 0 : text[position]
                if !atEnd && terminator == delimiter {
                    position += 1
                    try appendField(&fieldsInRecord, at: fieldStart)
                    // A delimiter at the very end of the text leaves one more, empty, field.
                    if position >= count { try appendField(&fieldsInRecord, at: position) }
                    continue
                }
                // A line end, or the end of the text: the record is complete, unless the line was empty.
                let emptyLine = fieldsInRecord == 0 && !quoted && outCount == before
                if !emptyLine { try appendField(&fieldsInRecord, at: fieldStart) }
                if !atEnd {
                    position += 1
                    if terminator == Self.carriageReturn && position < count && text[position] == Self.lineFeed {
                        position += 1
                    }
                }
                if fieldsInRecord > 0 {
                    records += 1
                    guard records <= options.maxRecords else {
                        throw limit(
                            "the body holds more than maxRecords (\(options.maxRecords)) records", at: fieldStart)
                    }
                    rowStarts.append(UInt32(truncatingIfNeeded: fieldEnds.count))
                    fieldsInRecord = 0
                }
            }
            if fieldsInRecord > 0 { rowStarts.append(UInt32(truncatingIfNeeded: fieldEnds.count)) }
        }

        mutating func appendField(_ fieldsInRecord: inout Int, at offset: Int) throws(SerializationError) {
            fieldsInRecord += 1
            guard fieldsInRecord <= options.maxFieldsPerRecord else {
                throw limit(
                    "a record holds more than maxFieldsPerRecord (\(options.maxFieldsPerRecord)) fields", at: offset)
            }
            guard fieldEnds.count < options.maxFields else {
                throw limit("the body holds more than maxFields (\(options.maxFields)) fields", at: offset)
            }
            guard outCount <= UInt32.max, fieldEnds.count < UInt32.max else {
                throw limit("the table holds more than 4 GiB of text or 2^32 fields", at: offset)
            }
            fieldEnds.append(UInt32(outCount))
        }

        /// Copies `range` of the text to the output.
        @inline(__always)
        mutating func write(_ range: Range<Int>) {
            guard !range.isEmpty else { return }
            (out! + outCount).update(from: text.baseAddress! + range.lowerBound, count: range.count)
            outCount += range.count
        }

        /// Reads a quoted field whose opening quote is at `openedAt`, leaving ``position`` after the closing quote.
        mutating func readQuoted(openedAt: Int) throws(SerializationError) {
            let count = text.count
            position = openedAt + 1
            var runStart = position
            while true {
                while position < count && text[position] != Self.quote { position += 1 }
                guard position < count else {
                    throw syntaxError(
                        at: openedAt,
                        "the quoted field that starts here never closes: the body ends inside it (a missing quote, or "
                            + "a body cut short)")
                }
                write(runStart..<position)
                if position + 1 < count && text[position + 1] == Self.quote {
                    out![outCount] = Self.quote
                    outCount += 1
                    position += 2
                    runStart = position
                } else {
                    position += 1
                    return
                }
            }
        }

        func describe(_ byte: UInt8) -> String {
            byte >= 0x21 && byte < 0x7F
                ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(String(byte, radix: 16, uppercase: true))"
        }

        /// Line and column (1-based; columns count characters) of the byte at `offset`.
        func lineAndColumn(of offset: Int) -> (line: Int, column: Int) {
            var line = 1
            var lineStart = 0
            var index = 0
            while index < offset {
                let byte = text[index]
                if byte == Self.lineFeed || (byte == Self.carriageReturn && text[safe: index + 1] != Self.lineFeed) {
                    line += 1
                    lineStart = index + 1
                }
                index += 1
            }
            var column = 1
            for byte in UnsafeBufferPointer(rebasing: text[lineStart..<offset]) where byte & 0xC0 != 0x80 {
                column += 1
            }
            return (line, column)
        }

        func syntaxError(at offset: Int, _ what: String) -> SerializationError {
            let (line, column) = lineAndColumn(of: offset)
            return SerializationError(
                code: .invalidBody, message: "The CSV body is malformed at line \(line), column \(column): \(what).",
                offset: offset)
        }

        func limit(_ what: String, at offset: Int) -> SerializationError {
            let (line, _) = lineAndColumn(of: offset)
            return SerializationError(
                code: .limitExceeded,
                message:
                    "The CSV body passes a limit at line \(line): \(what); raise the limit if the body is trusted.",
                offset: offset)
        }
    }
}

extension UnsafeBufferPointer<UInt8> {
    fileprivate subscript(safe index: Int) -> UInt8? { index < count ? self[index] : nil }
}
