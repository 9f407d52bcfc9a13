/// How ``CSVWriter`` lays out CSV and TSV text.
///
/// The defaults write what RFC 4180 describes (a comma, quoting, CRLF) for `text/csv`, and IANA's
/// `text/tab-separated-values` (a tab, no quoting) for TSV; ``CSVParser`` with its default options reads both back.
public struct CSVWritingOptions: Sendable, Hashable {
    /// The line end written after every record.
    public enum LineEnd: String, Sendable, Hashable, CaseIterable {
        /// CR LF, RFC 4180 §2.1's line end: the default.
        case crlf
        /// A lone LF, as Unix tools write.
        case lf
    }

    /// The field separator, one ASCII byte other than `"`, CR or LF; `nil` (the default) takes it from the media
    /// type: a tab for `text/tab-separated-values`, a comma otherwise.
    public var delimiter: UInt8?
    /// Whether fields that need it are quoted (RFC 4180 §2.5-2.7); `nil` (the default) takes it from the media type:
    /// on for CSV, off for TSV, whose IANA registration has no quoting (a field that would need quotes is then an
    /// error).
    public var quotes: Bool?
    /// The line end after every record: ``LineEnd/crlf`` by default.
    public var lineEnd: LineEnd

    /// Creates options; the defaults follow RFC 4180 and the media type.
    public init(delimiter: UInt8? = nil, quotes: Bool? = nil, lineEnd: LineEnd = .crlf) {
        self.delimiter = delimiter
        self.quotes = quotes
        self.lineEnd = lineEnd
    }

    /// The options that write what a ``CSVParser`` with `parsing` reads: its delimiter and quoting.
    public init(matching parsing: CSVParsingOptions, lineEnd: LineEnd = .crlf) {
        self.init(delimiter: parsing.delimiter, quotes: parsing.recognizesQuotes, lineEnd: lineEnd)
    }
}
