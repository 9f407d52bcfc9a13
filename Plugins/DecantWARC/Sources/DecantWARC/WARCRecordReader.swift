public import DecantCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The incremental reader of WARC files (ISO 28500, WARC/1.0 and WARC/1.1): fed the archive in chunks of any size,
/// it hands out each `response` record as an ``ArchivedResponse`` as soon as the record's last byte is in.
///
/// **Compression** is detected from the first bytes: `WARC/` starts an uncompressed file, the gzip bytes 1F 8B a file
/// whose records are gzip members (ISO 28500 Annex D, as web crawls store them: `.warc.gz`). Each member is decoded
/// once it is whole (``ContentDecoding/decodeGzipMember(_:maxDecodedBytes:)``, retried only when the buffered bytes
/// have doubled, so the work stays linear), and its bytes are read as records; a record's ``ArchivedResponse/offset``
/// is then its member's offset in the file.
///
/// **Records**: a version line (`WARC/1.0` or `WARC/1.1`), named fields ending in CRLF (a line starting with a space
/// or tab continues the previous value), a blank line, exactly `Content-Length` bytes of block, then CRLF CRLF.
///
/// **Responses**: every `response` record is one ``ArchivedResponse``, numbered from 0 in archive order. Its block is
/// parsed as an HTTP/1.1 message by DecantRawHTTP (`Response(raw:)`: chunked framing removed, `Content-Encoding`
/// left for the registry's content decoding stage), with ``Response/url`` from `WARC-Target-URI` when it parses.
/// `WARC-Truncated` becomes the ``ArchivedResponse/truncation``: its value, the body bytes kept and the message's
/// `Content-Length`; a message whose body is shorter than its framing says is a truncation with reason `length` even
/// without the field. A block that is not an HTTP response (a `Content-Type` other than `application/http`, such as
/// the `text/dns` of a crawler's DNS lookups, or a malformed message) is an ``ArchivedResponse`` whose
/// ``ArchivedResponse/response`` is the failure (`malformedMessage`), and reading goes on.
///
/// **Skipped records**: `warcinfo`, `request`, `metadata`, `revisit`, `resource`, `conversion` and `continuation`
/// records, and any other type, are counted past without keeping their blocks. They hold no HTTP response: requests
/// and metadata describe an exchange, a revisit refers to an earlier response instead of holding its body, a
/// resource holds a document fetched without HTTP headers, conversions and continuations are derived or partial
/// payloads that depend on other records.
///
/// **Limits** (every failure a ``SerializationError`` with the byte offset in the file and what to do):
/// - A response record larger than `maxRecordBytes` (head, block and CRLF CRLF) in an uncompressed file is an
///   ``ArchivedResponse`` whose response is a `limitExceeded` failure; its block is counted past without being kept,
///   and reading goes on. Skipped records are never kept, whatever their size.
/// - A gzip member that inflates to more than `maxRecordBytes`, or that is larger than twice that compressed (plus
///   64 KiB), ends the stream with `limitExceeded`: a member is decoded whole. A WARC compressed as one gzip stream
///   (`gzip file.warc`) is read only when it inflates within the limit.
/// - A head longer than `maxHeadBytes` without its blank line ends the stream with `limitExceeded`.
/// - A file that is not a WARC (`invalidBody`), a malformed head or `Content-Length` (`invalidBody`), an unknown
///   WARC version (`unsupportedFeature`), a block not followed by CRLF CRLF (`invalidBody`) and a corrupt gzip member
///   (`invalidBody`) end the stream; so does the end of the file inside a record or a gzip member (`truncatedBody`,
///   from ``finish(into:)``).
///
/// No allocation is sized by a `Content-Length`: a record claiming a terabyte in a few bytes costs nothing.
public struct WARCRecordReader: RecordReader {
    /// The largest head of a record (version line and fields) read by default: 64 KiB.
    public static let defaultMaxHeadBytes = 64 << 10

    /// The largest record kept: a response record's head, block and CRLF CRLF, or a gzip member's decompressed bytes.
    public let maxRecordBytes: Int
    /// The largest head of a record.
    public let maxHeadBytes: Int

    /// How the file stores its records, once its first bytes tell.
    private enum Compression {
        /// Not known yet: fewer than five bytes have arrived (or the first two of a gzip file).
        case unknown
        /// An uncompressed WARC.
        case none
        /// Records in gzip members.
        case gzip
    }

    private var compression = Compression.unknown
    /// The first bytes, while the compression is unknown.
    private var prefix: [UInt8] = []
    private var framer: WARCRecordFramer
    /// Compressed bytes of an unfinished gzip member, from `pendingStart`.
    private var pending: [UInt8] = []
    /// How many buffered bytes the next decoding attempt waits for (twice the count of the last failed attempt).
    private var nextAttempt = 0
    /// The file offset of the first byte of `pending` (the next member's), or of the next byte when it is empty.
    private var memberOffset = 0

    /// Creates a reader.
    ///
    /// - Parameters:
    ///   - maxRecordBytes: The largest record kept (``StreamOptions/maxRecordBytes`` in a stream).
    ///   - maxHeadBytes: The largest head of a record.
    public init(
        maxRecordBytes: Int = StreamOptions.defaultMaxRecordBytes, maxHeadBytes: Int = Self.defaultMaxHeadBytes
    ) {
        self.maxRecordBytes = max(1, maxRecordBytes)
        self.maxHeadBytes = max(1, maxHeadBytes)
        framer = WARCRecordFramer(maxRecordBytes: self.maxRecordBytes, maxHeadBytes: self.maxHeadBytes)
    }

    /// The largest compressed member buffered: twice ``maxRecordBytes``, plus 64 KiB for the gzip header's fields.
    private var maxCompressedBytes: Int {
        let (double, overflow) = maxRecordBytes.multipliedReportingOverflow(by: 2)
        return overflow || double > Int.max - (64 << 10) ? Int.max : double + (64 << 10)
    }

    /// Feeds the next bytes of the archive; appends each response they complete.
    ///
    /// - Throws: `SerializationError` when the archive cannot be read on (see the type's description).
    public mutating func consume(
        _ bytes: UnsafeRawBufferPointer, into records: inout [Result<ArchivedResponse, SerializationError>]
    ) throws(SerializationError) {
        var start = 0
        if compression == .unknown {
            while compression == .unknown, start < bytes.count {
                prefix.append(bytes[start])
                start += 1
                try detect()
            }
            guard compression != .unknown else { return }
            let first = prefix
            prefix = []
            try withBytes(first) { raw throws(SerializationError) in try feed(raw, into: &records) }
        }
        try feed(UnsafeRawBufferPointer(rebasing: bytes[start...]), into: &records)
    }

    /// The archive ended: decodes a last buffered gzip member.
    ///
    /// - Throws: `SerializationError` with code `truncatedBody` when the archive ends inside a record or a gzip member
    ///   (or within its first five bytes), or the errors of the last member.
    public mutating func finish(
        into records: inout [Result<ArchivedResponse, SerializationError>]
    ) throws(SerializationError) {
        switch compression {
        case .unknown:
            guard prefix.isEmpty else {
                throw SerializationError(
                    code: .truncatedBody,
                    message: "The WARC file ends after \(prefix.count) bytes, before its first record's version "
                        + "line: the file was cut short.",
                    offset: prefix.count)
            }
        case .none:
            try framer.finish()
        case .gzip:
            let buffered = pending
            // At the end every member is decoded or is an error: nothing is left over.
            try withBytes(buffered) { raw throws(SerializationError) in
                _ = try inflate(raw, final: true, into: &records)
            }
            pending = []
            try framer.finish()
        }
    }

    // MARK: Compression

    /// Decides the compression from `prefix` once it can.
    private mutating func detect() throws(SerializationError) {
        if prefix[0] == 0x1F {
            guard prefix.count >= 2 else { return }
            guard prefix[1] == 0x8B else { throw notAWARC() }
            compression = .gzip
            return
        }
        let magic = Array("WARC/".utf8)
        guard prefix.last == magic[prefix.count - 1] else { throw notAWARC() }
        if prefix.count == magic.count { compression = .none }
    }

    private func notAWARC() -> SerializationError {
        SerializationError(
            code: .invalidBody,
            message: "The body is not a WARC file: it starts neither with `WARC/` (an uncompressed WARC) nor with the "
                + "gzip bytes 1F 8B (a WARC whose records are gzip members). Check the file and its media type "
                + "(application/warc).",
            offset: prefix.count - 1)
    }

    /// Feeds bytes once the compression is known.
    private mutating func feed(
        _ bytes: UnsafeRawBufferPointer, into records: inout [Result<ArchivedResponse, SerializationError>]
    ) throws(SerializationError) {
        guard compression == .gzip else {
            try framer.consume(bytes, into: &records)
            return
        }
        guard !bytes.isEmpty else { return }
        if pending.isEmpty {
            // Members that lie whole in the chunk are decoded in place; the rest of the chunk is kept.
            let used = try inflate(bytes, final: false, into: &records)
            pending.append(contentsOf: bytes[used...])
        } else {
            pending.append(contentsOf: bytes)
            // Decoding is tried again only once the buffered bytes have doubled, so the work stays linear.
            guard pending.count >= nextAttempt || pending.count > maxCompressedBytes else { return }
            let buffered = pending
            pending = []
            var used = 0
            try withBytes(buffered) { raw throws(SerializationError) in
                used = try inflate(raw, final: false, into: &records)
            }
            pending = Array(buffered[used...])
        }
    }

    /// Decodes the whole gzip members at the start of `bytes` (whose first byte is at file offset ``memberOffset``)
    /// and reads their records; returns how many bytes they took. At the end of the file (`final`), a member that
    /// does not end is an error.
    private mutating func inflate(
        _ bytes: UnsafeRawBufferPointer, final: Bool, into records: inout [Result<ArchivedResponse, SerializationError>]
    ) throws(SerializationError) -> Int {
        var used = 0
        while used < bytes.count {
            let remaining = bytes.count - used
            guard final || remaining >= nextAttempt || remaining > maxCompressedBytes else { break }
            if bytes[used] != 0x1F || (remaining >= 2 && bytes[used + 1] != 0x8B) {
                throw SerializationError(
                    code: .invalidBody,
                    message: "The bytes at offset \(memberOffset) are not a gzip member (1F 8B), but the file's "
                        + "records are compressed: every record of a .warc.gz file is a gzip member of its own. The "
                        + "file is damaged or joins compressed and uncompressed parts.",
                    offset: memberOffset)
            }
            let member: ContentDecoding.GzipMember?
            do {
                member = try ContentDecoding.decodeGzipMember(
                    UnsafeRawBufferPointer(rebasing: bytes[used...]), maxDecodedBytes: maxRecordBytes)
            } catch {
                throw memberError(error)
            }
            guard let member, member.compressedCount > 0 else {
                if final { throw truncatedMember(remaining: remaining) }
                guard remaining <= maxCompressedBytes else {
                    throw SerializationError(
                        code: .limitExceeded,
                        message: "The gzip member at offset \(memberOffset) is still unfinished after \(remaining) "
                            + "compressed bytes, more than twice the limit of \(maxRecordBytes) bytes per record. "
                            + "Raise StreamOptions.maxRecordBytes (the option maxRecordBytes) if such records are "
                            + "expected.",
                        offset: memberOffset)
                }
                let (double, overflow) = remaining.multipliedReportingOverflow(by: 2)
                nextAttempt = overflow ? Int.max : double
                break
            }
            framer.memberOffset = memberOffset
            try withBytes(member.bytes) { raw throws(SerializationError) in
                try framer.consume(raw, into: &records)
            }
            used += member.compressedCount
            memberOffset += member.compressedCount
            nextAttempt = 0
        }
        return used
    }

    /// The file ends inside the member at ``memberOffset``, after `remaining` of its bytes.
    private func truncatedMember(remaining: Int) -> SerializationError {
        SerializationError(
            code: .truncatedBody,
            message: "The WARC file ends inside the gzip member at offset \(memberOffset), after \(remaining) of its "
                + "bytes: the file was cut short. Download or copy it again whole.",
            offset: memberOffset + remaining)
    }

    /// An error of the member at ``memberOffset``, with its offset in the file and what to do.
    private func memberError(_ error: SerializationError) -> SerializationError {
        var error = error
        if error.code == .limitExceeded {
            error.message =
                "The gzip member at offset \(memberOffset) inflates to more than the limit of \(maxRecordBytes) "
                + "bytes per record. Raise StreamOptions.maxRecordBytes (the option maxRecordBytes) if such records "
                + "are expected."
        } else {
            error.message = "The gzip member at offset \(memberOffset) cannot be decoded: " + error.message
        }
        error.offset = memberOffset + (error.offset ?? 0)
        return error
    }
}
