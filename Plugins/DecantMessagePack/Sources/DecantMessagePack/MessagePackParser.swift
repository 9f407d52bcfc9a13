public import DecantCore
public import Foundation

/// Parses MessagePack bytes into ``MessagePackValue`` (every format family of the MessagePack specification,
/// including the timestamp extension type -1 in its 32-, 64- and 96-bit forms).
///
/// Untrusted input is safe: parsing is linear in the input and iterative (an explicit stack, bounded by
/// ``MessagePackParsingOptions/maxDepth``); a declared length (str, bin, ext) or element count (array, map) is
/// checked against the bytes that remain before anything is allocated, so an array 32 claiming four billion
/// elements fails at once. Errors are `SerializationError`s with the byte offset of the value at fault:
/// `invalidBody` (truncated input, the never-used byte 0xc1, a timestamp with nanoseconds above 999,999,999 or of
/// another length, bytes after the top-level value), `invalidEncoding` (a str that is not UTF-8, unless
/// ``MessagePackParsingOptions/replacesInvalidUTF8``) and `limitExceeded` (depth, body size, values: see
/// ``MessagePackParsingOptions/maxItems``).
public struct MessagePackParser: Sendable {
    /// The limits and choices.
    public var options: MessagePackParsingOptions

    /// Creates a parser.
    public init(options: MessagePackParsingOptions = MessagePackParsingOptions()) {
        self.options = options
    }

    /// Parses one top-level value; with ``MessagePackParsingOptions/allowsMultipleValues``, every top-level value
    /// of the stream as one ``MessagePackValue/array(_:)``.
    ///
    /// - Throws: `SerializationError` (see the type's description).
    public func parse(_ data: Data) throws(SerializationError) -> MessagePackValue {
        try withBytes(of: data) { bytes, count throws(SerializationError) in
            var reader = MessagePackReader(bytes: bytes, count: count, options: options)
            defer { reader.release() }
            if options.allowsMultipleValues {
                var values: [MessagePackValue] = []
                while reader.position < count {
                    try reader.countItems(1, at: reader.position)
                    values.append(try reader.readValue())
                }
                return .array(values)
            }
            try reader.countItems(1, at: 0)
            let value = try reader.readValue()
            if reader.position < count { throw extraBytes(count - reader.position, at: reader.position) }
            return value
        }
    }

    /// Checks `data` as ``parse(_:)`` does (every error with the same code, offset and message, every limit) and
    /// returns its value as a ``MessagePackItem``: values are read from the body when asked for, so parsing
    /// allocates nothing per value. With ``MessagePackParsingOptions/allowsMultipleValues``, the item is an array
    /// of the top-level values, as ``parse(_:)`` makes it.
    ///
    /// - Throws: `SerializationError` as ``parse(_:)`` does; `limitExceeded` for a body of 4 GiB or more (from
    ///   2^32 - 1 bytes: offsets and entry indices on the tape are 32-bit).
    public func read(_ data: Data) throws(SerializationError) -> MessagePackItem {
        let entries = try withBytes(of: data) { bytes, count throws(SerializationError) in
            guard count < Self.maxTapeBodyBytes else {
                throw SerializationError(
                    code: .limitExceeded,
                    message: "The MessagePack body has \(count) bytes; MessagePackParser.read reads bodies below "
                        + "4 GiB. Use parse for larger ones.", offset: 0)
            }
            var reader = MessagePackReader(bytes: bytes, count: count, options: options, cachesTexts: false)
            defer { reader.release() }
            if options.allowsMultipleValues {
                // The array of the top-level values, which has no head in the body.
                _ = reader.appendEntry(.array, offset: 0, count: 0, headLength: 0)
                var values = 0
                while reader.position < count {
                    try reader.countItems(1, at: reader.position)
                    try reader.readTapeValue()
                    values += 1
                }
                reader.entries[0].count = UInt32(truncatingIfNeeded: values)
                reader.entries[0].end = UInt32(truncatingIfNeeded: reader.entries.count)
                return reader.entries.handOver()
            }
            try reader.countItems(1, at: 0)
            try reader.readTapeValue()
            if reader.position < count { throw extraBytes(count - reader.position, at: reader.position) }
            return reader.entries.handOver()
        }
        return MessagePackItem(tape: MessagePackTape(body: data, entries: entries), index: 0)
    }

    /// ``read(_:)`` takes bodies below this size: offsets and entry indices on its tape are 32-bit.
    static let maxTapeBodyBytes = Int(UInt32.max)

    /// Calls `body` with the bytes of `data` and their count, once `data` is found within
    /// ``MessagePackParsingOptions/maxBytes``. An empty body gets a stand-in byte that is never read.
    private func withBytes<Result>(
        of data: Data, _ body: (UnsafeRawPointer, Int) throws(SerializationError) -> Result
    ) throws(SerializationError) -> Result {
        guard data.count <= options.maxBytes else {
            throw SerializationError(
                code: .limitExceeded,
                message: "The MessagePack body has \(data.count) bytes, more than maxBytes (\(options.maxBytes)); "
                    + "raise the maxBytes option to accept it.")
        }
        do {
            return try data.withUnsafeBytes { raw in
                guard let base = raw.baseAddress, !raw.isEmpty else {
                    return try withUnsafePointer(to: UInt8(0)) { stand in try body(UnsafeRawPointer(stand), 0) }
                }
                return try body(base, raw.count)
            }
        } catch let error as SerializationError {
            throw error
        } catch {
            throw SerializationError(wrapping: error)
        }
    }

    private func extraBytes(_ count: Int, at offset: Int) -> SerializationError {
        SerializationError(
            code: .invalidBody,
            message: "The MessagePack body has \(count) bytes after its single top-level value at offset \(offset); "
                + "send one value, or set the allowsMultipleValues option to read a stream of values.",
            offset: offset)
    }
}
