public import DecantCore
public import DecantJSON

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// Writes JSON records one at a time, framed as newline-delimited JSON (NDJSON, JSON Lines) or as a JSON text sequence
/// (RFC 7464): the inverse of ``NDJSONRecordReader``, for a server that streams a body record by record.
///
/// - **Lines** (`application/x-ndjson`, `application/jsonl`, ...): each record is its compact JSON text followed by
///   LF. The text can hold no raw line end: JSON strings escape every control character, so each record is exactly
///   one line.
/// - **Sequences** (`application/json-seq`, `+json-seq`): each record is RS (U+001E), the JSON text, then LF
///   (RFC 7464 §2.2). The LF after every text keeps a top-level number, `true`, `false` or `null` from reading as
///   cut short (§2.4).
///
/// A ``JSONValue`` is written as ``JSONValue/jsonData(options:)`` writes it (numbers with their exact text, members in
/// their order, without recursion); an `Encodable` value through ``encoder`` (DecantJSON's ``JSONValueEncoder``, with
/// its strategies). Records are always compact: `.prettyPrinted` is ignored, since it would break a record over
/// lines; `.sortedKeys` applies to both kinds of record.
///
/// ```swift
/// let writer = NDJSONRecordWriter(framing: .lines)
/// var body = Data()
/// body.append(writer.write(["id": 1]))
/// body.append(try writer.write(encodable: Event(id: 2)))
/// String(decoding: body, as: UTF8.self)   // {"id":1}\n{"id":2}\n
/// ```
///
/// A stream of values becomes a stream of chunks, one per record, with `encodedChunks(using:)` (on an `AsyncSequence`
/// of `JSONValue` or of `Encodable` values).
public struct NDJSONRecordWriter: Sendable {
    /// How records are delimited.
    public var framing: NDJSONRecordReader.Framing
    /// The encoder of `Encodable` records, with its strategies and depth limit (its `.prettyPrinted` is ignored).
    public var encoder: JSONValueEncoder

    /// Creates a writer.
    ///
    /// - Parameters:
    ///   - framing: How records are delimited.
    ///   - encoder: The encoder of `Encodable` records.
    public init(framing: NDJSONRecordReader.Framing = .lines, encoder: JSONValueEncoder = JSONValueEncoder()) {
        self.framing = framing
        self.encoder = encoder
    }

    /// Creates a writer with the framing `mediaType` implies (JSON text sequences for `application/json-seq` and
    /// `+json-seq`, lines otherwise: ``NDJSONResponseSerializer/framing(of:)``) and an encoder with `options`.
    ///
    /// - Parameters:
    ///   - mediaType: The media type of the body written.
    ///   - options: The strategies of `Encodable` records.
    ///   - maxDepth: The deepest nesting of an `Encodable` record (``JSONValueEncoder/maxDepth``).
    public init(
        for mediaType: MediaType, options: EncodingOptions = EncodingOptions(),
        maxDepth: Int = JSONParsingOptions().maxDepth
    ) {
        var encoder = JSONValueEncoder(options: options)
        encoder.maxDepth = maxDepth
        self.init(framing: NDJSONResponseSerializer.framing(of: mediaType), encoder: encoder)
    }

    /// The bytes of one record: its compact JSON text, framed.
    public func write(_ record: JSONValue) -> Data {
        var output = Data()
        append(record, to: &output)
        return output
    }

    /// The bytes of one `Encodable` record, encoded by ``encoder`` and framed.
    ///
    /// - Throws: `SerializationError` from ``JSONValueEncoder/encode(_:)``: `encodingFailed` with the coding path (a
    ///   NaN under `.throw`, say), `limitExceeded` past the encoder's `maxDepth`.
    public func write<T: Encodable>(encodable record: T) throws(SerializationError) -> Data {
        var output = Data()
        try append(encodable: record, to: &output)
        return output
    }

    /// The bytes of every record, in order: a whole body (empty for no records). (A label, because an array literal
    /// is also a ``JSONValue``: `write([1, 2])` is one record, the array.)
    public func write(records: some Sequence<JSONValue>) -> Data {
        var output = Data()
        for record in records { append(record, to: &output) }
        return output
    }

    /// Appends one record's bytes to `output`.
    public func append(_ record: JSONValue, to output: inout Data) {
        var options: JSONWritingOptions = []
        if encoder.outputFormatting.contains(.sortedKeys) { options.insert(.sortedKeys) }
        frame(record.jsonData(options: options), into: &output)
    }

    /// Appends one `Encodable` record's bytes to `output`; on error `output` is unchanged.
    ///
    /// - Throws: As ``write(encodable:)``.
    public func append<T: Encodable>(encodable record: T, to output: inout Data) throws(SerializationError) {
        var compact = encoder
        compact.outputFormatting.remove(.prettyPrinted)
        frame(try compact.encode(record), into: &output)
    }

    /// Appends `text` with the framing's bytes around it.
    private func frame(_ text: Data, into output: inout Data) {
        output.reserveCapacity(output.count + text.count + 2)
        if framing == .jsonSequence { output.append(0x1E) }
        output.append(text)
        output.append(0x0A)
    }
}
