/// Table entries: bits 0-3 the bits to consume (4-7 are zero), 8-10 the kind, 11-15 extra bits (or a subtable's index
/// bits), 16-31 the value (a literal, a length or distance base, or a subtable's offset).
///
/// With bits 4-7 zero, the low six bits of an entry are exactly its code length: the decoder shifts its bit buffer by
/// the entry itself (a 64-bit shift uses only the count's low six bits), one instruction less on the chain that
/// links one lookup to the next.
enum HuffmanEntry {
    static let literal: UInt32 = 0 << 8
    static let lengthOrDistance: UInt32 = 1 << 8
    static let endOfBlock: UInt32 = 2 << 8
    static let subtable: UInt32 = 3 << 8
    static let invalid: UInt32 = 4 << 8
    static let kindMask: UInt32 = 7 << 8
    /// Where the extra-bit count (or a subtable's index bits) starts.
    static let extraShift: UInt32 = 11

    /// In a literal entry, set when the entry holds two literals (bits 16-23, then 24-31) whose codes together take the
    /// entry's length: one lookup, one shift and one two-byte store for both.
    static let pairFlag: UInt32 = 1 << 11

    /// How many literals a literal entry holds (1 or 2).
    @inline(__always)
    static func literalCount(_ entry: UInt32) -> Int { 1 &+ Int(entry &>> 11 & 1) }

    /// The number of bits the entry's code takes.
    @inline(__always)
    static func length(_ entry: UInt32) -> Int { Int(entry & 0xF) }

    /// The number of extra bits after a length or distance code, or a subtable's index bits.
    @inline(__always)
    static func extra(_ entry: UInt32) -> UInt64 { UInt64(entry &>> extraShift & 0x1F) }

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
        return lengthOrDistance | UInt32(lengthExtra[index]) << extraShift | UInt32(lengthBases[index]) << 16
    }

    /// What each distance symbol (0-31) decodes to, without its code length.
    static let distanceInfo: [UInt32] = (0..<32).map { symbol in
        if symbol >= 30 { return invalid }
        return lengthOrDistance | UInt32(distanceExtra[symbol]) << extraShift | UInt32(distanceBases[symbol]) << 16
    }
}
