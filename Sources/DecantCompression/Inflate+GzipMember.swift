extension Inflate {
    /// Decodes the one gzip member (RFC 1952 §2.2) that starts at the first byte of `input`, for containers that
    /// compress each record as a member of its own and must learn where each member ends.
    ///
    /// `package` for DecantCore, which offers it to format authors as `ContentDecoding.decodeGzipMember`.
    ///
    /// - Returns: The decompressed bytes and the number of input bytes the member took, header to trailer; `nil` when
    ///   `input` ends before the member does.
    /// - Throws: ``InflateError`` for a malformed member (never `truncatedBody`: that is `nil`).
    package static func gzipMember(
        _ input: UnsafeRawBufferPointer, maxOutput: Int
    ) throws(InflateError) -> (bytes: [UInt8], consumed: Int)? {
        var output = try OutputBuffer(growableUpTo: maxOutput, hint: input.count * 4)
        defer { output.deallocate() }
        do throws(InflateError) {
            let end = try gzipMember(input, at: 0, into: &output)
            return (output.makeArray(), end)
        } catch {
            if error.code == .truncatedBody { return nil }
            throw error
        }
    }
}
