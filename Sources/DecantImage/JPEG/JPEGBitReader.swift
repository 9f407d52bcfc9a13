import DecantBytes
import DecantCore

/// Reads the entropy-coded data of a JPEG scan (ITU-T T.81 §F.2.2.5, §B.1.1.5): bits most significant first, a stuffed
/// `FF 00` read as `FF`, and zero bits once a marker or the end of the body is reached, so that decoding stays in
/// bounds. Reading past the end of the body is remembered, and ``checkNotPastEnd()`` turns it into an error.
struct JPEGBitReader {
    /// The whole body, which the caller keeps alive while the reader is used.
    let bytes: UnsafeBufferPointer<UInt8>
    /// The offset of the next byte to load.
    private(set) var position: Int
    /// Buffered bits, right-aligned: the next bit to read is bit `count - 1`.
    private var bits: UInt64 = 0
    /// How many bits of ``bits`` are buffered.
    private var count = 0
    /// How many of the buffered bits (the last ones) are zero padding rather than data.
    private var paddingBits = 0
    /// Whether loading stopped at a marker (`FF` followed by neither `00` nor `FF`-fill).
    private(set) var reachedMarker = false
    /// Whether loading ran off the end of the body.
    private(set) var reachedEnd = false

    /// Creates a reader of the entropy-coded data starting at `position`.
    init(bytes: UnsafeBufferPointer<UInt8>, position: Int) {
        self.bytes = bytes
        self.position = position
    }

    /// Loads bytes until at least 56 bits are buffered, padding with zeros at a marker or the end of the body.
    ///
    /// Inlined into the decoding loops, which copy the reader into a local variable so that its state stays in
    /// registers: the common case is inline, and the rest goes through a function that takes and returns the reader
    /// by value (so that the local's address is never taken).
    @inline(__always)
    private mutating func fill() {
        // Most of the time: eight bytes at hand and none of them FF (so no stuffing and no marker): take all the
        // whole bytes that fit at once.
        if !reachedMarker, bytes.count &- position >= 8, let base = bytes.baseAddress {
            let word = UInt64(bigEndian: UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self))
            if ByteRun.bytes(word, equalTo: 0xFF) == 0 {
                let taken = (63 &- count) &>> 3  // 1...7 bytes, as count <= 56
                let newBits = taken &* 8
                bits = bits &<< UInt64(newBits) | word &>> UInt64(64 &- newBits)
                count &+= newBits
                position &+= taken
                return
            }
        }
        self = Self.filledByteByByte(self)
    }

    /// `reader` after ``fillByteByByte()``.
    @inline(never)
    private static func filledByteByByte(_ reader: JPEGBitReader) -> JPEGBitReader {
        var reader = reader
        reader.fillByteByByte()
        return reader
    }

    /// Loads bytes one at a time until more than 56 bits are buffered: stuffed bytes, markers and the end of the
    /// body.
    private mutating func fillByteByByte() {
        while count <= 56 {
            var byte: UInt8 = 0
            if reachedMarker || reachedEnd {
                paddingBits += 8
            } else if position >= bytes.count {
                reachedEnd = true
                paddingBits += 8
            } else {
                byte = bytes[position]
                if byte == 0xFF {
                    let next = position + 1 < bytes.count ? bytes[position + 1] : 0xD9
                    if next == 0 {
                        position += 2
                    } else {
                        // A marker (possibly after fill bytes): stop here, leaving `position` on its first FF.
                        reachedMarker = true
                        byte = 0
                        paddingBits += 8
                    }
                } else {
                    position += 1
                }
            }
            bits = bits << 8 | UInt64(byte)
            count += 8
        }
    }

    /// Whether the bits read so far go past the end of the body (not merely into a marker's padding).
    var consumedPastEnd: Bool { reachedEnd && count < paddingBits }

    /// Throws `truncatedBody` when the bits read so far go past the end of the body.
    func checkNotPastEnd() throws(SerializationError) {
        guard consumedPastEnd else { return }
        throw SerializationError(
            code: .truncatedBody,
            message: "The JPEG image ends in the middle of its entropy-coded data; the body was probably cut off in "
                + "transit.",
            offset: bytes.count)
    }

    /// Whether the bits read so far go past the scan's data, into the zero bits that stand for what follows it (a
    /// marker, or the end of the body).
    var consumedPadding: Bool { count < paddingBits }

    /// Throws when the bits read so far go past the scan's data: `truncatedBody` past the end of the body or at a
    /// marker other than a restart marker (the scan's data ran out before its last block), `invalidBody` at a
    /// restart marker (a restart interval's data ran out before its last block, which a decoder can skip).
    func checkWithinData() throws(SerializationError) {
        try checkNotPastEnd()
        guard consumedPadding else { return }
        // `position` is on the marker's first FF; fill bytes may come before its code.
        var next = position
        while next + 1 < bytes.count && bytes[next + 1] == 0xFF { next += 1 }
        if next + 1 < bytes.count && (0xD0...0xD7).contains(bytes[next + 1]) {
            throw SerializationError(
                code: .invalidBody,
                message: "The JPEG image's entropy-coded data is corrupt: a restart interval's data ends before all "
                    + "of its blocks are decoded. The file is damaged; re-encode or re-download it, or set "
                    + "allowsPartialImages to skip the damaged interval.",
                offset: position)
        }
        throw SerializationError(
            code: .truncatedBody,
            message: "The JPEG image's entropy-coded data ends before all of the scan's blocks are decoded (a marker "
                + "follows too soon): the file was cut short or damaged, and only the first part of the image is "
                + "there. Set allowsPartialImages to get the part that is there.",
            offset: position)
    }

    /// Reads one bit.
    @inline(__always)
    mutating func bit() -> Int {
        if count < 1 { fill() }
        count -= 1
        return Int((bits >> UInt64(count)) & 1)
    }

    /// Reads `length` (0...16) bits as an unsigned number.
    @inline(__always)
    mutating func receive(_ length: Int) -> Int {
        guard length > 0 else { return 0 }
        if count < length { fill() }
        count -= length
        return Int((bits >> UInt64(count)) & ((1 << UInt64(length)) - 1))
    }

    /// Decodes one Huffman-coded symbol with `table` (T.81 §F.2.2.3, DECODE).
    ///
    /// - Throws: `invalidBody` when the next 16 bits start no code of the table (corrupt data).
    @inline(__always)
    mutating func decode(_ table: JPEGHuffmanTable.Reference) throws(SerializationError) -> Int {
        if count < 16 { fill() }
        let peek = Int((bits >> UInt64(count - JPEGHuffmanTable.lookupBits)) & 0x1FF)
        let entry = table.fastLookup[peek]
        if entry != 0 {
            count -= Int(entry >> 8)
            return Int(entry & 0xFF)
        }
        return try decodeLong(table.table)
    }

    /// Decodes a code longer than the lookup table resolves (at least 16 bits are buffered).
    ///
    /// - Throws: `invalidBody` when the next 16 bits start no code of the table (corrupt data).
    @inline(__always)
    private mutating func decodeLong(_ table: JPEGHuffmanTable) throws(SerializationError) -> Int {
        let (symbol, length) = try Self.longCode(bits: bits, count: count, table: table, position: position)
        count &-= length
        return symbol
    }

    /// The symbol and length of the code longer than 9 bits at the top of the `count` bits of `bits` (at least 16),
    /// by the per-length maximum codes of T.81 §F.2.2.3.
    ///
    /// - Throws: `invalidBody` when the next 16 bits start no code of the table (corrupt data).
    @inline(never)
    private static func longCode(
        bits: UInt64, count: Int, table: JPEGHuffmanTable, position: Int
    ) throws(SerializationError) -> (symbol: Int, length: Int) {
        // At most 16 bits are looked at: the buffer holds at least that many here.
        var length = JPEGHuffmanTable.lookupBits + 1
        var code = Int32((bits >> UInt64(count - length)) & ((1 << UInt64(length)) - 1))
        while code > table.maxCode[length] {
            guard length < 16 else { length = 17; break }
            length += 1
            code = Int32((bits >> UInt64(count - length)) & ((1 << UInt64(length)) - 1))
        }
        guard length <= 16 else {
            throw SerializationError(
                code: .invalidBody,
                message: "The JPEG image's entropy-coded data is corrupt: a bit sequence matches no Huffman code of "
                    + "the scan's table (T.81 §F.2.2.3). The file is damaged; re-encode or re-download it.",
                offset: position)
        }
        let index = Int(code + table.valueOffset[length])
        guard index >= 0 && index < table.symbols.count else {
            throw SerializationError(
                code: .invalidBody, message: "The JPEG image's Huffman table is inconsistent.", offset: position)
        }
        return (Int(table.symbols[index]), length)
    }

    /// Decodes one Huffman-coded symbol with `table` and the `symbol & 15` extra bits that follow it, extended to a
    /// signed value (T.81 §F.2.2.1-§F.2.2.3: DECODE then RECEIVE and EXTEND), with one buffer refill for both: what a
    /// DC difference or a sequential AC coefficient is made of.
    ///
    /// - Returns: the symbol (for AC: the zero run in the high four bits, the size in the low four) and the value (0
    ///   when the size is 0).
    /// - Throws: `invalidBody` when the next 16 bits start no code of the table (corrupt data).
    @inline(__always)
    mutating func decodeValue(
        _ table: JPEGHuffmanTable.Reference
    ) throws(SerializationError) -> (symbol: Int, value: Int) {
        // After a refill at least 56 bits are buffered: 16 for the code and 15 for the value fit.
        if count < 32 { fill() }
        let peek = Int(truncatingIfNeeded: (bits &>> UInt64(count &- JPEGHuffmanTable.lookupBits)) & 0x1FF)
        let fast = table.fastValue[peek]
        if fast != 0 {
            // Code and value bits within the 9 looked at: one lookup.
            count &-= Int(fast & 0xFF)
            return (Int((fast &>> 8) & 0xFF), Int(fast &>> 16))
        }
        let entry = table.fastLookup[peek]
        let symbol: Int
        if entry != 0 {
            count &-= Int(entry &>> 8)
            symbol = Int(entry & 0xFF)
        } else {
            symbol = try decodeLong(table.table)
        }
        let size = symbol & 15
        guard size > 0 else { return (symbol, 0) }
        count &-= size
        let raw = Int(truncatingIfNeeded: (bits &>> UInt64(count)) & ((1 &<< UInt64(size)) &- 1))
        return (symbol, raw < 1 &<< (size &- 1) ? raw &- (1 &<< size) &+ 1 : raw)
    }

    /// Discards the buffered bits and, at a restart marker, skips it (T.81 §F.2.2.5, §B.2.1).
    ///
    /// - Returns: whether a restart marker was found and skipped.
    mutating func restart() -> Bool {
        bits = 0
        count = 0
        paddingBits = 0
        reachedMarker = false
        // Skip anything before the next marker (fill bytes, or data a damaged encoder left), as decoders resynchronise.
        while position + 1 < bytes.count
            && !(bytes[position] == 0xFF && bytes[position + 1] != 0 && bytes[position + 1] != 0xFF)
        {
            position += 1
        }
        guard position + 1 < bytes.count, (0xD0...0xD7).contains(bytes[position + 1]) else { return false }
        position += 2
        return true
    }
}
