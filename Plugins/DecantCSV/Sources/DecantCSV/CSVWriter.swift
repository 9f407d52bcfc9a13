import DecantCharset
public import DecantCore

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// Writes a ``CSVTable`` as CSV (RFC 4180) or TSV (IANA `text/tab-separated-values`) text: the inverse of
/// ``CSVParser``, which reads every table it writes back equal.
///
/// - Records end in CRLF (``CSVWritingOptions/lineEnd``), the last one too. The header, when the table has one and
///   the media type does not say `header=absent`, is the first record.
/// - CSV: a field is quoted when it holds the delimiter, a `"`, a CR or an LF (RFC 4180 §2.6), and also when it
///   starts or ends with a space or a tab (readers that trim unquoted fields, and spreadsheets, keep quoted spaces),
///   when it is the only field of its record and empty (an empty line is skipped by readers, Python's and Decant's
///   alike), and when it is the body's first field and starts with U+FEFF (which a reader would take for a byte
///   order mark). Inside quotes a `"` is written twice (§2.7). Every other field is written as it is.
/// - TSV has no quoting: a field holding a tab, a CR or an LF cannot be written, nor can a record whose only field
///   is empty, nor a first field starting with U+FEFF. Each is `encodingFailed` naming the row and column (no
///   escaping convention is invented, since readers would not undo it). A `"` is an ordinary character.
/// - Rows are written with their own field counts, as ``CSVParser`` reads them: a short or long row (a "ragged"
///   table) is neither padded nor cut, and reads back the same. A row with no fields at all cannot be written (it
///   would be an empty line, which readers skip): `encodingFailed`.
/// - The text is UTF-8 unless the media type's `charset` names another WHATWG encoding, which the text is then
///   encoded with (``CSVParser`` reads every one of them back); a character it cannot represent is
///   `encodingFailed`.
///
/// ```swift
/// let table = CSVTable(header: ["name", "note"], rows: [["Ada", "says \"hi\", twice"]])
/// let body = try CSVWriter().write(table)
/// // name,note\r\nAda,"says ""hi"", twice"\r\n
/// ```
///
/// Writing is linear in the table's text, and the output is at most twice the text plus three bytes per field.
public struct CSVWriter: Sendable {
    /// The layout: delimiter, quoting and line end.
    public var options: CSVWritingOptions

    /// Creates a writer.
    public init(options: CSVWritingOptions = CSVWritingOptions()) {
        self.options = options
    }

    /// Writes `table` in the dialect, charset and header choice of `mediaType` (CSV in UTF-8 with its header when
    /// `nil`).
    ///
    /// - Parameters:
    ///   - table: The table.
    ///   - mediaType: `text/tab-separated-values` writes TSV, anything else CSV; its `charset` the encoding, its
    ///     `header=absent` leaves the header out (`header=present` requires the table to have one).
    /// - Throws: `SerializationError` with code `encodingFailed` for a field or row that cannot be written (the
    ///   message names the row and column; ``SerializationError/codingPath`` holds the 0-based row, or `header`, and
    ///   column), for `header=present` asked of a table without a header, or for a character the charset cannot
    ///   encode; `invalidEncoding` for a `charset` that names no WHATWG encoding with an encoder; `invalidOption` for
    ///   a delimiter that is not one ASCII character other than a quote or a line end.
    public func write(_ table: CSVTable, as mediaType: MediaType? = nil) throws(SerializationError) -> Data {
        let plan = try Plan(table: table, mediaType: mediaType, options: options)
        var text: [UInt8] = []
        let storage = table.rows.storage
        let firstField = Int(storage.rowStarts[table.rows.firstRow])
        text.reserveCapacity(
            storage.bytes.count + 3 * (storage.fieldEnds.count - firstField) + 2 * table.rows.count + 64)
        var writer = RecordWriter(plan: plan)
        if plan.writesHeader, let header = table.header {
            for (column, name) in header.enumerated() {
                var name = name
                let result: Result<Void, SerializationError> = name.withUTF8 { field in
                    do throws(SerializationError) {
                        return .success(try writer.append(field, row: nil, column: column, of: header.count, to: &text))
                    } catch {
                        return .failure(error)
                    }
                }
                try result.get()
            }
            try writer.endRecord(row: nil, fields: header.count, to: &text)
        }
        try storage.bytes.withUnsafeBufferPointer { bytes throws(SerializationError) in
            for row in 0..<table.rows.count {
                let start = table.rows.firstRow + row
                let fields = Int(storage.rowStarts[start])..<Int(storage.rowStarts[start + 1])
                for field in fields {
                    let range = storage.range(ofField: field)
                    try writer.append(
                        UnsafeBufferPointer(rebasing: bytes[range]), row: row, column: field - fields.lowerBound,
                        of: fields.count, to: &text)
                }
                try writer.endRecord(row: row, fields: fields.count, to: &text)
            }
        }
        guard plan.encoding != .utf8 else { return Data(text) }
        return try plan.encoding.encode(String(decoding: text, as: UTF8.self))
    }

    /// The `Content-Type` of what ``write(_:as:)`` writes for `table` as `mediaType`: its type and subtype, with
    /// `charset` (the canonical name of the encoding, lowercased: `utf-8` by default) and `header` (`present` or
    /// `absent`, RFC 7111 §5.1 and RFC 4180 §3) set; other parameters are not kept.
    ///
    /// - Throws: `SerializationError` as ``write(_:as:)`` does for the media type.
    public func contentType(for table: CSVTable, as mediaType: MediaType) throws(SerializationError) -> MediaType {
        let plan = try Plan(table: table, mediaType: mediaType, options: options)
        return MediaType(type: mediaType.type, subtype: mediaType.subtype)
            .settingParameter("charset", to: plan.encoding.name.lowercased())
            .settingParameter("header", to: plan.writesHeader ? "present" : "absent")
    }

    /// What a media type and the options decide: the dialect, whether the header is written, and the encoding.
    struct Plan {
        let delimiter: UInt8
        let quotes: Bool
        let lineEnd: CSVWritingOptions.LineEnd
        let writesHeader: Bool
        let encoding: TextEncoding
        let isTSV: Bool

        init(table: CSVTable, mediaType: MediaType?, options: CSVWritingOptions) throws(SerializationError) {
            isTSV = mediaType?.isTabSeparatedValues ?? false
            delimiter = options.delimiter ?? (isTSV ? 0x09 : 0x2C)
            guard delimiter < 0x80, delimiter != 0x22, delimiter != 0x0D, delimiter != 0x0A else {
                throw SerializationError(
                    code: .invalidOption,
                    message: "The CSV delimiter must be one ASCII character other than a quote or a line end; "
                        + "it is byte 0x\(String(delimiter, radix: 16)).")
            }
            quotes = options.quotes ?? !isTSV
            lineEnd = options.lineEnd
            switch mediaType?.parameters["header"]?.lowercased() {
            case "absent":
                writesHeader = false
            case "present":
                guard table.header != nil else {
                    throw SerializationError(
                        code: .encodingFailed,
                        message: "The media type asks for a header row (header=present), but the table has no "
                            + "header. Give the table one, or ask for header=absent.",
                        mediaType: mediaType)
                }
                writesHeader = true
            default:
                writesHeader = table.header != nil
            }
            encoding = try Self.encoding(for: mediaType)
        }

        /// The encoding `mediaType`'s `charset` names, or UTF-8 without one.
        static func encoding(for mediaType: MediaType?) throws(SerializationError) -> TextEncoding {
            guard let label = mediaType?.charset else { return .utf8 }
            guard let encoding = TextEncoding(label: label), encoding.hasEncoder else {
                throw SerializationError(
                    code: .invalidEncoding,
                    message: "The charset parameter \"\(label)\" names no WHATWG encoding that can be written, so the "
                        + "table cannot be written in it. Ask for utf-8 (or any label TextEncoding(label:) knows other "
                        + "than the replacement encoding's), or leave the charset out to write UTF-8.",
                    mediaType: mediaType)
            }
            return encoding
        }
    }

    /// Appends fields and line ends to the text, deciding each field's quoting.
    struct RecordWriter {
        let plan: Plan
        /// Whether no field has been written yet (the body's first field may not start with U+FEFF unquoted).
        var atBodyStart = true

        init(plan: Plan) {
            self.plan = plan
        }

        static let quote: UInt8 = 0x22

        mutating func append(
            _ field: UnsafeBufferPointer<UInt8>, row: Int?, column: Int, of fieldCount: Int, to text: inout [UInt8]
        ) throws(SerializationError) {
            if column > 0 { text.append(plan.delimiter) }
            defer { atBodyStart = false }
            // What forces quotes: a byte that ends a field or opens a quote, space at either end, a lone empty
            // field, a leading U+FEFF at the start of the body.
            var special = false
            for byte in field where byte == plan.delimiter || byte == Self.quote || byte == 0x0D || byte == 0x0A {
                special = true
                break
            }
            let edgeSpace =
                !field.isEmpty
                && (field[0] == 0x20 || field[0] == 0x09 || field[field.count - 1] == 0x20
                    || field[field.count - 1] == 0x09)
            let loneEmpty = field.isEmpty && fieldCount == 1
            let leadingBOM =
                atBodyStart && field.count >= 3 && field[0] == 0xEF && field[1] == 0xBB && field[2] == 0xBF
            guard special || edgeSpace || loneEmpty || leadingBOM else {
                text.append(contentsOf: field)
                return
            }
            guard plan.quotes else {
                // Without quotes, a `"` and spaces are ordinary; the rest cannot be written.
                var breaks = loneEmpty || leadingBOM
                for byte in field where byte == plan.delimiter || byte == 0x0D || byte == 0x0A {
                    breaks = true
                    break
                }
                guard !breaks else { throw unwritable(field, row: row, column: column, loneEmpty: loneEmpty) }
                text.append(contentsOf: field)
                return
            }
            text.append(Self.quote)
            var runStart = 0
            for index in field.indices where field[index] == Self.quote {
                text.append(contentsOf: UnsafeBufferPointer(rebasing: field[runStart...index]))
                text.append(Self.quote)
                runStart = index + 1
            }
            text.append(contentsOf: UnsafeBufferPointer(rebasing: field[runStart...]))
            text.append(Self.quote)
        }

        func endRecord(row: Int?, fields: Int, to text: inout [UInt8]) throws(SerializationError) {
            guard fields > 0 else {
                throw SerializationError(
                    code: .encodingFailed,
                    message: "\(Self.describe(row: row).capitalizedFirst) has no fields: it would be an empty line, "
                        + "which CSV readers skip. Give it at least one field (an empty one is written as \"\").",
                    codingPath: [row.map(String.init) ?? "header"])
            }
            switch plan.lineEnd {
            case .crlf: text.append(contentsOf: [0x0D, 0x0A])
            case .lf: text.append(0x0A)
            }
        }

        func unwritable(
            _ field: UnsafeBufferPointer<UInt8>, row: Int?, column: Int, loneEmpty: Bool
        ) -> SerializationError {
            let dialect = plan.isTSV ? "TSV (IANA text/tab-separated-values)" : "CSV without quoting"
            let what: String
            if loneEmpty {
                what = "is the only field of its record and empty, which would be an empty line that readers skip"
            } else if field.contains(where: { $0 == 0x0D || $0 == 0x0A }) {
                what = "holds a line end"
            } else if field.contains(plan.delimiter) {
                what = plan.delimiter == 0x09 ? "holds a tab, the delimiter" : "holds the delimiter"
            } else {
                what = "starts the body with U+FEFF, which a reader takes for a byte order mark"
            }
            return SerializationError(
                code: .encodingFailed,
                message: "The field at \(Self.describe(row: row)), column \(column + 1) \(what), and \(dialect) has "
                    + "no quoting to write it. Write text/csv (which quotes it), or change the field.",
                codingPath: [row.map(String.init) ?? "header", String(column)])
        }

        /// `the header` or `row 3` (1-based, the header not counted).
        static func describe(row: Int?) -> String { row.map { "row \($0 + 1)" } ?? "the header" }
    }
}

extension String {
    /// The string with its first character uppercased.
    fileprivate var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}

extension MediaType {
    /// Whether this is `text/tab-separated-values`: TSV's delimiter, quoting and header rules apply.
    var isTabSeparatedValues: Bool { type == "text" && subtype == "tab-separated-values" }
}
