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
