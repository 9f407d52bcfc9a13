#if canImport(FoundationEssentials)
    package import FoundationEssentials
#else
    package import Foundation
#endif

/// A DEFLATE decoder (RFC 1951) with the zlib (RFC 1950) and gzip (RFC 1952) wrappers.
///
/// The decoder is table driven: each Huffman code is resolved with one lookup in a 10-bit (literal/length) or
/// 8-bit (distance) root table, plus one in a second-level table for longer codes; bits come from a 64-bit buffer
/// refilled eight bytes at a time. Output never grows beyond the caller's `maxOutput`, so a "zip bomb" ends with
/// ``InflateError/Code/limitExceeded`` instead of exhausting memory.
///
/// ```swift
/// let bytes = try Inflate.zlib(compressed, maxOutput: 16 << 20)
/// ```
///
/// Errors are ``InflateError``s: `invalidBody` for a malformed stream or a wrong checksum, `truncatedBody` for a
/// stream that ends early, `limitExceeded` when the output would exceed `maxOutput`, `unsupportedFeature` for a
/// zlib preset dictionary (RFC 1950 §2.2, `FDICT`). DecantCore turns one into the `SerializationError` with the same
/// code, message and offset (`SerializationError(_:)`).
///
/// The PNG decoder of `DecantImage` inflates image data with it, and DecantCore's `ContentDecoding` stage decodes
/// `gzip` and `deflate` response bodies (RFC 9110 §8.4.1) with it.
package enum Inflate {
    /// The default output limit: 256 MiB.
    package static let defaultMaxOutput = 256 << 20

    /// Decodes a zlib stream (RFC 1950): a two-byte header, DEFLATE data, and an Adler-32 checksum of the output,
    /// which is verified.
    ///
    /// - Parameters:
    ///   - input: The compressed bytes. Bytes after the checksum are ignored.
    ///   - maxOutput: The largest output accepted, in bytes.
    /// - Throws: ``InflateError`` (see ``Inflate``).
    package static func zlib(_ input: Data, maxOutput: Int = defaultMaxOutput) throws(InflateError) -> [UInt8] {
        try withBytes(input) { (buffer) throws(InflateError) in try zlib(buffer, maxOutput: maxOutput) }
    }

    /// Decodes a zlib stream (RFC 1950) held in an array; see ``zlib(_:maxOutput:)-(Data,_)``.
    package static func zlib(_ input: [UInt8], maxOutput: Int = defaultMaxOutput) throws(InflateError) -> [UInt8] {
        try withBytes(input) { (buffer) throws(InflateError) in try zlib(buffer, maxOutput: maxOutput) }
    }

    /// Decodes raw DEFLATE data (RFC 1951), with no header and no checksum.
    ///
    /// - Parameters:
    ///   - input: The compressed bytes. Bytes after the final block are ignored.
    ///   - maxOutput: The largest output accepted, in bytes.
    /// - Throws: ``InflateError`` (see ``Inflate``).
    package static func raw(_ input: Data, maxOutput: Int = defaultMaxOutput) throws(InflateError) -> [UInt8] {
        try withBytes(input) { (buffer) throws(InflateError) in try raw(buffer, maxOutput: maxOutput) }
    }

    /// Decodes raw DEFLATE data (RFC 1951) held in an array; see ``raw(_:maxOutput:)-(Data,_)``.
    package static func raw(_ input: [UInt8], maxOutput: Int = defaultMaxOutput) throws(InflateError) -> [UInt8] {
        try withBytes(input) { (buffer) throws(InflateError) in try raw(buffer, maxOutput: maxOutput) }
    }

    /// Decodes a gzip file (RFC 1952): every member, each with its header (optional extra field, name, comment and
    /// header CRC skipped), DEFLATE data, and a CRC-32 and length trailer, both verified.
    ///
    /// - Parameters:
    ///   - input: The gzip bytes; concatenated members are decoded one after another.
    ///   - maxOutput: The largest total output accepted, in bytes.
    /// - Throws: ``InflateError`` (see ``Inflate``).
    package static func gzip(_ input: Data, maxOutput: Int = defaultMaxOutput) throws(InflateError) -> [UInt8] {
        try withBytes(input) { (buffer) throws(InflateError) in try gzip(buffer, maxOutput: maxOutput) }
    }

    /// Decodes a gzip file (RFC 1952) held in an array; see ``gzip(_:maxOutput:)-(Data,_)``.
    package static func gzip(_ input: [UInt8], maxOutput: Int = defaultMaxOutput) throws(InflateError) -> [UInt8] {
        try withBytes(input) { (buffer) throws(InflateError) in try gzip(buffer, maxOutput: maxOutput) }
    }

    // MARK: - Wrappers

    static func withBytes<Bytes: Sequence<UInt8>>(
        _ input: Bytes, _ body: (UnsafeRawBufferPointer) throws(InflateError) -> [UInt8]
    ) throws(InflateError) -> [UInt8] {
        let result: Result<[UInt8], InflateError>? = input.withContiguousStorageIfAvailable { buffer in
            do throws(InflateError) {
                return .success(try body(UnsafeRawBufferPointer(buffer)))
            } catch {
                return .failure(error)
            }
        }
        if let result { return try result.get() }
        return try withBytes(Array(input), body)
    }

    static func zlib(_ input: UnsafeRawBufferPointer, maxOutput: Int) throws(InflateError) -> [UInt8] {
        var output = try OutputBuffer(growableUpTo: maxOutput, hint: input.count * 4)
        defer { output.deallocate() }
        let end = try zlib(input, into: &output)
        _ = end
        return output.makeArray()
    }

    static func raw(_ input: UnsafeRawBufferPointer, maxOutput: Int) throws(InflateError) -> [UInt8] {
        var output = try OutputBuffer(growableUpTo: maxOutput, hint: input.count * 4)
        defer { output.deallocate() }
        _ = try inflate(input, from: 0, into: &output)
        return output.makeArray()
    }

    static func gzip(_ input: UnsafeRawBufferPointer, maxOutput: Int) throws(InflateError) -> [UInt8] {
        var output = try OutputBuffer(growableUpTo: maxOutput, hint: input.count * 4)
        defer { output.deallocate() }
        try gzipMembers(input, into: &output)
        return output.makeArray()
    }

    /// Decodes every member of a gzip file (RFC 1952 §2.2) into `output`.
    ///
    /// Zero bytes after the last member are padding and ignored (as Python's `gzip` module and GNU gzip do); any
    /// other trailing byte is an error, since it is neither a member nor padding. `package` for DecantCore's content
    /// decoding stage, which decodes a whole body with one call.
    package static func gzipMembers(
        _ input: UnsafeRawBufferPointer, into output: inout OutputBuffer
    ) throws(InflateError) {
        var position = 0
        repeat {
            position = try gzipMember(input, at: position, into: &output)
        } while position + 1 < input.count && input[position] == 0x1F && input[position + 1] == 0x8B
        var padding = position
        while padding < input.count && input[padding] == 0 { padding += 1 }
        guard padding == input.count else {
            throw invalid(
                at: padding,
                "\(input.count - position) bytes that are neither another gzip member nor zero padding follow the "
                    + "last member, which ends at byte \(position) (RFC 1952 §2.2)")
        }
    }

    /// Decodes one zlib stream into `output`; returns the offset after its Adler-32 checksum.
    ///
    /// `package` for the PNG decoder, which inflates straight into a buffer of the exact decompressed size; the whole
    /// decoding loop stays in this module, so the one call per image is the only cross-module call.
    package static func zlib(
        _ input: UnsafeRawBufferPointer, into output: inout OutputBuffer
    ) throws(InflateError) -> Int {
        guard input.count >= 2 else { throw truncated(at: input.count, "its two-byte header") }
        let cmf = input[0]
        let flg = input[1]
        guard cmf & 0x0F == 8, cmf >> 4 <= 7 else {
            throw invalid(
                at: 0,
                "the zlib header names compression method \(cmf & 0x0F) with window \(cmf >> 4) (RFC "
                    + "1950 §2.2 allows only method 8, deflate, with a window of at most 32 KiB)")
        }
        guard (UInt16(cmf) << 8 | UInt16(flg)) % 31 == 0 else {
            throw invalid(
                at: 1,
                "the zlib header check bits are wrong (RFC 1950 §2.2: CMF*256+FLG must be a multiple "
                    + "of 31)")
        }
        guard flg & 0x20 == 0 else {
            throw InflateError(
                code: .unsupportedFeature,
                message: "The zlib stream needs a preset dictionary (FDICT, RFC 1950 §2.2), which is not supported.",
                offset: 1)
        }
        let start = output.count
        let end = try inflate(input, from: 2, into: &output)
        guard end + 4 <= input.count else { throw truncated(at: input.count, "its Adler-32 checksum") }
        let expected =
            UInt32(input[end]) << 24 | UInt32(input[end + 1]) << 16 | UInt32(input[end + 2]) << 8
            | UInt32(input[end + 3])
        let actual = Checksum.adler32(UnsafeRawBufferPointer(start: output.base + start, count: output.count - start))
        guard expected == actual else {
            throw invalid(at: end, "the Adler-32 checksum is wrong (RFC 1950 §2.2): the data is corrupt")
        }
        return end + 4
    }

    static func gzipMember(
        _ input: UnsafeRawBufferPointer, at start: Int, into output: inout OutputBuffer
    ) throws(InflateError) -> Int {
        guard input.count - start >= 10 else { throw truncated(at: input.count, "its 10-byte gzip header") }
        guard input[start] == 0x1F, input[start + 1] == 0x8B else {
            throw invalid(at: start, "the gzip magic bytes 1F 8B are missing (RFC 1952 §2.3.1)")
        }
        guard input[start + 2] == 8 else {
            throw invalid(at: start + 2, "the gzip compression method is \(input[start + 2]), not 8 (deflate)")
        }
        let flags = input[start + 3]
        guard flags & 0xE0 == 0 else { throw invalid(at: start + 3, "reserved gzip flag bits are set (RFC 1952)") }
        var position = start + 10
        if flags & 0x04 != 0 {
            guard position + 2 <= input.count else { throw truncated(at: input.count, "the gzip extra field") }
            position += 2 + (Int(input[position]) | Int(input[position + 1]) << 8)
        }
        for flag: UInt8 in [0x08, 0x10] where flags & flag != 0 {
            while position < input.count && input[position] != 0 { position += 1 }
            position += 1
        }
        if flags & 0x02 != 0 {
            // FHCRC: the two low bytes of the CRC-32 of the header up to here (RFC 1952 §2.3.1).
            guard position + 2 <= input.count else { throw truncated(at: input.count, "the gzip header") }
            let stored = UInt32(input[position]) | UInt32(input[position + 1]) << 8
            let header = UnsafeRawBufferPointer(rebasing: input[start..<position])
            guard Checksum.crc32(header) & 0xFFFF == stored else {
                throw invalid(
                    at: position, "the gzip header CRC (FHCRC) is wrong (RFC 1952 §2.3.1): the header is corrupt")
            }
            position += 2
        }
        guard position <= input.count else { throw truncated(at: input.count, "the gzip header") }
        let outputStart = output.count
        let end = try inflate(input, from: position, into: &output, trailerFollows: true)
        guard end + 8 <= input.count else { throw truncated(at: input.count, "the gzip CRC-32 and length trailer") }
        var crc: UInt32 = 0
        var size: UInt32 = 0
        for index in 0..<4 {
            crc |= UInt32(input[end + index]) << (8 * index)
            size |= UInt32(input[end + 4 + index]) << (8 * index)
        }
        let produced = UnsafeRawBufferPointer(start: output.base + outputStart, count: output.count - outputStart)
        guard Checksum.crc32(produced) == crc else {
            throw invalid(at: end, "the gzip CRC-32 is wrong (RFC 1952 §2.3.1): the data is corrupt")
        }
        guard UInt32(truncatingIfNeeded: produced.count) == size else {
            throw invalid(at: end + 4, "the gzip ISIZE does not match the decompressed length")
        }
        return end + 8
    }

    static func invalid(at offset: Int, _ what: String) -> InflateError {
        InflateError(
            code: .invalidBody, message: "The compressed data is invalid: \(what).", offset: offset)
    }

    static func truncated(at offset: Int, _ what: String) -> InflateError {
        InflateError(
            code: .truncatedBody,
            message: "The compressed data ends before \(what); the body was probably cut off in transit.",
            offset: offset)
    }

    static func limit(_ maximum: Int) -> InflateError {
        InflateError(
            code: .limitExceeded,
            message: "The decompressed data would exceed the limit of \(maximum) bytes (a decompression bomb, or a "
                + "limit set too low); raise the limit if the data is trusted.")
    }
}
