public import DecantCore
public import DecantJSON

/// The incremental reader of JSON records: newline-delimited JSON (NDJSON, JSON Lines) or JSON text sequences
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
public struct NDJSONRecordReader: RecordReader {
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

    /// Creates a reader.
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
    ///
    /// The records that lie whole inside `bytes` are parsed together (``JSONParser/parse(texts:in:)``: one copy, one
    /// tape for the chunk), the others (cut by a chunk boundary) one by one.
    public mutating func consume(
        _ bytes: UnsafeRawBufferPointer, into records: inout [Result<JSONValue, SerializationError>]
    ) throws(SerializationError) {
        let parser = self.parser
        let framing = self.framing
        let maxRecordBytes = framer.maxLineBytes
        var pending = Pending()
        let chunkStart = UInt(bitPattern: bytes.baseAddress)
        let chunkEnd = chunkStart + UInt(bytes.count)
        try framer.consume(bytes) { piece in
            switch Self.prepare(piece, framing: framing, maxRecordBytes: maxRecordBytes) {
            case .none:
                break
            case .ready(let result):
                pending.items.append(.ready(pending.ready.count))
                pending.ready.append(result)
            case .parse(let line, let offset):
                let lineStart = UInt(bitPattern: line.baseAddress)
                if chunkStart != 0, lineStart >= chunkStart, lineStart + UInt(line.count) <= chunkEnd {
                    let start = Int(lineStart - chunkStart)
                    pending.ranges.append(start..<start + line.count)
                    pending.items.append(.batched(pending.ranges.count - 1, offset: offset, lastByte: line.last))
                } else {
                    pending.items.append(.ready(pending.ready.count))
                    pending.ready.append(Self.parse(line, offset: offset, framing: framing, parser: parser))
                }
            }
        }
        let parsed = pending.ranges.isEmpty ? [] : parser.parse(texts: pending.ranges, in: bytes)
        for item in pending.items {
            switch item {
            case .ready(let index):
                records.append(pending.ready[index])
            case .batched(let index, let offset, let lastByte):
                records.append(Self.complete(parsed[index], offset: offset, lastByte: lastByte, framing: framing))
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
            switch Self.prepare(piece, framing: framing, maxRecordBytes: maxRecordBytes) {
            case .none: break
            case .ready(let result): records.append(result)
            case .parse(let line, let offset):
                records.append(Self.parse(line, offset: offset, framing: framing, parser: parser))
            }
        }
    }

    /// The records of one chunk, in order: decided at once, or waiting for the chunk's batch parse.
    private struct Pending {
        /// A small marker per record (a result is large: it can hold a `SerializationError`).
        enum Item {
            /// The record is `ready[index]`.
            case ready(Int)
            /// The record is the batch's `index`th text.
            case batched(Int, offset: Int, lastByte: UInt8?)
        }

        var items: [Item] = []
        var ready: [Result<JSONValue, SerializationError>] = []
        var ranges: [Range<Int>] = []
    }

    /// What a framed piece needs.
    private enum Preparation {
        /// A record decided without parsing (an oversized line, bytes before the first RS).
        case ready(Result<JSONValue, SerializationError>)
        /// A text to parse, at `offset` in the body.
        case parse(UnsafeRawBufferPointer, offset: Int)
    }

    /// Sorts a framed piece: nothing (a blank line, an empty text), a record decided at once, or a text to parse.
    private static func prepare(
        _ piece: LineFramer.Piece, framing: Framing, maxRecordBytes: Int
    ) -> Preparation? {
        switch piece {
        case .oversized(let offset, let length):
            return .ready(
                .failure(
                    SerializationError(
                        code: .limitExceeded,
                        message: "The record at offset \(offset) has \(length) bytes, more than the limit of "
                            + "\(maxRecordBytes). Raise StreamOptions.maxRecordBytes (the option maxRecordBytes) if "
                            + "such records are expected.",
                        offset: offset)))
        case .line(let bytes, let offset, _):
            guard let first = bytes.firstIndex(where: { !isWhitespace($0) }) else { return nil }
            if framing == .jsonSequence, offset == 0 {
                return .ready(
                    .failure(
                        SerializationError(
                            code: .invalidBody,
                            message: "The body starts with bytes that are not after an RS (U+001E): in a JSON text "
                                + "sequence (RFC 7464) every text starts with RS. Send RS before each text, or label "
                                + "newline-delimited JSON application/x-ndjson.",
                            offset: first)))
            }
            return .parse(bytes, offset: offset)
        }
    }

    /// Parses one text alone.
    private static func parse(
        _ bytes: UnsafeRawBufferPointer, offset: Int, framing: Framing, parser: JSONParser
    ) -> Result<JSONValue, SerializationError> {
        let result: Result<JSONValue, SerializationError>
        do throws(SerializationError) {
            result = .success(try parser.parse(bytes))
        } catch {
            result = .failure(error)
        }
        return complete(result, offset: offset, lastByte: bytes.last, framing: framing)
    }

    /// The record of a parsed text at `offset`: its error placed in the body, or, in a JSON text sequence, a scalar
    /// without the whitespace after it reported as possibly truncated.
    private static func complete(
        _ result: Result<JSONValue, SerializationError>, offset: Int, lastByte: UInt8?, framing: Framing
    ) -> Result<JSONValue, SerializationError> {
        switch result {
        case .failure(var error):
            error.offset = offset + (error.offset ?? 0)
            error.message = "The record at offset \(offset) is not valid JSON: " + error.message
            error.serializerID = nil  // the stream's serializer (ndjson), not the parser's
            return .failure(error)
        case .success(let value):
            if framing == .jsonSequence, let lastByte, !isWhitespace(lastByte) {
                switch value.kind {
                case .number, .bool, .null:
                    return .failure(
                        SerializationError(
                            code: .invalidBody,
                            message: "The text at offset \(offset) is \(value.kind) without the LF that ends every "
                                + "text of a JSON text sequence, so it may have been cut short (RFC 7464 §2.4); it "
                                + "was left out.",
                            offset: offset))
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
