/// A canonical Huffman table of a JPEG DHT segment (ITU-T T.81 §B.2.4.2, Annex C), with a 9-bit lookup table for
/// short codes and the per-length maximum codes of §F.2.2.3 for long ones.
///
/// A class, immutable once built: decoding a block borrows its table instead of copying four arrays (and retaining
/// each), which costs more than the lookups themselves. `@unchecked Sendable`: ``fastLookup`` and ``fastValue`` are
/// written only by the initializer and freed by `deinit`, so sharing a table shares read-only memory.
final class JPEGHuffmanTable: @unchecked Sendable {
    /// The number of bits the fast lookup table resolves at once.
    static let lookupBits = 9

    /// For each 9-bit prefix, `length << 8 | symbol` of the code it starts with, or 0 when the code is longer; in
    /// memory the table owns, read without bounds checks (every index is a 9-bit prefix).
    let fastLookup: UnsafeMutablePointer<UInt16>
    /// For each 9-bit prefix that holds a whole code and the `symbol & 15` value bits after it:
    /// `value << 16 | symbol << 8 | bits used`, the value already extended (T.81 §F.2.2.1); 0 otherwise. Most
    /// coefficients of real images decode with one lookup.
    let fastValue: UnsafeMutablePointer<Int32>
    /// The largest code of each length 1...16 (index 0 unused), or -1 when there is no code of that length.
    let maxCode: [Int32]
    /// The difference between a code's index in ``symbols`` and its value, per length (T.81 VALPTR - MINCODE).
    let valueOffset: [Int32]
    /// The symbols in code order (HUFFVAL).
    let symbols: [UInt8]

    /// Builds the table from the 16 code-length counts (BITS) and the symbols (HUFFVAL), or returns `nil` when the
    /// counts describe more codes than fit in their lengths (an overflowing, invalid table) or more than 256 symbols.
    init?(counts: [Int], symbols: [UInt8]) {
        guard counts.count == 16, counts.reduce(0, +) == symbols.count, symbols.count <= 256 else { return nil }
        var maxCode = [Int32](repeating: -1, count: 18)
        var valueOffset = [Int32](repeating: 0, count: 18)
        var lookup = [UInt16](repeating: 0, count: 1 << Self.lookupBits)
        var code = 0
        var index = 0
        for length in 1...16 {
            let count = counts[length - 1]
            if count > 0 {
                valueOffset[length] = Int32(index - code)
                // Generating the codes of Annex C: each must fit in `length` bits.
                guard code + count <= 1 << length else { return nil }
                for _ in 0..<count {
                    if length <= Self.lookupBits {
                        let shift = Self.lookupBits - length
                        let first = code << shift
                        let entry = UInt16(length << 8) | UInt16(symbols[index])
                        for slot in first..<(first + (1 << shift)) { lookup[slot] = entry }
                    }
                    code += 1
                    index += 1
                }
                maxCode[length] = Int32(code - 1)
            }
            code <<= 1
        }
        // A sentinel so that the slow decoding loop always ends.
        maxCode[17] = Int32.max
        self.symbols = symbols
        self.maxCode = maxCode
        self.valueOffset = valueOffset
        fastLookup = .allocate(capacity: 1 << Self.lookupBits)
        fastLookup.initialize(from: lookup, count: 1 << Self.lookupBits)
        fastValue = .allocate(capacity: 1 << Self.lookupBits)
        for prefix in 0..<(1 << Self.lookupBits) {
            let entry = Int(lookup[prefix])
            let length = entry >> 8
            let symbol = entry & 0xFF
            let size = symbol & 15
            guard entry != 0, length + size <= Self.lookupBits else {
                (fastValue + prefix).initialize(to: 0)
                continue
            }
            let raw = size == 0 ? 0 : (prefix >> (Self.lookupBits - length - size)) & ((1 << size) - 1)
            let value = size == 0 || raw >= 1 << (size - 1) ? raw : raw - (1 << size) + 1
            (fastValue + prefix).initialize(to: Int32(value) << 16 | Int32(symbol << 8 | (length + size)))
        }
    }

    deinit {
        fastLookup.deallocate()
        fastValue.deallocate()
    }
}

extension JPEGHuffmanTable {
    /// A table as the decoding loops hold it: its lookup tables' addresses and an unretained reference for the rare
    /// long code. Copying one costs no reference counting; whoever makes one keeps the table alive while it is used
    /// (the decoder's table arrays, which no segment can change in the middle of a scan).
    struct Reference {
        /// The table's ``JPEGHuffmanTable/fastValue``.
        let fastValue: UnsafePointer<Int32>
        /// The table's ``JPEGHuffmanTable/fastLookup``.
        let fastLookup: UnsafePointer<UInt16>
        /// The table, for codes longer than the lookup resolves.
        unowned(unsafe) let table: JPEGHuffmanTable
    }

    /// The table as the decoding loops hold it.
    var reference: Reference {
        Reference(fastValue: UnsafePointer(fastValue), fastLookup: UnsafePointer(fastLookup), table: self)
    }

    /// A table without codes: every lookup fails, so decoding with it throws.
    static let empty = JPEGHuffmanTable()

    /// Creates a table without codes: all 16 code-length counts zero, which the counts initializer accepts.
    convenience init() {
        self.init(counts: [Int](repeating: 0, count: 16), symbols: [])!
    }
}
