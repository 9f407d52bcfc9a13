#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// A DEFLATE decoder (RFC 1951) with the zlib (RFC 1950) and gzip (RFC 1952) wrappers.
///
/// The decoder is table driven: each Huffman code is resolved with one lookup in a 10-bit (literal/length) or
/// 8-bit (distance) root table, plus one in a second-level table for longer codes; bits come from a 64-bit buffer
/// refilled eight bytes at a time. Output never grows beyond the caller's `maxOutput`, so a "zip bomb" ends with
/// `SerializationError.Code.limitExceeded` instead of exhausting memory.
///
/// ```swift
/// let bytes = try Inflate.zlib(compressed, maxOutput: 16 << 20)
/// ```
///
/// Errors are `SerializationError`s: `invalidBody` for a malformed stream or a wrong checksum, `truncatedBody` for a
/// stream that ends early, `limitExceeded` when the output would exceed `maxOutput`, `unsupportedFeature` for a
/// zlib preset dictionary (RFC 1950 §2.2, `FDICT`).
///
/// The PNG decoder of `DecantImage` inflates image data with it, and ``ContentDecoding`` decodes `gzip` and
/// `deflate` response bodies (RFC 9110 §8.4.1) with it.
public enum Inflate {
    /// The default output limit: 256 MiB.
    public static let defaultMaxOutput = 256 << 20

    /// Decodes a zlib stream (RFC 1950): a two-byte header, DEFLATE data, and an Adler-32 checksum of the output,
    /// which is verified.
    ///
    /// - Parameters:
    ///   - input: The compressed bytes. Bytes after the checksum are ignored.
    ///   - maxOutput: The largest output accepted, in bytes.
    /// - Throws: `SerializationError` (see ``Inflate``).
    public static func zlib(_ input: Data, maxOutput: Int = defaultMaxOutput) throws(SerializationError) -> [UInt8] {
        try withBytes(input) { (buffer) throws(SerializationError) in try zlib(buffer, maxOutput: maxOutput) }
    }

    /// Decodes a zlib stream (RFC 1950) held in an array; see ``zlib(_:maxOutput:)-(Data,_)``.
    public static func zlib(_ input: [UInt8], maxOutput: Int = defaultMaxOutput) throws(SerializationError) -> [UInt8] {
        try withBytes(input) { (buffer) throws(SerializationError) in try zlib(buffer, maxOutput: maxOutput) }
    }

    /// Decodes raw DEFLATE data (RFC 1951), with no header and no checksum.
    ///
    /// - Parameters:
    ///   - input: The compressed bytes. Bytes after the final block are ignored.
    ///   - maxOutput: The largest output accepted, in bytes.
    /// - Throws: `SerializationError` (see ``Inflate``).
    public static func raw(_ input: Data, maxOutput: Int = defaultMaxOutput) throws(SerializationError) -> [UInt8] {
        try withBytes(input) { (buffer) throws(SerializationError) in try raw(buffer, maxOutput: maxOutput) }
    }

    /// Decodes raw DEFLATE data (RFC 1951) held in an array; see ``raw(_:maxOutput:)-(Data,_)``.
    public static func raw(_ input: [UInt8], maxOutput: Int = defaultMaxOutput) throws(SerializationError) -> [UInt8] {
        try withBytes(input) { (buffer) throws(SerializationError) in try raw(buffer, maxOutput: maxOutput) }
    }

    /// Decodes a gzip file (RFC 1952): every member, each with its header (optional extra field, name, comment and
    /// header CRC skipped), DEFLATE data, and a CRC-32 and length trailer, both verified.
    ///
    /// - Parameters:
    ///   - input: The gzip bytes; concatenated members are decoded one after another.
    ///   - maxOutput: The largest total output accepted, in bytes.
    /// - Throws: `SerializationError` (see ``Inflate``).
    public static func gzip(_ input: Data, maxOutput: Int = defaultMaxOutput) throws(SerializationError) -> [UInt8] {
        try withBytes(input) { (buffer) throws(SerializationError) in try gzip(buffer, maxOutput: maxOutput) }
    }

    /// Decodes a gzip file (RFC 1952) held in an array; see ``gzip(_:maxOutput:)-(Data,_)``.
    public static func gzip(_ input: [UInt8], maxOutput: Int = defaultMaxOutput) throws(SerializationError) -> [UInt8] {
        try withBytes(input) { (buffer) throws(SerializationError) in try gzip(buffer, maxOutput: maxOutput) }
    }

    // MARK: - Wrappers

    static func withBytes<Bytes: Sequence<UInt8>>(
        _ input: Bytes, _ body: (UnsafeRawBufferPointer) throws(SerializationError) -> [UInt8]
    ) throws(SerializationError) -> [UInt8] {
        let result: Result<[UInt8], SerializationError>? = input.withContiguousStorageIfAvailable { buffer in
            do throws(SerializationError) {
                return .success(try body(UnsafeRawBufferPointer(buffer)))
            } catch {
                return .failure(error)
            }
        }
        if let result { return try result.get() }
        return try withBytes(Array(input), body)
    }

    static func zlib(_ input: UnsafeRawBufferPointer, maxOutput: Int) throws(SerializationError) -> [UInt8] {
        var output = try OutputBuffer(growableUpTo: maxOutput, hint: input.count * 4)
        defer { output.deallocate() }
        let end = try zlib(input, into: &output)
        _ = end
        return output.makeArray()
    }

    static func raw(_ input: UnsafeRawBufferPointer, maxOutput: Int) throws(SerializationError) -> [UInt8] {
        var output = try OutputBuffer(growableUpTo: maxOutput, hint: input.count * 4)
        defer { output.deallocate() }
        _ = try inflate(input, from: 0, into: &output)
        return output.makeArray()
    }

    static func gzip(_ input: UnsafeRawBufferPointer, maxOutput: Int) throws(SerializationError) -> [UInt8] {
        var output = try OutputBuffer(growableUpTo: maxOutput, hint: input.count * 4)
        defer { output.deallocate() }
        try gzipMembers(input, into: &output)
        return output.makeArray()
    }

    /// Decodes every member of a gzip file (RFC 1952 §2.2) into `output`.
    ///
    /// Zero bytes after the last member are padding and ignored (as Python's `gzip` module and GNU gzip do); any
    /// other trailing byte is an error, since it is neither a member nor padding.
    static func gzipMembers(
        _ input: UnsafeRawBufferPointer, into output: inout OutputBuffer
    ) throws(SerializationError) {
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
    ) throws(SerializationError) -> Int {
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
            throw SerializationError(
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
    ) throws(SerializationError) -> Int {
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
        let end = try inflate(input, from: position, into: &output)
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

    static func invalid(at offset: Int, _ what: String) -> SerializationError {
        SerializationError(
            code: .invalidBody, message: "The compressed data is invalid: \(what).", offset: offset)
    }

    static func truncated(at offset: Int, _ what: String) -> SerializationError {
        SerializationError(
            code: .truncatedBody,
            message: "The compressed data ends before \(what); the body was probably cut off in transit.",
            offset: offset)
    }

    static func limit(_ maximum: Int) -> SerializationError {
        SerializationError(
            code: .limitExceeded,
            message: "The decompressed data would exceed the limit of \(maximum) bytes (a decompression bomb, or a "
                + "limit set too low); raise the limit if the data is trusted.")
    }
}

// MARK: - Output

/// The output of the decoder: a manually managed buffer with eight bytes of slack for word-sized copies.
///
/// `package` (with ``init(exactly:)``, ``base``, ``count`` and ``deallocate()``) for the PNG decoder, which reads its
/// rows in place; nothing outside this package sees it.
package struct OutputBuffer {
    /// The first byte; valid until ``deallocate()``.
    package internal(set) var base: UnsafeMutablePointer<UInt8>
    /// Bytes allocated, excluding the slack.
    var capacity: Int
    /// Bytes written so far.
    package internal(set) var count = 0
    let limit: Int
    let growable: Bool

    static let slack = 16

    /// A buffer that grows up to `limit` bytes.
    init(growableUpTo limit: Int, hint: Int) throws(SerializationError) {
        self.limit = max(0, limit)
        growable = true
        capacity = min(self.limit, max(1024, min(hint, 64 << 20)))
        base = .allocate(capacity: capacity + OutputBuffer.slack)
    }

    /// A buffer of exactly `size` bytes, for callers that know the decompressed size (PNG).
    package init(exactly size: Int) {
        limit = size
        growable = false
        capacity = size
        base = .allocate(capacity: size + OutputBuffer.slack)
    }

    /// Frees the bytes; the buffer must not be used afterwards.
    package func deallocate() { base.deallocate() }

    func makeArray() -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            if count > 0 { buffer.baseAddress!.update(from: base, count: count) }
            initialized = count
        }
    }

    /// Makes room for `needed` more bytes, or throws when that would pass the limit.
    mutating func reserve(_ needed: Int) throws(SerializationError) {
        let required = count + needed
        guard required <= limit else {
            if growable { throw Inflate.limit(limit) }
            throw SerializationError(
                code: .invalidBody,
                message: "The compressed data holds more than the \(limit) bytes expected; the data is corrupt.")
        }
        guard required > capacity else { return }
        let newCapacity = min(limit, max(required, capacity * 2))
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity + OutputBuffer.slack)
        newBase.update(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }
}

// MARK: - Huffman tables

/// Table entries: bits 0-4 the bits to consume, 5-7 the kind, 8-15 extra bits (or a subtable's index bits), 16-31 the
/// value (a literal, a length or distance base, or a subtable's offset).
enum HuffmanEntry {
    static let literal: UInt32 = 0 << 5
    static let lengthOrDistance: UInt32 = 1 << 5
    static let endOfBlock: UInt32 = 2 << 5
    static let subtable: UInt32 = 3 << 5
    static let invalid: UInt32 = 4 << 5
    static let kindMask: UInt32 = 7 << 5

    static let lengthBases: [UInt16] = [
        3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227,
        258,
    ]
    static let lengthExtra: [UInt8] = [
        0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
    ]
    static let distanceBases: [UInt16] = [
        1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097,
        6145, 8193, 12289, 16385, 24577,
    ]
    static let distanceExtra: [UInt8] = [
        0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13,
    ]

    /// What each literal/length symbol (0-287) decodes to, without its code length.
    static let literalLengthInfo: [UInt32] = (0..<288).map { symbol in
        if symbol < 256 { return literal | UInt32(symbol) << 16 }
        if symbol == 256 { return endOfBlock }
        if symbol > 285 { return invalid }
        let index = symbol - 257
        return lengthOrDistance | UInt32(lengthExtra[index]) << 8 | UInt32(lengthBases[index]) << 16
    }

    /// What each distance symbol (0-31) decodes to, without its code length.
    static let distanceInfo: [UInt32] = (0..<32).map { symbol in
        if symbol >= 30 { return invalid }
        return lengthOrDistance | UInt32(distanceExtra[symbol]) << 8 | UInt32(distanceBases[symbol]) << 16
    }
}

/// A two-level Huffman decoding table (RFC 1951 §3.2.2 canonical codes, bit-reversed for LSB-first reading).
struct HuffmanTable {
    let storage: UnsafeMutablePointer<UInt32>
    let rootBits: Int

    init(rootBits: Int, capacity: Int) {
        self.rootBits = rootBits
        storage = .allocate(capacity: capacity)
    }

    func deallocate() { storage.deallocate() }

    /// The low `length` bits of `code`, in reverse order (Huffman codes are packed most significant bit first).
    @inline(__always)
    static func reverse(_ code: Int, length: Int) -> Int {
        var value = UInt32(truncatingIfNeeded: code)
        value = (value & 0x5555) << 1 | (value >> 1 & 0x5555)
        value = (value & 0x3333) << 2 | (value >> 2 & 0x3333)
        value = (value & 0x0F0F) << 4 | (value >> 4 & 0x0F0F)
        value = (value & 0x00FF) << 8 | (value >> 8 & 0x00FF)
        return Int(value >> UInt32(16 - length))
    }

    /// Fills the table for the code lengths `lengths[0..<count]`, each symbol mapping to `info[symbol]`.
    ///
    /// Over-subscribed codes are rejected; incomplete ones are allowed, and their unused entries decode as invalid.
    func build(
        lengths: UnsafePointer<UInt8>, count: Int, info: UnsafePointer<UInt32>
    ) throws(SerializationError) {
        var lengthCounts = [Int](repeating: 0, count: 16)
        var maxLength = 0
        for symbol in 0..<count {
            let length = Int(lengths[symbol])
            lengthCounts[length] += 1
            if length > maxLength { maxLength = length }
        }
        var left = 1
        for length in 1..<16 {
            left = (left << 1) - lengthCounts[length]
            guard left >= 0 else {
                throw Inflate.invalid(at: 0, "a Huffman code is over-subscribed (RFC 1951 §3.2.2)")
            }
        }
        var nextCode = [Int](repeating: 0, count: 16)
        var code = 0
        for length in 1..<16 {
            code = (code + lengthCounts[length - 1]) << 1
            nextCode[length] = code
        }
        nextCode[0] = 0
        let rootSize = 1 << rootBits
        let rootMask = rootSize - 1
        storage.update(repeating: HuffmanEntry.invalid, count: rootSize)
        let subBits = max(0, maxLength - rootBits)
        var subtableOffset = rootSize
        for symbol in 0..<count {
            let length = Int(lengths[symbol])
            if length == 0 { continue }
            let code = nextCode[length]
            nextCode[length] += 1
            let reversed = HuffmanTable.reverse(code, length: length)
            let entry = info[symbol]
            if length <= rootBits {
                var index = reversed
                while index < rootSize {
                    storage[index] = entry | UInt32(length)
                    index += 1 << length
                }
            } else {
                let prefix = reversed & rootMask
                var pointer = storage[prefix]
                if pointer & HuffmanEntry.kindMask != HuffmanEntry.subtable {
                    pointer =
                        HuffmanEntry.subtable | UInt32(rootBits) | UInt32(subBits) << 8
                        | UInt32(subtableOffset) << 16
                    storage[prefix] = pointer
                    (storage + subtableOffset).update(repeating: HuffmanEntry.invalid, count: 1 << subBits)
                    subtableOffset += 1 << subBits
                }
                let offset = Int(pointer >> 16)
                let subLength = length - rootBits
                var index = reversed >> rootBits
                while index < 1 << subBits {
                    storage[offset + index] = entry | UInt32(subLength)
                    index += 1 << subLength
                }
            }
        }
    }
}

// MARK: - The decoder

extension Inflate {
    nonisolated(unsafe) static let fixedLiteralLengthTable: HuffmanTable = {
        let table = HuffmanTable(rootBits: 10, capacity: 1024 + 288 * 32)
        var lengths = [UInt8](repeating: 8, count: 288)
        for index in 144..<256 { lengths[index] = 9 }
        for index in 256..<280 { lengths[index] = 7 }
        try! table.build(lengths: lengths, count: 288, info: HuffmanEntry.literalLengthInfo)
        return table
    }()

    nonisolated(unsafe) static let fixedDistanceTable: HuffmanTable = {
        let table = HuffmanTable(rootBits: 8, capacity: 256 + 32 * 128)
        let lengths = [UInt8](repeating: 5, count: 32)
        try! table.build(lengths: lengths, count: 32, info: HuffmanEntry.distanceInfo)
        return table
    }()

    static let codeLengthOrder: [Int] = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

    /// Decodes DEFLATE blocks from `input[start...]` until the final block; returns the offset of the first byte
    /// after it (the last partial byte is skipped, RFC 1951 §3.2.3).
    static func inflate(
        _ input: UnsafeRawBufferPointer, from start: Int, into output: inout OutputBuffer
    ) throws(SerializationError) -> Int {
        guard let inputBase = input.baseAddress else { throw truncated(at: 0, "its first block") }
        var reader = BitReader(base: inputBase, count: input.count, position: start)
        let literalTable = HuffmanTable(rootBits: 10, capacity: 1024 + 288 * 32)
        let distanceTable = HuffmanTable(rootBits: 8, capacity: 256 + 32 * 128)
        defer {
            literalTable.deallocate()
            distanceTable.deallocate()
        }
        var isFinal = false
        while !isFinal {
            try reader.refill()
            isFinal = reader.take(1) == 1
            let type = reader.take(2)
            switch type {
            case 0:
                try storedBlock(&reader, into: &output)
            case 1:
                try huffmanBlock(&reader, literals: fixedLiteralLengthTable, distances: fixedDistanceTable, &output)
            case 2:
                try readDynamicTables(&reader, literals: literalTable, distances: distanceTable)
                try huffmanBlock(&reader, literals: literalTable, distances: distanceTable, &output)
            default:
                throw invalid(at: reader.position, "a block has the reserved type 3 (RFC 1951 §3.2.3)")
            }
        }
        return try reader.alignedPosition()
    }

    static func storedBlock(_ reader: inout BitReader, into output: inout OutputBuffer) throws(SerializationError) {
        var position = try reader.alignedPosition()
        reader.reset(to: position)
        guard position + 4 <= reader.count else { throw truncated(at: reader.count, "a stored block's length") }
        let length =
            Int(reader.base.load(fromByteOffset: position, as: UInt8.self))
            | Int(reader.base.load(fromByteOffset: position + 1, as: UInt8.self)) << 8
        let complement =
            Int(reader.base.load(fromByteOffset: position + 2, as: UInt8.self))
            | Int(reader.base.load(fromByteOffset: position + 3, as: UInt8.self)) << 8
        guard length ^ 0xFFFF == complement else {
            throw invalid(at: position, "a stored block's LEN and NLEN do not match (RFC 1951 §3.2.4)")
        }
        position += 4
        guard position + length <= reader.count else { throw truncated(at: reader.count, "a stored block's end") }
        try output.reserve(length)
        (output.base + output.count).update(
            from: reader.base.advanced(by: position).assumingMemoryBound(to: UInt8.self), count: length)
        output.count += length
        reader.reset(to: position + length)
    }

    static func readDynamicTables(
        _ reader: inout BitReader, literals: HuffmanTable, distances: HuffmanTable
    ) throws(SerializationError) {
        try reader.refill()
        let literalCount = Int(reader.take(5)) + 257
        let distanceCount = Int(reader.take(5)) + 1
        let codeLengthCount = Int(reader.take(4)) + 4
        guard literalCount <= 286, distanceCount <= 30 else {
            throw invalid(at: reader.position, "a dynamic block declares too many codes (RFC 1951 §3.2.7)")
        }
        var codeLengthLengths = [UInt8](repeating: 0, count: 19)
        for index in 0..<codeLengthCount {
            try reader.refill()
            codeLengthLengths[codeLengthOrder[index]] = UInt8(reader.take(3))
        }
        let codeLengthTable = HuffmanTable(rootBits: 7, capacity: 128)
        defer { codeLengthTable.deallocate() }
        let codeLengthInfo: [UInt32] = (0..<19).map { HuffmanEntry.literal | UInt32($0) << 16 }
        try codeLengthTable.build(lengths: codeLengthLengths, count: 19, info: codeLengthInfo)
        var lengths = [UInt8](repeating: 0, count: literalCount + distanceCount)
        var index = 0
        while index < lengths.count {
            try reader.refill()
            let entry = codeLengthTable.storage[Int(reader.buffer & 0x7F)]
            guard entry & HuffmanEntry.kindMask == HuffmanEntry.literal else {
                throw invalid(at: reader.position, "a code length code is invalid (RFC 1951 §3.2.7)")
            }
            reader.drop(Int(entry & 31))
            let symbol = Int(entry >> 16)
            var repeatValue: UInt8 = 0
            var repeatCount = 0
            switch symbol {
            case 0..<16:
                lengths[index] = UInt8(symbol)
                index += 1
                continue
            case 16:
                guard index > 0 else {
                    throw invalid(at: reader.position, "code length 16 repeats nothing (RFC 1951 §3.2.7)")
                }
                repeatValue = lengths[index - 1]
                repeatCount = 3 + Int(reader.take(2))
            case 17: repeatCount = 3 + Int(reader.take(3))
            default: repeatCount = 11 + Int(reader.take(7))
            }
            guard index + repeatCount <= lengths.count else {
                throw invalid(at: reader.position, "code lengths overflow their table (RFC 1951 §3.2.7)")
            }
            for offset in 0..<repeatCount { lengths[index + offset] = repeatValue }
            index += repeatCount
        }
        guard lengths[256] != 0 else {
            throw invalid(at: reader.position, "the end-of-block symbol has no code (RFC 1951 §3.2.7)")
        }
        try lengths.withUnsafeBufferPointer { (buffer) throws(SerializationError) in
            try literals.build(lengths: buffer.baseAddress!, count: literalCount, info: HuffmanEntry.literalLengthInfo)
            try distances.build(
                lengths: buffer.baseAddress! + literalCount, count: distanceCount, info: HuffmanEntry.distanceInfo)
        }
    }

    /// Resolves one Huffman code: a root-table lookup, plus a subtable lookup for long codes; consumes its bits.
    @inline(__always)
    static func decodeSymbol(_ table: UnsafeMutablePointer<UInt32>, mask: UInt64, _ reader: inout BitReader) -> UInt32 {
        var entry = table[Int(truncatingIfNeeded: reader.buffer & mask)]
        if entry & HuffmanEntry.kindMask == HuffmanEntry.subtable {
            reader.drop(Int(entry & 31))
            let subMask = (UInt64(1) << UInt64(entry >> 8 & 0xFF)) &- 1
            entry = table[Int(entry >> 16) &+ Int(truncatingIfNeeded: reader.buffer & subMask)]
        }
        reader.drop(Int(entry & 31))
        return entry
    }

    /// The hot loop: decodes one Huffman-coded block.
    ///
    /// A refill leaves at least 56 bits in the buffer: enough for three literals (15 bits each at most), or for a
    /// whole length/distance pair after its length code (5 + 15 + 13 = 33 bits at most). So literals are decoded up
    /// to three per refill, and a pair never needs a refill in its middle.
    static func huffmanBlock(
        _ reader: inout BitReader, literals: HuffmanTable, distances: HuffmanTable, _ output: inout OutputBuffer
    ) throws(SerializationError) {
        let literalTable = literals.storage
        let distanceTable = distances.storage
        let literalMask = UInt64(1 << literals.rootBits) - 1
        let distanceMask = UInt64(1 << distances.rootBits) - 1
        var out = output.base
        var count = output.count
        var limitCount = output.growable ? output.capacity : output.limit
        var slackCount = output.capacity + OutputBuffer.slack
        defer { output.count = count }
        while true {
            try reader.refill()
            var entry = decodeSymbol(literalTable, mask: literalMask, &reader)
            if entry & HuffmanEntry.kindMask == HuffmanEntry.literal {
                if count &+ 3 > limitCount {
                    // Near the end of the buffer: one literal per refill, growing the buffer when it is full.
                    if count >= limitCount {
                        output.count = count
                        try output.reserve(1)
                        out = output.base
                        limitCount = output.growable ? output.capacity : output.limit
                        slackCount = output.capacity + OutputBuffer.slack
                    }
                    out[count] = UInt8(truncatingIfNeeded: entry >> 16)
                    count &+= 1
                    continue
                }
                out[count] = UInt8(truncatingIfNeeded: entry >> 16)
                count &+= 1
                entry = decodeSymbol(literalTable, mask: literalMask, &reader)
                if entry & HuffmanEntry.kindMask == HuffmanEntry.literal {
                    out[count] = UInt8(truncatingIfNeeded: entry >> 16)
                    count &+= 1
                    entry = decodeSymbol(literalTable, mask: literalMask, &reader)
                    if entry & HuffmanEntry.kindMask == HuffmanEntry.literal {
                        out[count] = UInt8(truncatingIfNeeded: entry >> 16)
                        count &+= 1
                        continue
                    }
                }
                if reader.bitCount < 33 { try reader.refill() }
            }
            let kind = entry & HuffmanEntry.kindMask
            if kind != HuffmanEntry.lengthOrDistance {
                if kind == HuffmanEntry.endOfBlock { return }
                throw invalid(at: reader.position, "a literal/length code is invalid (RFC 1951 §3.2.5)")
            }
            let extra = UInt64(entry >> 8 & 0xFF)
            let length = Int(entry >> 16) &+ Int(truncatingIfNeeded: reader.buffer & ((1 << extra) &- 1))
            reader.drop(Int(extra))
            let distanceEntry = decodeSymbol(distanceTable, mask: distanceMask, &reader)
            guard distanceEntry & HuffmanEntry.kindMask == HuffmanEntry.lengthOrDistance else {
                throw invalid(at: reader.position, "a distance code is invalid (RFC 1951 §3.2.5)")
            }
            let distanceExtra = UInt64(distanceEntry >> 8 & 0xFF)
            let distance =
                Int(distanceEntry >> 16) &+ Int(truncatingIfNeeded: reader.buffer & ((1 << distanceExtra) &- 1))
            reader.drop(Int(distanceExtra))
            guard distance <= count else {
                throw invalid(
                    at: reader.position,
                    "a match refers to \(distance) bytes back, before the start of the "
                        + "data (RFC 1951 §3.2.5)")
            }
            if count &+ length > limitCount {
                output.count = count
                try output.reserve(length)
                out = output.base
                limitCount = output.growable ? output.capacity : output.limit
                slackCount = output.capacity + OutputBuffer.slack
            }
            copyMatch(to: out + count, distance: distance, length: length, wordsFit: count &+ length &+ 8 <= slackCount)
            count &+= length
        }
    }

    /// Copies an LZ77 match (RFC 1951 §3.2.5) of `length` bytes from `distance` bytes back, which may overlap it.
    ///
    /// With `wordsFit` (the buffer has eight bytes of room past the match), eight bytes are copied at a time, up to
    /// seven of them past the match's end (overwritten later). A distance under 8 copies its first bytes one by one
    /// until the output repeats with a period of at least 8 bytes, then copies words from that period back.
    @inline(__always)
    static func copyMatch(to destination: UnsafeMutablePointer<UInt8>, distance: Int, length: Int, wordsFit: Bool) {
        if wordsFit {
            if distance >= 8 {
                let source = destination - distance
                var offset = 0
                repeat {
                    let word = UnsafeRawPointer(source + offset).loadUnaligned(as: UInt64.self)
                    UnsafeMutableRawPointer(destination + offset).storeBytes(of: word, as: UInt64.self)
                    offset &+= 8
                } while offset < length
                return
            }
            if distance == 1 {
                let word = UInt64(destination[-1]) &* 0x0101_0101_0101_0101
                var offset = 0
                repeat {
                    UnsafeMutableRawPointer(destination + offset).storeBytes(of: word, as: UInt64.self)
                    offset &+= 8
                } while offset < length
                return
            }
            // The smallest multiple of the distance that is at least 8: the output is periodic with that period too.
            let period = (8 + distance - 1) / distance * distance
            let lead = min(length, period - distance)
            for offset in 0..<lead { destination[offset] = destination[offset - distance] }
            var offset = lead
            while offset < length {
                let word = UnsafeRawPointer(destination + offset - period).loadUnaligned(as: UInt64.self)
                UnsafeMutableRawPointer(destination + offset).storeBytes(of: word, as: UInt64.self)
                offset &+= 8
            }
            return
        }
        let source = destination - distance
        for offset in 0..<length { destination[offset] = source[offset] }
    }
}

/// An LSB-first bit reader over a byte buffer with a 64-bit bit buffer (RFC 1951 §3.1.1).
struct BitReader {
    let base: UnsafeRawPointer
    let count: Int
    var position: Int
    var buffer: UInt64 = 0
    var bitCount = 0
    /// Zero bytes appended past the end of the input, so that the buffer can always be filled.
    var overrun = 0

    init(base: UnsafeRawPointer, count: Int, position: Int) {
        self.base = base
        self.count = count
        self.position = position
    }

    /// Fills the buffer to at least 56 bits.
    @inline(__always)
    mutating func refill() throws(SerializationError) {
        if position &+ 8 <= count {
            let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: position, as: UInt64.self))
            buffer |= word << UInt64(bitCount)
            position &+= (63 &- bitCount) >> 3
            bitCount |= 56
        } else {
            try slowRefill()
        }
    }

    @inline(never)
    mutating func slowRefill() throws(SerializationError) {
        guard bitCount >= overrun * 8 else { throw Inflate.truncated(at: count, "its final block") }
        while bitCount <= 56 {
            if position < count {
                buffer |= UInt64(base.load(fromByteOffset: position, as: UInt8.self)) << UInt64(bitCount)
                position += 1
            } else {
                overrun += 1
            }
            bitCount += 8
        }
    }

    @inline(__always)
    mutating func drop(_ bits: Int) {
        buffer >>= UInt64(bits)
        bitCount &-= bits
    }

    @inline(__always)
    mutating func take(_ bits: Int) -> UInt64 {
        let value = buffer & ((1 << UInt64(bits)) - 1)
        drop(bits)
        return value
    }

    /// The offset of the first whole byte not yet consumed; throws when padding past the end was consumed.
    func alignedPosition() throws(SerializationError) -> Int {
        guard bitCount >= overrun * 8 else { throw Inflate.truncated(at: count, "its final block") }
        return position - ((bitCount >> 3) - overrun)
    }

    mutating func reset(to newPosition: Int) {
        position = newPosition
        buffer = 0
        bitCount = 0
        overrun = 0
    }
}
