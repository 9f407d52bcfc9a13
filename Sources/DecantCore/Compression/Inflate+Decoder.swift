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
