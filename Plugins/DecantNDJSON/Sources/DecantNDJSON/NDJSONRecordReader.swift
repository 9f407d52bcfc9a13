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
/// A record that does not parse is a record error with the byte offset in the body (and, for lines, the line
/// number: "line 2 of the stream"); a line that ends before its JSON text does is reported as such, not as a body
/// cut short, since more lines follow it; the stream's
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
    /// The number of pieces (lines, or texts of a sequence) the framer has handed out.
    private var pieces = 0

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
        var pieces = self.pieces
        defer { self.pieces = pieces }
        try framer.consume(bytes) { piece in
            pieces += 1
            switch Self.prepare(piece, framing: framing, maxRecordBytes: maxRecordBytes) {
            case .none:
                break
            case .ready(let result):
                pending.items.append(.ready(pending.ready.count))
                pending.ready.append(result)
            case .parse(let line, let place):
                let lineStart = UInt(bitPattern: line.baseAddress)
                if chunkStart != 0, lineStart >= chunkStart, lineStart + UInt(line.count) <= chunkEnd {
                    let start = Int(lineStart - chunkStart)
                    pending.ranges.append(start..<start + line.count)
                    pending.items.append(.batched(pending.ranges.count - 1, place: place, number: pieces))
                } else {
                    pending.items.append(.ready(pending.ready.count))
                    pending.ready.append(
                        Self.parse(line, place: place, number: pieces, framing: framing, parser: parser))
                }
            }
        }
        let parsed = pending.ranges.isEmpty ? [] : parser.parse(texts: pending.ranges, in: bytes)
        for item in pending.items {
            switch item {
            case .ready(let index):
                records.append(pending.ready[index])
            case .batched(let index, let place, let number):
                let line = UnsafeRawBufferPointer(rebasing: bytes[pending.ranges[index]])
                records.append(Self.complete(parsed[index], line, place: place, number: number, framing: framing))
            }
        }
    }

    /// The body ended: appends the last record if it has no line end.
    public mutating func finish(into records: inout [Result<JSONValue, SerializationError>]) throws(SerializationError)
    {
        let parser = self.parser
        let framing = self.framing
        let maxRecordBytes = framer.maxLineBytes
        var pieces = self.pieces
        defer { self.pieces = pieces }
        try framer.finish { piece in
            pieces += 1
            switch Self.prepare(piece, framing: framing, maxRecordBytes: maxRecordBytes) {
            case .none: break
            case .ready(let result): records.append(result)
            case .parse(let line, let place):
                records.append(Self.parse(line, place: place, number: pieces, framing: framing, parser: parser))
            }
        }
    }

    /// The records of one chunk, in order: decided at once, or waiting for the chunk's batch parse.
    private struct Pending {
        /// A small marker per record (a result is large: it can hold a `SerializationError`).
        enum Item {
            /// The record is `ready[index]`.
            case ready(Int)
            /// The record is the batch's `index`th text, the piece number `number`.
            case batched(Int, place: Place, number: Int)
        }

        var items: [Item] = []
        var ready: [Result<JSONValue, SerializationError>] = []
        var ranges: [Range<Int>] = []
    }

    /// What a framed piece needs.
    private enum Preparation {
        /// A record decided without parsing (an oversized line, bytes before the first RS).
        case ready(Result<JSONValue, SerializationError>)
        /// A text to parse, where it is in the body.
        case parse(UnsafeRawBufferPointer, Place)
    }

    /// Where a text is: the offset of its first byte in the body, and whether a line end (or the next RS) followed
    /// it, so that the body went on after it.
    private struct Place {
        var offset: Int
        var terminated: Bool
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
        case .line(let bytes, let offset, let terminated):
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
            return .parse(bytes, Place(offset: offset, terminated: terminated))
        }
    }

    /// Parses one text alone.
    private static func parse(
        _ bytes: UnsafeRawBufferPointer, place: Place, number: Int, framing: Framing, parser: JSONParser
    ) -> Result<JSONValue, SerializationError> {
        let result: Result<JSONValue, SerializationError>
        do throws(SerializationError) {
            result = .success(try parser.parse(bytes))
        } catch {
            result = .failure(error)
        }
        return complete(result, bytes, place: place, number: number, framing: framing)
    }

    /// The record of the parsed `text`, piece `number` of the body at `place`: its error placed in the body, or, in
    /// a JSON text sequence, a scalar without the whitespace after it reported as possibly truncated.
    ///
    /// The parser sees one text as a whole body, so when a text followed by more of the body ends before its JSON
    /// value does, the parser's "the body ends too early" would be wrong: the line is what is incomplete, and that
    /// is what the error says.
    private static func complete(
        _ result: Result<JSONValue, SerializationError>, _ text: UnsafeRawBufferPointer, place: Place, number: Int,
        framing: Framing
    ) -> Result<JSONValue, SerializationError> {
        let offset = place.offset
        let lastByte = text.last
        switch result {
        case .failure(var error):
            let record =
                framing == .lines
                ? "Line \(number) of the stream (the record at offset \(offset))" : "The record at offset \(offset)"
            if place.terminated, let relative = error.offset, relative >= text.count, error.code == .invalidBody {
                let what = framing == .lines ? "line" : "text"
                error.message =
                    "\(record) is not valid JSON: the \(what) ends after \(text.count) bytes, before its JSON value "
                    + "is complete (\(excerpt(text))). Each \(what) holds one whole JSON text, and more of the body "
                    + "follows this one: a value broken across lines, or a record cut short by the server, reads like "
                    + "this."
            } else {
                error.message = "\(record) is not valid JSON: " + error.message
            }
            error.offset = offset + (error.offset ?? 0)
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

    /// The last bytes of `text` (up to 40) as printable text for a message, quoted.
    private static func excerpt(_ text: UnsafeRawBufferPointer) -> String {
        let tail = text.suffix(40)
        let printable = String(decoding: tail, as: UTF8.self).unicodeScalars.map {
            $0.value < 0x20 || $0.value == 0x7F ? "?" : Character($0)
        }
        return (tail.count < text.count ? "\"…" : "\"") + String(printable) + "\""
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
