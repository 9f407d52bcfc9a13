public import DecantCharset
public import DecantCore
public import DecantJSON

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Decodes `text/csv` and `text/tab-separated-values` bodies into a ``CSVTable``. Its id is `csv`.
///
/// The text comes through the core's charset pipeline (byte order mark, then `charset`, then UTF-8); the header row,
/// delimiter and quoting follow the media type unless ``CSVParsingOptions`` fixes them. An empty body, when the
/// chain's empty-body policy asks for a value, is a table with no header and no rows.
///
/// ```swift
/// let registry = SerializerRegistry.standard.installing(.csv)
/// let table = try registry.serialize(response, as: CSVTable.self).value
/// ```
public struct CSVResponseSerializer: ResponseSerializer, FormatComponent {
    /// The `csv` format.
    public static var format: MediaFormat { .csv }

    /// The parser's options.
    public var options: CSVParsingOptions
    /// How the body becomes text.
    public var pipeline: CharsetPipeline
    /// The media ranges accepted: `text/csv` and `text/tab-separated-values` by default.
    public var mediaRanges: [MediaRange]

    /// Creates the serializer.
    public init(
        options: CSVParsingOptions = CSVParsingOptions(), pipeline: CharsetPipeline = CharsetPipeline(),
        mediaRanges: [MediaRange] = MediaFormat.csv.mediaRanges
    ) {
        self.options = options
        self.pipeline = pipeline
        self.mediaRanges = mediaRanges
    }

    /// Parses the body.
    ///
    /// - Throws: ``SerializationError`` from ``CSVParser/parse(_:mediaType:pipeline:)``, filled in with this
    ///   serializer's id, the media type and the response.
    public func serialize(_ response: Response) throws(SerializationError) -> CSVTable {
        do {
            return try CSVParser(options: options).parse(
                response.body, mediaType: response.contentType, pipeline: pipeline)
        } catch {
            throw error.filling(response: response, mediaType: response.contentType, serializerID: id)
        }
    }

    /// An empty table.
    public func emptyValue(for response: Response) throws -> CSVTable { CSVTable(header: nil, rows: []) }
}

/// The factory of ``CSVResponseSerializer``: id `csv`.
///
/// Configuration options (all optional):
///
/// - `delimiter`: a one-character string (default: a tab for TSV, a comma otherwise).
/// - `header`: `"present"`, `"absent"` or `"fromMediaType"` (the default: the `header` parameter, else present).
/// - `quotes`: a boolean (default: on for CSV, off for TSV).
/// - `trimsWhitespace`: a boolean (default `false`).
/// - `maxFieldBytes`, `maxFieldsPerRecord`, `maxRecords`, `maxFields`: integers, the limits of
///   ``CSVParsingOptions``.
///
/// ```json
/// { "serializer": "csv", "options": { "delimiter": ";", "header": "absent" } }
/// ```
public struct CSVSerializerFactory: SerializerFactory {
    /// The options used when a configuration gives none.
    public let defaultOptions: CSVParsingOptions

    /// Creates the factory.
    public init(defaultOptions: CSVParsingOptions = CSVParsingOptions()) {
        self.defaultOptions = defaultOptions
    }

    /// `delimiter`, `header`, `quotes`, `trimsWhitespace`, `maxFieldBytes`, `maxFieldsPerRecord`, `maxRecords`,
    /// `maxFields`.
    /// `delimiter` and `quotes` have no fixed default: without them the media type decides (TSV or CSV).
    public var optionKeys: [OptionKey<CSVParsingOptions>] {
        [
            OptionKey(
                "delimiter", .string(allowed: nil),
                summary: "The field separator, one ASCII character (default: tab for TSV, comma otherwise).",
                defaultValue: { options in
                    options.delimiter.map { .string(String(decoding: [$0], as: UTF8.self)) }
                },
                apply: Self.applyDelimiter),
            .choice(
                "header", \.header,
                summary: "Whether the first record is a header: present, absent, or the media type's header parameter."),
            .bool(
                "quotes", \.recognizesQuotes,
                summary: "Whether double quotes quote fields (default: on for CSV, off for TSV)."),
            .bool("trimsWhitespace", \.trimsWhitespace, summary: "Whether spaces and tabs around fields are removed."),
            .integer("maxFieldBytes", \.maxFieldBytes, in: 1...Int.max, summary: "The most bytes one field may hold."),
            .integer(
                "maxFieldsPerRecord", \.maxFieldsPerRecord, in: 1...Int.max,
                summary: "The most fields one record may hold."),
            .integer(
                "maxRecords", \.maxRecords, in: 1...Int.max,
                summary: "The most records a body may hold, the header included."),
            .integer(
                "maxFields", \.maxFields, in: 1...Int.max,
                summary: "The most fields a body may hold, the header's included."),
        ]
    }

    /// Stores the `delimiter` option: one ASCII character other than a quote or a line end.
    @Sendable
    static func applyDelimiter(
        _ value: ConfigurationValue, to options: inout CSVParsingOptions, for id: SerializerID
    ) throws(SerializationError) {
        guard case .string(let text) = value else { return }
        let bytes = Array(text.utf8)
        guard bytes.count == 1, bytes[0] < 0x80, ![0x22, 0x0D, 0x0A].contains(bytes[0]) else {
            throw SerializationError(
                code: .invalidOption,
                message: "The option 'delimiter' of the serializer '\(id)' must be one ASCII character other than "
                    + "a quote or a line end, not \"\(text)\".",
                serializerID: id, codingPath: ["delimiter"])
        }
        options.delimiter = bytes[0]
    }

    /// Builds a ``CSVResponseSerializer``.
    public func makeSerializer(options: CSVParsingOptions) -> CSVResponseSerializer {
        CSVResponseSerializer(options: options)
    }

    /// A ``CSVResponseDecoder`` with `options`.
    public func makeDecoder(options: CSVParsingOptions) -> (any ResponseDecoder)? {
        CSVResponseDecoder(options: options)
    }
}

extension SerializerModule {
    /// The CSV plugin (`DecantCSV`): the `csv` serializer for `text/csv` and `text/tab-separated-values`, and
    /// `Decodable` rows through ``CSVResponseDecoder``.
    public static var csv: SerializerModule {
        SerializerModule(name: "DecantCSV", factories: [CSVSerializerFactory()])
    }
}

extension CSVTable: ConformanceRepresentable {
    /// `{"header": ["a", "b"] or null, "rows": [["1", "2"], ...]}`: every field a string, in document order.
    ///
    /// The JSON text is written straight from the table's storage and parsed once, so a field costs its text and one
    /// tape entry (8 bytes), not a `String` and a `JSONValue` of its own.
    ///
    /// - Throws: `limitExceeded` (as `JSONValue(checking:)` does) for a field longer than `JSONValue.maxStringBytes`.
    public func conformanceValue() throws -> JSONValue {
        let storage = rows.storage
        let firstField = Int(storage.rowStarts[rows.firstRow])
        let fieldCount = storage.fieldEnds.count - firstField
        var text: [UInt8] = []
        text.reserveCapacity(storage.bytes.count + 3 * fieldCount + 2 * rows.count + 32)
        text.append(contentsOf: #"{"header":"#.utf8)
        if let header {
            text.append(UInt8(ascii: "["))
            for (index, name) in header.enumerated() {
                if index > 0 { text.append(UInt8(ascii: ",")) }
                var name = name
                try name.withUTF8 { try Self.appendJSONString($0, to: &text) }
            }
            text.append(UInt8(ascii: "]"))
        } else {
            text.append(contentsOf: "null".utf8)
        }
        text.append(contentsOf: #","rows":["#.utf8)
        try storage.bytes.withUnsafeBufferPointer { bytes throws(SerializationError) in
            for row in rows.indices {
                if row > 0 { text.append(UInt8(ascii: ",")) }
                text.append(UInt8(ascii: "["))
                let start = rows.firstRow + row
                let fields = Int(storage.rowStarts[start])..<Int(storage.rowStarts[start + 1])
                for field in fields {
                    if field > fields.lowerBound { text.append(UInt8(ascii: ",")) }
                    let range = storage.range(ofField: field)
                    try Self.appendJSONString(UnsafeBufferPointer(rebasing: bytes[range]), to: &text)
                }
                text.append(UInt8(ascii: "]"))
            }
        }
        text.append(contentsOf: "]}".utf8)
        return try text.withUnsafeBytes { raw throws(SerializationError) in try JSONParser().parse(raw) }
    }

    /// Appends `utf8` to `text` as a JSON string (`JSONText`).
    private static func appendJSONString(
        _ utf8: UnsafeBufferPointer<UInt8>, to text: inout [UInt8]
    ) throws(SerializationError) {
        if utf8.count > JSONValue.maxStringBytes {
            _ = try JSONValue(checking: String(decoding: utf8, as: UTF8.self))
        }
        JSONText.appendQuoted(utf8: utf8, to: &text)
    }
}

extension MediaFormat {
    /// CSV (RFC 4180) and TSV: id `csv`; `text/csv` and `text/tab-separated-values`.
    public static let csv = MediaFormat(
        id: "csv", mediaRanges: ["text/csv", "text/tab-separated-values"],
        summary: "Parses CSV (RFC 4180) and TSV bodies into a header and rows of string fields.")
}
