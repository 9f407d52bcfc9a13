public import DecantCore
public import DecantJSON

/// The incremental decoder of JSON records: newline-delimited JSON (NDJSON, JSON Lines) or JSON text sequences
/// (RFC 7464), each record parsed by DecantJSON's ``JSONParser`` as soon as its last byte arrives.
///
/// - **Lines** (`application/x-ndjson`, `application/jsonl`): LF ends a record, a CR before it is dropped, lines
///   holding only spaces, tabs or nothing are skipped, and a last line without its LF is still a record.
/// - **Sequences** (`application/json-seq`): RS (U+001E) starts each text; empty texts (RS RS) are skipped; bytes
///   before the first RS are an error for that record; a top-level number, `true`, `false` or `null` that is not
///   followed by whitespace (the LF that ends every text) may have been cut short, so it is reported as truncated
///   (RFC 7464 §2.4) rather than handed out.
///
/// A record that does not parse is a record error with the byte offset in the body; the stream's
/// ``RecordErrorPolicy`` decides whether it ends the stream. A record longer than `maxRecordBytes` is a
/// `limitExceeded` record error, and its bytes are not kept.
public struct NDJSONRecordDecoder: RecordDecoder {
    /// How records are delimited.
    public enum Framing: String, Sendable, Hashable, CaseIterable {
        /// One JSON text per line (NDJSON, JSON Lines).
        case lines
        /// RFC 7464 JSON text sequences: RS before each text, LF after it.
        case jsonSequence
    }

    /// How records are delimited.
    public let framing: Framing
    /// The parser of each record, with its limits.
    public let parser: JSONParser
    private var framer: LineFramer

    /// Creates a decoder.
    ///
    /// - Parameters:
    ///   - framing: How records are delimited.
    ///   - parser: The parser of each record.
    ///   - maxRecordBytes: The largest record kept.
    public init(framing: Framing, parser: JSONParser = JSONParser(), maxRecordBytes: Int) {
        self.framing = framing
        self.parser = parser
        framer = LineFramer(lineEnds: framing == .lines ? .lineFeed : .recordSeparator, maxLineBytes: maxRecordBytes)
    }

    /// Feeds bytes; appends each record they complete.
    public mutating func consume(
        _ bytes: UnsafeRawBufferPointer, into records: inout [Result<JSONValue, SerializationError>]
    ) throws(SerializationError) {
        let parser = self.parser
        let framing = self.framing
        let maxRecordBytes = framer.maxLineBytes
        try framer.consume(bytes) { piece in
            if let record = Self.record(piece, framing: framing, parser: parser, maxRecordBytes: maxRecordBytes) {
                records.append(record)
            }
        }
    }

    /// The body ended: appends the last record if it has no line end.
    public mutating func finish(into records: inout [Result<JSONValue, SerializationError>]) throws(SerializationError)
    {
        let parser = self.parser
        let framing = self.framing
        let maxRecordBytes = framer.maxLineBytes
        try framer.finish { piece in
            if let record = Self.record(piece, framing: framing, parser: parser, maxRecordBytes: maxRecordBytes) {
                records.append(record)
            }
        }
    }

    /// The record of one framed piece, or `nil` for a piece that holds none (a blank line, an empty text).
    private static func record(
        _ piece: LineFramer.Piece, framing: Framing, parser: JSONParser, maxRecordBytes: Int
    ) -> Result<JSONValue, SerializationError>? {
        switch piece {
        case .oversized(let offset, let length):
            return .failure(
                SerializationError(
                    code: .limitExceeded,
                    message: "The record at offset \(offset) has \(length) bytes, more than the limit of "
                        + "\(maxRecordBytes). Raise StreamOptions.maxRecordBytes (the option maxRecordBytes) if such "
                        + "records are expected.",
                    offset: offset))
        case .line(let bytes, let offset, _):
            guard let first = bytes.firstIndex(where: { !isWhitespace($0) }) else { return nil }
            if framing == .jsonSequence, offset == 0 {
                return .failure(
                    SerializationError(
                        code: .invalidBody,
                        message: "The body starts with bytes that are not after an RS (U+001E): in a JSON text "
                            + "sequence (RFC 7464) every text starts with RS. Send RS before each text, or label "
                            + "newline-delimited JSON application/x-ndjson.",
                        offset: first))
            }
            let value: JSONValue
            do {
                value = try parser.parse(bytes)
            } catch {
                var error = error
                error.offset = offset + (error.offset ?? 0)
                error.serializerID = nil  // the stream's serializer (ndjson), not the parser's

                error.message = "The record at offset \(offset) is not valid JSON: " + error.message
                return .failure(error)
            }
            if framing == .jsonSequence, let last = bytes.last, !isWhitespace(last) {
                switch value.kind {
                case .number, .bool, .null:
                    return .failure(
                        SerializationError(
                            code: .invalidBody,
                            message: "The text at offset \(offset) is \(value.kind) without the LF that ends every "
                                + "text of a JSON text sequence, so it may have been cut short (RFC 7464 §2.4); it "
                                + "was left out.",
                            offset: offset + bytes.count))
                default: break
                }
            }
            return .success(value)
        }
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
