#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// The incremental half of a ``StreamingResponseSerializer``: a state machine that is fed a body in chunks as they
/// arrive and hands out each record as soon as its last byte is in.
///
/// A reader must give the same records, errors and offsets for every way of cutting the body into chunks: one byte
/// at a time, one chunk, anything between. It keeps only the unfinished record between calls (bounded by the
/// `maxRecordBytes` it was made with), never the body. ``RecordStream`` drives it from an `AsyncSequence` of chunks;
/// ``RecordReader/readAll(_:)`` runs it over a whole body, which is how a streaming serializer's whole-body
/// ``ResponseSerializer/serialize(_:)`` gives the same records as its stream.
///
/// A record that cannot be decoded (one malformed line of NDJSON) is reported as a `.failure` among the records, so
/// that the ``RecordErrorPolicy`` can skip it; an error thrown from ``consume(_:into:)`` or ``finish(into:)`` ends
/// the stream whatever the policy (a framing error the reader cannot resynchronise after).
public protocol RecordReader<Record>: Sendable {
    /// The type of the records.
    associatedtype Record: Sendable

    /// Feeds the next bytes of the body and appends, in order, every record they complete, or the error of each
    /// record that could not be decoded (with its byte offset from the start of the body).
    ///
    /// - Throws: ``SerializationError`` when the stream cannot go on.
    mutating func consume(
        _ bytes: UnsafeRawBufferPointer, into records: inout [Result<Record, SerializationError>]
    ) throws(SerializationError)

    /// The body ended: appends what its last bytes complete, and the error of a record the body cut short when the
    /// format can tell (an RFC 7464 text without its end, an NDJSON line without its newline is still a record).
    ///
    /// - Throws: ``SerializationError`` when the end itself is malformed.
    mutating func finish(into records: inout [Result<Record, SerializationError>]) throws(SerializationError)
}

extension RecordReader {
    /// Runs a copy of this reader over a whole body: the records and record errors the stream would hand out.
    ///
    /// - Throws: ``SerializationError`` when the stream would end with one.
    public func readAll(_ body: Data) throws(SerializationError) -> [Result<Record, SerializationError>] {
        var reader = self
        var records: [Result<Record, SerializationError>] = []
        var failure: SerializationError?
        body.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            do throws(SerializationError) {
                try reader.consume(raw, into: &records)
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
        try reader.finish(into: &records)
        return records
    }
}
