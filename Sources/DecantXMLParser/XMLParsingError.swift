/// Where and why an XML body could not be parsed: the `underlying` error of the `SerializationError`s that
/// ``XMLStreamParser`` throws for syntax, encoding and limit failures.
///
/// ```swift
/// do {
///     let events = try XMLStreamParser(data: body).events()
/// } catch {  // a SerializationError
///     if let xml = error.underlying as? XMLParsingError { print(xml.line, xml.column, xml.reason) }
/// }
/// ```
public struct XMLParsingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure this is.
    public enum Kind: Sendable, Hashable {
        /// The body is not a well-formed XML 1.0 (or namespace-well-formed) document.
        case notWellFormed
        /// The body's encoding is unknown to Decant, or its bytes are not valid in it, or it contradicts itself.
        case invalidEncoding
        /// A limit of ``XMLParsingOptions`` was exceeded; ``limitName`` names the option.
        case limitExceeded
        /// The body uses something the parser does not support (such as UTF-32 or an EBCDIC encoding).
        case unsupportedFeature
    }

    /// What kind of failure this is.
    public var kind: Kind
    /// Where the failure was found. Inside entity replacement text, the position of the outermost reference.
    public var position: XMLPosition
    /// What failed, and how to fix it where that is known, as a sentence fragment without the position.
    public var reason: String
    /// For ``Kind/limitExceeded``, the ``XMLParsingOptions`` property to raise.
    public var limitName: String?

    /// Creates an error.
    public init(kind: Kind, position: XMLPosition, reason: String, limitName: String? = nil) {
        self.kind = kind
        self.position = position
        self.reason = reason
        self.limitName = limitName
    }

    /// The line, from 1.
    public var line: Int { position.line }
    /// The column, from 1, in Unicode scalars.
    public var column: Int { position.column }
    /// The byte offset: into the body for UTF-8 bodies, into the UTF-8 transcoding for other encodings.
    public var offset: Int { position.offset }

    /// The reason with its position, such as `line 3, column 14: the end tag ...`.
    public var description: String { "\(position): \(reason)" }
}

/// A failure inside the scanner, before its position is turned into a line and column.
struct XMLFailure: Error {
    var kind: XMLParsingError.Kind
    var reason: String
    /// The offset in the main input (the UTF-8 body, or its transcoding).
    var offset: Int
    var limitName: String?
}
