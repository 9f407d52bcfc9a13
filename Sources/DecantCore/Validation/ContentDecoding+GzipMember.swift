import DecantCompression

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

extension ContentDecoding {
    /// One gzip member decoded by ``ContentDecoding/decodeGzipMember(_:maxDecodedBytes:)``.
    public struct GzipMember: Sendable, Hashable {
        /// The decompressed bytes.
        public var bytes: Data
        /// How many input bytes the member took, from its header to the end of its trailer.
        public var compressedCount: Int

        /// Creates a decoded member.
        public init(bytes: Data, compressedCount: Int) {
            self.bytes = bytes
            self.compressedCount = compressedCount
        }
    }

    /// Decodes the gzip member (RFC 1952 §2.2) that starts at the first byte of `input`, with the same decoder the
    /// stage uses for `Content-Encoding: gzip`.
    ///
    /// For format authors whose container compresses each record as a gzip member of its own and must find where
    /// each one ends: a gzip member does not state its compressed length, only decoding it tells. WARC files are
    /// stored this way by web crawls (ISO 28500 Annex D), so that one record can be read without the others.
    ///
    /// A reader that receives its input in chunks calls this when it has bytes, and again with more bytes when it
    /// returns `nil`. Calling again only once the buffered bytes have doubled keeps the total work linear in the
    /// member's size.
    ///
    /// ```swift
    /// let member = try input.withUnsafeBytes { bytes throws(SerializationError) in
    ///     try ContentDecoding.decodeGzipMember(bytes, maxDecodedBytes: 16 << 20)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - input: Bytes that start with a gzip member; bytes after it are not read.
    ///   - maxDecodedBytes: The largest decompressed size accepted.
    /// - Returns: The member, or `nil` when `input` ends before the member does.
    /// - Throws: ``SerializationError`` with code `invalidBody` (not gzip, corrupt data, a wrong CRC-32 or length),
    ///   `limitExceeded` (more than `maxDecodedBytes`) or `unsupportedFeature`, and the byte offset in `input`.
    public static func decodeGzipMember(
        _ input: UnsafeRawBufferPointer, maxDecodedBytes: Int
    ) throws(SerializationError) -> GzipMember? {
        do {
            guard let member = try Inflate.gzipMember(input, maxOutput: maxDecodedBytes) else { return nil }
            return GzipMember(bytes: Data(member.bytes), compressedCount: member.consumed)
        } catch {
            throw SerializationError(error)
        }
    }
}
