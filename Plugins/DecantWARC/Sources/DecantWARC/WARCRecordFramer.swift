import DecantCore
import DecantRawHTTP

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Frames the records of an uncompressed WARC stream (ISO 28500 §4): a head (version line, named fields, a blank
/// line), exactly `Content-Length` bytes of block, then CRLF CRLF. `response` records become ``ArchivedResponse``s;
/// the blocks of other records are counted past, never kept.
///
/// ``WARCRecordReader`` feeds it the file's bytes (a plain WARC) or each gzip member's decompressed bytes, setting
/// ``memberOffset`` first, so that a record's offset is its member's.
struct WARCRecordFramer: Sendable {
    /// The largest record kept, head, block and the CRLF CRLF after it.
    let maxRecordBytes: Int
    /// The largest head.
    let maxHeadBytes: Int
    /// The file offset of the gzip member being fed, or `nil` when the file is not compressed.
    var memberOffset: Int?

    /// Where the reader is within a record.
    private enum State {
        /// Reading a head: `length` bytes so far, the last `matched` of them a prefix of CRLF CRLF.
        case head(length: Int, matched: Int)
        /// Reading a block: `remaining` bytes to go.
        case block(remaining: Int)
        /// Reading the CRLF CRLF after a block: `matched` bytes of it so far.
        case trailer(matched: Int)
    }

    private var state = State.head(length: 0, matched: 0)
    /// The bytes of a head cut by a chunk boundary.
    private var headBuffer: [UInt8] = []
    /// The head of the record being read.
    private var head: WARCRecordHead?
    /// The block of the response record being read, when it is kept.
    private var block: [UInt8]?
    /// Whether the record being read is a response kept for parsing.
    private var keepsBlock = false
    /// How many bytes of the stream (decompressed, for a compressed file) came before the next byte.
    private var position = 0
    /// The stream position of the record being read.
    private var recordPosition = 0
    /// The stream position of its block.
    private var blockPosition = 0
    /// The number of responses so far.
    private var responses = 0

    /// The byte offset, in the file, of the byte at `streamPosition`: itself for a plain file, the member's offset
    /// for a compressed one.
    private func fileOffset(_ streamPosition: Int) -> Int { memberOffset ?? streamPosition }

    /// The file offset of the record being read.
    private var recordOffset: Int { memberOffset == nil ? recordPosition : recordFileOffset }
    /// The member offset at the start of the record being read (compressed files).
    private var recordFileOffset = 0

    init(maxRecordBytes: Int, maxHeadBytes: Int) {
        self.maxRecordBytes = max(1, maxRecordBytes)
        self.maxHeadBytes = max(1, maxHeadBytes)
    }

    /// Whether the stream ended between records.
    var isBetweenRecords: Bool {
        if case .head(let length, _) = state { return length == 0 }
        return false
    }

    /// Feeds bytes of the stream, appending each response record they complete.
    mutating func consume(
        _ bytes: UnsafeRawBufferPointer, into records: inout [Result<ArchivedResponse, SerializationError>]
    ) throws(SerializationError) {
        var index = 0
        let count = bytes.count
        while index < count {
            switch state {
            case .head(var length, var matched):
                if length == 0 {
                    recordPosition = position
                    recordFileOffset = memberOffset ?? position
                }
                let start = index
                var complete = false
                while index < count {
                    // Eight bytes at a time while none is CR or LF (the matcher then starts again).
                    while length >= 5, count - index >= 8, maxHeadBytes - length >= 8,
                        !Self.hasLineEnd(bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                    {
                        index += 8
                        length += 8
                        matched = 0
                    }
                    guard index < count else { break }
                    let byte = bytes[index]
                    if length < 5, byte != Self.magic(length) {
                        throw notARecord(at: position + index - start)
                    }
                    guard length < maxHeadBytes else { throw headTooLarge() }
                    length += 1
                    index += 1
                    if byte == Self.terminator(matched) {
                        matched += 1
                    } else {
                        matched = byte == 0x0D ? 1 : 0
                    }
                    if matched == 4 {
                        complete = true
                        break
                    }
                }
                position += index - start
                if complete {
                    let parsed: WARCRecordHead
                    if headBuffer.isEmpty {
                        parsed = try parseHead(UnsafeRawBufferPointer(rebasing: bytes[start..<index]))
                    } else {
                        headBuffer.append(contentsOf: bytes[start..<index])
                        let buffered = headBuffer
                        headBuffer = []
                        var result: WARCRecordHead?
                        try withBytes(buffered) { raw throws(SerializationError) in result = try parseHead(raw) }
                        guard let result else { continue }
                        parsed = result
                    }
                    begin(parsed, headLength: length, into: &records)
                } else {
                    headBuffer.append(contentsOf: bytes[start..<index])
                    state = .head(length: length, matched: matched)
                }
            case .block(let remaining):
                let take = min(remaining, count - index)
                if keepsBlock { block?.append(contentsOf: bytes[index..<index + take]) }
                index += take
                position += take
                state = take == remaining ? .trailer(matched: 0) : .block(remaining: remaining - take)
            case .trailer(var matched):
                while index < count, matched < 4 {
                    guard bytes[index] == Self.terminator(matched) else { throw badTrailer(at: position) }
                    matched += 1
                    index += 1
                    position += 1
                }
                if matched == 4 {
                    end(into: &records)
                } else {
                    state = .trailer(matched: matched)
                }
            }
        }
    }

    /// The stream ended.
    ///
    /// - Throws: `truncatedBody` when it ended inside a record.
    func finish() throws(SerializationError) {
        let offset = fileOffset(position)
        let what: String
        switch state {
        case .head(let length, _):
            if length == 0 { return }
            what = "inside the head of the record at offset \(recordOffset) (\(length) bytes of it, no blank line)"
        case .block(let remaining):
            let length = head?.contentLength ?? 0
            what =
                "inside the block of the record at offset \(recordOffset): \(length - remaining) of its "
                + "Content-Length of \(length) bytes arrived"
        case .trailer(let matched):
            what =
                "after the block of the record at offset \(recordOffset), \(matched) bytes into the CRLF CRLF "
                + "that ends every record"
        }
        throw SerializationError(
            code: .truncatedBody,
            message: "The WARC file ends \(what). The file was cut short: download or copy it again whole.",
            offset: offset)
    }

    // MARK: Records

    /// Starts the record whose head was just read.
    private mutating func begin(
        _ head: WARCRecordHead, headLength: Int, into records: inout [Result<ArchivedResponse, SerializationError>]
    ) {
        self.head = head
        blockPosition = position
        let (withBlock, overflow1) = headLength.addingReportingOverflow(head.contentLength)
        let (size, overflow2) = withBlock.addingReportingOverflow(4)
        let fits = !overflow1 && !overflow2 && size <= maxRecordBytes
        keepsBlock = false
        block = nil
        if head.isResponse {
            if fits {
                keepsBlock = true
                var kept: [UInt8] = []
                kept.reserveCapacity(min(head.contentLength, 1 << 16))
                block = kept
            } else {
                let index = responses
                responses += 1
                let message =
                    "The response record at offset \(recordOffset) has \(headLength) bytes of head and a "
                    + "Content-Length of \(head.contentLength) bytes, more than the limit of \(maxRecordBytes) "
                    + "bytes per record; its block was skipped. Raise StreamOptions.maxRecordBytes (the option "
                    + "maxRecordBytes) if such responses are expected."
                records.append(
                    .success(
                        ArchivedResponse(
                            index: index, targetURI: head.targetURI, offset: recordOffset,
                            response: .failure(
                                SerializationError(code: .limitExceeded, message: message, offset: recordOffset)))))
            }
        }
        state = head.contentLength == 0 ? .trailer(matched: 0) : .block(remaining: head.contentLength)
    }

    /// Ends the record whose CRLF CRLF was just read.
    private mutating func end(into records: inout [Result<ArchivedResponse, SerializationError>]) {
        if keepsBlock, let head, let block {
            let index = responses
            responses += 1
            records.append(.success(archivedResponse(head, block: block, index: index)))
        }
        head = nil
        block = nil
        keepsBlock = false
        state = .head(length: 0, matched: 0)
    }

    /// The response of a kept response record.
    private func archivedResponse(_ head: WARCRecordHead, block: [UInt8], index: Int) -> ArchivedResponse {
        let offset = recordOffset
        func archived(
            _ response: Result<Response, SerializationError>, _ truncation: ArchivedResponse.Truncation?
        )
            -> ArchivedResponse
        {
            ArchivedResponse(
                index: index, targetURI: head.targetURI, offset: offset, response: response, truncation: truncation)
        }
        // Written into messages only, so not made for the records that read well.
        var named: String { head.targetURI.map { " (\($0.prefix(200)))" } ?? "" }
        if let contentType = head.contentType, let mediaType = MediaType(contentType),
            mediaType.essence != "application/http"
        {
            return archived(
                .failure(
                    SerializationError(
                        code: .malformedMessage,
                        message: "The response record at offset \(offset)\(named) holds \(mediaType.essence), not "
                            + "an HTTP message (application/http), so it has no HTTP response to read.",
                        offset: offset)), nil)
        }
        let url = head.targetURI.flatMap(Self.url(from:))
        do {
            let response = try Response(raw: Data(block), url: url)
            return archived(.success(response), head.truncated.map { Self.truncation($0, of: response) })
        } catch  where error.code == .truncatedBody && error.response != nil {
            let response = error.response ?? Response(status: 0)
            return archived(.success(response), Self.truncation(head.truncated ?? "length", of: response))
        } catch {
            var failure = error
            let inner = error.offset ?? 0
            failure.offset = memberOffset ?? (blockPosition + inner)
            failure.message =
                "The response record at offset \(offset)\(named) does not hold a readable HTTP response "
                + "(at byte \(inner) of its block): " + error.message
            return archived(.failure(failure), nil)
        }
    }

    /// A truncation with `reason`: the body bytes `response` kept, and its `Content-Length` when it has one.
    private static func truncation(_ reason: String, of response: Response) -> ArchivedResponse.Truncation {
        var stated: Int?
        if case .bytes(let length)? = response.headers.contentLength { stated = length }
        return ArchivedResponse.Truncation(reason: reason, keptBytes: response.body.count, statedBytes: stated)
    }

    /// The URL of a `WARC-Target-URI` value (WARC/1.0 writers sometimes put it in angle brackets).
    private static func url(from targetURI: String) -> URL? {
        var text = Substring(targetURI)
        if text.hasPrefix("<"), text.hasSuffix(">"), text.count >= 2 { text = text.dropFirst().dropLast() }
        return URL(string: String(text))
    }

    // MARK: Errors

    /// The byte at `index` (0 to 4) of `WARC/`, how every record starts.
    private static func magic(_ index: Int) -> UInt8 {
        switch index {
        case 0: 0x57
        case 1: 0x41
        case 2: 0x52
        case 3: 0x43
        default: 0x2F
        }
    }

    /// Whether one of the eight bytes of `word` may be CR or LF (never `false` when one is).
    static func hasLineEnd(_ word: UInt64) -> Bool {
        let low: UInt64 = 0x0101_0101_0101_0101
        let high: UInt64 = 0x8080_8080_8080_8080
        let carriageReturns = word ^ (low &* 0x0D)
        let lineFeeds = word ^ (low &* 0x0A)
        return ((carriageReturns &- low) & ~carriageReturns & high) | ((lineFeeds &- low) & ~lineFeeds & high) != 0
    }

    /// The byte at `index` (0 to 3) of CRLF CRLF, what ends a head and follows every block.
    private static func terminator(_ index: Int) -> UInt8 { index & 1 == 0 ? 0x0D : 0x0A }

    private func parseHead(_ bytes: UnsafeRawBufferPointer) throws(SerializationError) -> WARCRecordHead {
        do {
            return try WARCRecordHead.parse(bytes)
        } catch {
            let offset = memberOffset ?? (recordPosition + error.offset)
            throw SerializationError(
                code: error.code,
                message: "The head of the WARC record at offset \(recordOffset) is malformed: \(error.message). "
                    + "Check that the file is a WARC file and that the Content-Length of the record before it is "
                    + "right.",
                offset: offset)
        }
    }

    private func notARecord(at streamPosition: Int) -> SerializationError {
        let offset = fileOffset(streamPosition)
        if recordPosition == 0 {
            let what =
                memberOffset == nil
                ? "The body is not a WARC file: it starts neither with `WARC/` (an uncompressed WARC) nor with the "
                    + "gzip bytes 1F 8B (a WARC whose records are gzip members)"
                : "The body is not a WARC file: its first gzip member does not start with `WARC/`"
            return SerializationError(
                code: .invalidBody,
                message: what + ". Check the file and its media type (application/warc).", offset: offset)
        }
        return SerializationError(
            code: .invalidBody,
            message: "The record at offset \(recordOffset) does not start with `WARC/`: the Content-Length of the "
                + "record before it is wrong, or the file is damaged at offset \(offset).",
            offset: offset)
    }

    private func headTooLarge() -> SerializationError {
        SerializationError(
            code: .limitExceeded,
            message: "The head of the WARC record at offset \(recordOffset) has no blank line (CRLF CRLF) within "
                + "\(maxHeadBytes) bytes. Check that the file is a WARC file, or raise maxHeadBytes if its heads are "
                + "this large.",
            offset: recordOffset)
    }

    private func badTrailer(at streamPosition: Int) -> SerializationError {
        SerializationError(
            code: .invalidBody,
            message: "The block of the WARC record at offset \(recordOffset) is not followed by CRLF CRLF after its "
                + "Content-Length of \(head?.contentLength ?? 0) bytes: the Content-Length is wrong or the file is "
                + "damaged at offset \(fileOffset(streamPosition)).",
            offset: fileOffset(streamPosition))
    }
}
