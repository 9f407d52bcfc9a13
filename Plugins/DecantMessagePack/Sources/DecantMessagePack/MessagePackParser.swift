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
/// ``MessagePackParsingOptions/replacesInvalidUTF8``) and `limitExceeded` (depth, body size).
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
        guard data.count <= options.maxBytes else {
            throw SerializationError(
                code: .limitExceeded,
                message: "The MessagePack body has \(data.count) bytes, more than maxBytes (\(options.maxBytes)); "
                    + "raise the maxBytes option to accept it.")
        }
        do {
            return try data.withUnsafeBytes { raw in
                guard let base = raw.baseAddress, !raw.isEmpty else {
                    // An empty body: the reader fails at once, on a stand-in byte it never reads.
                    return try withUnsafeBytes(of: UInt8(0)) { byte in
                        guard let stand = byte.baseAddress else { return .nil }
                        return try read(stand, count: 0)
                    }
                }
                return try read(base, count: raw.count)
            }
        } catch let error as SerializationError {
            throw error
        } catch {
            throw SerializationError(wrapping: error)
        }
    }

    private func read(_ bytes: UnsafeRawPointer, count: Int) throws(SerializationError) -> MessagePackValue {
        var reader = MessagePackReader(bytes: bytes, count: count, options: options)
        defer { reader.release() }
        if options.allowsMultipleValues {
            var values: [MessagePackValue] = []
            while reader.position < count { values.append(try reader.readValue()) }
            return .array(values)
        }
        let value = try reader.readValue()
        if reader.position < count {
            throw SerializationError(
                code: .invalidBody,
                message: "The MessagePack body has \(count - reader.position) bytes after its single "
                    + "top-level value at offset \(reader.position); send one value, or set the allowsMultipleValues "
                    + "option to read a stream of values.",
                offset: reader.position)
        }
        return value
    }
}
