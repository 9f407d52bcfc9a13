extension Inflate {
    nonisolated(unsafe) static let fixedLiteralLengthTable: HuffmanTable = {
        let table = HuffmanTable(rootBits: literalRootBits, capacity: literalTableCapacity)
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

    /// Index bits of the literal/length root table: 11 leaves room for two literal codes of five or six bits, common
    /// in image data, to decode as a pair.
    static let literalRootBits = 11
    /// The root table plus a subtable of at most 2^(15 - 11) entries for each symbol.
    static let literalTableCapacity = (1 << literalRootBits) + 288 * (1 << (15 - literalRootBits))

    static let codeLengthOrder: [Int] = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

    /// Decodes DEFLATE blocks from `input[start...]` until the final block; returns the offset of the first byte
    /// after it (the last partial byte is skipped, RFC 1951 §3.2.3). `package` for DecantCore's content decoding
    /// stage, which decodes raw DEFLATE bodies with one call.
    ///
    /// - Parameter trailerFollows: Whether the format puts at least eight bytes after the DEFLATE data (gzip's CRC-32
    ///   and length). The reader then never needs padding past the end of a whole stream, so a stream that reads
    ///   padding and fails was cut short: the error is `truncatedBody`, not the `invalidBody` that zero bits read in
    ///   place of the missing ones make of it (a code table that looks over-subscribed, a distance too far back).
    package static func inflate(
        _ input: UnsafeRawBufferPointer, from start: Int, into output: inout OutputBuffer, trailerFollows: Bool = false
    ) throws(InflateError) -> Int {
        var end = (overran: false, consumed: start)
        do {
            return try inflateBlocks(input, from: start, into: &output, end: &end)
        } catch {
            if trailerFollows && error.code == .invalidBody && end.overran {
                throw truncated(at: input.count, "the end of its DEFLATE data")
            }
            // The offset of the bits the decoder had taken, not of the bytes it had read ahead: the same for every
            // length of input past the error, so a stream decoded in pieces fails where a whole one does.
            var error = error
            if error.code == .invalidBody { error.offset = end.consumed }
            throw error
        }
    }

    /// ``inflate(_:from:into:trailerFollows:)``'s loop. `end` is set when it returns or throws: whether the reader read
    /// padding past the end of the input, and the offset of the byte holding the first bit not taken.
    static func inflateBlocks(
        _ input: UnsafeRawBufferPointer, from start: Int, into output: inout OutputBuffer,
        end: inout (overran: Bool, consumed: Int)
    ) throws(InflateError) -> Int {
        guard let inputBase = input.baseAddress else { throw truncated(at: 0, "its first block") }
        var reader = BitReader(base: inputBase, count: input.count, position: start)
        defer { end = (reader.overrun > 0, reader.consumedOffset) }
        let literalTable = HuffmanTable(rootBits: literalRootBits, capacity: literalTableCapacity)
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
                // Fixed literal codes are 8 and 9 bits long: no two fit one root entry.
                try huffmanBlock(
                    &reader, literals: fixedLiteralLengthTable, distances: fixedDistanceTable, pairs: false, &output)
            case 2:
                let pairs = try readDynamicTables(&reader, literals: literalTable, distances: distanceTable)
                try huffmanBlock(&reader, literals: literalTable, distances: distanceTable, pairs: pairs, &output)
            default:
                throw invalid(at: reader.position, "a block has the reserved type 3 (RFC 1951 §3.2.3)")
            }
        }
        return try reader.alignedPosition()
    }

    static func storedBlock(_ reader: inout BitReader, into output: inout OutputBuffer) throws(InflateError) {
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

    /// Reads a dynamic block's code lengths and builds its tables; returns whether the literal table holds pairs.
    static func readDynamicTables(
        _ reader: inout BitReader, literals: HuffmanTable, distances: HuffmanTable
    ) throws(InflateError) -> Bool {
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
            reader.drop(HuffmanEntry.length(entry))
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
        return try lengths.withUnsafeBufferPointer { (buffer) throws(InflateError) in
            let pairs = try literals.build(
                lengths: buffer.baseAddress!, count: literalCount, info: HuffmanEntry.literalLengthInfo, pairs: true)
            try distances.build(
                lengths: buffer.baseAddress! + literalCount, count: distanceCount, info: HuffmanEntry.distanceInfo)
            return pairs
        }
    }

    /// Resolves one Huffman code: a root-table lookup, plus a subtable lookup for long codes; consumes its bits.
    @inline(__always)
    static func decodeSymbol(_ table: UnsafeMutablePointer<UInt32>, mask: UInt64, _ reader: inout BitReader) -> UInt32 {
        var entry = table[Int(truncatingIfNeeded: reader.buffer & mask)]
        if entry & HuffmanEntry.kindMask == HuffmanEntry.subtable {
            reader.drop(HuffmanEntry.length(entry))
            let subMask = (UInt64(1) << HuffmanEntry.extra(entry)) &- 1
            entry = table[Int(entry >> 16) &+ Int(truncatingIfNeeded: reader.buffer & subMask)]
        }
        reader.drop(HuffmanEntry.length(entry))
        return entry
    }

    /// Decodes one Huffman-coded block: the fast loop does most of it; this loop decodes one literal (or pair) or
    /// one match at a time where the fast loop cannot run, near the end of the input or of the output buffer (growing
    /// it when it is full), then hands back.
    ///
    /// A refill leaves at least 56 bits in the buffer: enough for a literal code, or for a whole length/distance pair
    /// (15 + 5 + 15 + 13 = 48 bits at most), so a symbol never needs a refill in its middle.
    ///
    /// `pairs` says whether the literal table holds pairs; the fast loop is specialised for each case.
    static func huffmanBlock(
        _ reader: inout BitReader, literals: HuffmanTable, distances: HuffmanTable, pairs: Bool,
        _ output: inout OutputBuffer
    ) throws(InflateError) {
        let literalMask = UInt64(1 << literals.rootBits) - 1
        let distanceMask = UInt64(1 << distances.rootBits) - 1
        while true {
            let ended =
                pairs
                ? try fastHuffmanLoop(&reader, literals: literals, distances: distances, LiteralPairs.self, &output)
                : try fastHuffmanLoop(&reader, literals: literals, distances: distances, SingleLiterals.self, &output)
            if ended { return }
            try reader.refill()
            let entry = decodeSymbol(literals.storage, mask: literalMask, &reader)
            if entry & HuffmanEntry.kindMask == HuffmanEntry.literal {
                let count = HuffmanEntry.literalCount(entry)
                try output.reserve(count)
                output.base[output.count] = UInt8(truncatingIfNeeded: entry >> 16)
                if count == 2 { output.base[output.count + 1] = UInt8(truncatingIfNeeded: entry >> 24) }
                output.count &+= count
                continue
            }
            let kind = entry & HuffmanEntry.kindMask
            if kind != HuffmanEntry.lengthOrDistance {
                if kind == HuffmanEntry.endOfBlock { return }
                throw invalid(at: reader.position, "a literal/length code is invalid (RFC 1951 §3.2.5)")
            }
            let length = Int(entry >> 16) &+ Int(reader.take(Int(HuffmanEntry.extra(entry))))
            let distanceEntry = decodeSymbol(distances.storage, mask: distanceMask, &reader)
            guard distanceEntry & HuffmanEntry.kindMask == HuffmanEntry.lengthOrDistance else {
                throw invalid(at: reader.position, "a distance code is invalid (RFC 1951 §3.2.5)")
            }
            let distance = Int(distanceEntry >> 16) &+ Int(reader.take(Int(HuffmanEntry.extra(distanceEntry))))
            guard distance <= output.count else {
                throw invalid(
                    at: reader.position,
                    "a match refers to \(distance) bytes back, before the start of the data (RFC 1951 §3.2.5)")
            }
            try output.reserve(length)
            copyMatch(
                to: output.base + output.count, distance: distance, length: length,
                wordsFit: output.count &+ length &+ 8 <= output.capacity + OutputBuffer.slack)
            output.count &+= length
        }
    }

    /// The fast loop of ``huffmanBlock(_:literals:distances:_:)``: decodes while at least 16 input bytes and
    /// ``fastOutputMargin`` bytes of output room remain, so that no refill or write inside needs a bounds check.
    ///
    /// The bit reader's state lives in local variables (registers) for the whole loop, not in `reader`, which is
    /// updated on the way out. Returns `true` when the block's end-of-block symbol was decoded, `false` when the loop
    /// stopped near the end of the input or of the output buffer.
    /// Not inlined: each specialisation keeps its registers to itself (inlined into ``huffmanBlock``, both ran ~5%
    /// slower).
    @inline(never)
    static func fastHuffmanLoop<Writer: LiteralWriter>(
        _ reader: inout BitReader, literals: HuffmanTable, distances: HuffmanTable, _: Writer.Type,
        _ output: inout OutputBuffer
    ) throws(InflateError) -> Bool {
        // Up to three refills per round (at the top, before a match, after it), each reading 8 bytes at most 7 on.
        let inputEnd = reader.count &- 24
        guard reader.position <= inputEnd, reader.overrun == 0 else { return false }
        let outputEnd = (output.growable ? output.capacity : output.limit) &- fastOutputMargin
        guard output.count <= outputEnd else { return false }
        let input = reader.base
        let literalTable = literals.storage
        let distanceTable = distances.storage
        let literalMask = UInt64(1) &<< UInt64(literals.rootBits) &- 1
        let distanceMask = UInt64(1) &<< UInt64(distances.rootBits) &- 1
        let out = output.base
        var count = output.count
        var bits = reader.buffer
        var bitCount = reader.bitCount
        var position = reader.position
        defer {
            reader.buffer = bits
            reader.bitCount = bitCount
            reader.position = position
            output.count = count
        }
        // Refills to at least 56 bits (the bytes past the buffer's whole bytes are read again next time).
        @inline(__always) func refill() {
            bits |=
                UInt64(littleEndian: input.loadUnaligned(fromByteOffset: position, as: UInt64.self))
                &<< UInt64(
                    bitCount)
            position &+= (63 &- bitCount) &>> 3
            bitCount |= 56
        }
        // Drops an entry's code bits (its low six bits are the code length).
        @inline(__always) func consume(_ entry: UInt32) {
            bits &>>= UInt64(entry)
            bitCount &-= HuffmanEntry.length(entry)
        }
        // Drops `extra` bits and returns them.
        @inline(__always) func take(_ extra: UInt64) -> Int {
            let value = Int(truncatingIfNeeded: bits & ((1 &<< extra) &- 1))
            bits &>>= extra
            bitCount &-= Int(extra)
            return value
        }
        // Consumes a root entry that points to a subtable and returns the subtable's entry.
        @inline(__always) func subtableEntry(_ pointer: UInt32, in table: UnsafeMutablePointer<UInt32>) -> UInt32 {
            consume(pointer)
            let mask = (UInt64(1) &<< HuffmanEntry.extra(pointer)) &- 1
            return table[Int(pointer &>> 16) &+ Int(truncatingIfNeeded: bits & mask)]
        }
        // Consumes a literal entry, writes its literal (or pair) and looks up the next entry.
        @inline(__always) func literal(_ entry: UInt32) -> UInt32 {
            consume(entry)
            count &+= Writer.write(entry, at: out + count)
            return literalTable[Int(truncatingIfNeeded: bits & literalMask)]
        }
        // The next symbol's root entry is looked up as soon as the previous symbol's bits are dropped, before the
        // refill (which only adds bits above those the buffer holds, and at least the root's 11 are there): the
        // lookup does not wait for the refill.
        refill()
        var entry = literalTable[Int(truncatingIfNeeded: bits & literalMask)]
        while position <= inputEnd && count <= outputEnd {
            refill()
            if entry & HuffmanEntry.kindMask == HuffmanEntry.literal {
                // Up to three literals per refill (15 bits each at most); at least 56 - 3 * 15 = 11 bits remain for
                // the lookup after the third.
                entry = literal(entry)
                if entry & HuffmanEntry.kindMask == HuffmanEntry.literal {
                    entry = literal(entry)
                    if entry & HuffmanEntry.kindMask == HuffmanEntry.literal {
                        entry = literal(entry)
                        continue
                    }
                }
                // A length code, its extra bits, a distance code and its extra bits: 15 + 5 + 15 + 13 bits.
                if bitCount < 48 { refill() }
            }
            if entry & HuffmanEntry.kindMask == HuffmanEntry.subtable {
                entry = subtableEntry(entry, in: literalTable)
                if entry & HuffmanEntry.kindMask == HuffmanEntry.literal {
                    // At least 48 - 2 * 15 bits remain for the next lookup.
                    entry = literal(entry)
                    continue
                }
            }
            consume(entry)
            let kind = entry & HuffmanEntry.kindMask
            if kind != HuffmanEntry.lengthOrDistance {
                if kind == HuffmanEntry.endOfBlock { return true }
                throw invalid(at: position, "a literal/length code is invalid (RFC 1951 §3.2.5)")
            }
            let length = Int(entry &>> 16) &+ take(HuffmanEntry.extra(entry))
            var distanceEntry = distanceTable[Int(truncatingIfNeeded: bits & distanceMask)]
            if distanceEntry & HuffmanEntry.kindMask == HuffmanEntry.subtable {
                distanceEntry = subtableEntry(distanceEntry, in: distanceTable)
            }
            consume(distanceEntry)
            guard distanceEntry & HuffmanEntry.kindMask == HuffmanEntry.lengthOrDistance else {
                throw invalid(at: position, "a distance code is invalid (RFC 1951 §3.2.5)")
            }
            let distance = Int(distanceEntry &>> 16) &+ take(HuffmanEntry.extra(distanceEntry))
            guard distance <= count else {
                throw invalid(
                    at: position,
                    "a match refers to \(distance) bytes back, before the start of the data (RFC 1951 §3.2.5)")
            }
            copyMatch(to: out + count, distance: distance, length: length, wordsFit: true)
            count &+= length
            // A match may leave as few as 56 - 48 bits.
            refill()
            entry = literalTable[Int(truncatingIfNeeded: bits & literalMask)]
        }
        return false
    }

    /// Output room the fast loop keeps: three literal pairs or a 258-byte match after two, plus the word copy's
    /// overrun (which the buffer's slack holds).
    static let fastOutputMargin = 6 + 258

    /// Copies an LZ77 match (RFC 1951 §3.2.5) of `length` bytes from `distance` bytes back, which may overlap it.
    ///
    /// With `wordsFit` (the buffer has eight bytes of room past the match), eight bytes are copied at a time, up to
    /// seven of them past the match's end (overwritten later). A distance under 8 (a repeated pixel of an image, say)
    /// still stores eight bytes at a time but advances by the distance.
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
            // Eight bytes at a time, advancing by the distance: each load reads the bytes the previous store wrote,
            // of which the first `distance` are final (the rest are written again by the next store).
            var offset = 0
            repeat {
                let word = UnsafeRawPointer(destination + offset - distance).loadUnaligned(as: UInt64.self)
                UnsafeMutableRawPointer(destination + offset).storeBytes(of: word, as: UInt64.self)
                offset &+= distance
            } while offset < length
            return
        }
        let source = destination - distance
        for offset in 0..<length { destination[offset] = source[offset] }
    }
}

/// How the fast loop writes a literal entry: a generic parameter, so that the loop is compiled once for tables with
/// literal pairs and once for tables without, neither testing per literal which it has.
protocol LiteralWriter {
    /// Writes the literal or literals of `entry` at `destination` and returns how many bytes they are.
    static func write(_ entry: UInt32, at destination: UnsafeMutablePointer<UInt8>) -> Int
}

/// Tables without pairs: one byte per literal entry.
enum SingleLiterals: LiteralWriter {
    @inline(__always)
    static func write(_ entry: UInt32, at destination: UnsafeMutablePointer<UInt8>) -> Int {
        destination.pointee = UInt8(truncatingIfNeeded: entry &>> 16)
        return 1
    }
}

/// Tables with pairs: one or two bytes, written as one two-byte store (a single literal's second byte is zero and is
/// overwritten by what follows).
enum LiteralPairs: LiteralWriter {
    @inline(__always)
    static func write(_ entry: UInt32, at destination: UnsafeMutablePointer<UInt8>) -> Int {
        UnsafeMutableRawPointer(destination).storeBytes(
            of: UInt16(truncatingIfNeeded: entry &>> 16).littleEndian, as: UInt16.self)
        return HuffmanEntry.literalCount(entry)
    }
}
