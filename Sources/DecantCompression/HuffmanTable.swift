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

    /// Fills the table for the code lengths `lengths[0..<count]` (at most 288), each symbol mapping to `info[symbol]`.
    ///
    /// Over-subscribed codes are rejected; incomplete ones are allowed, and their unused entries decode as invalid.
    /// With `pairs`, a root entry whose bits hold two whole literal codes decodes both (``HuffmanEntry/pairFlag``);
    /// returns whether any entry does.
    ///
    /// Codes are assigned in canonical order (by length, then symbol; RFC 1951 §3.2.2). The root table grows with the
    /// code length: codes of length `n` are written once each into the first `2^n` entries, and before the next
    /// length those entries are copied after themselves, which repeats every shorter code at all the indices whose
    /// low bits are its (bit-reversed) code. So each short code costs one write, and the rest is block copies.
    @discardableResult
    func build(
        lengths: UnsafePointer<UInt8>, count: Int, info: UnsafePointer<UInt32>, pairs: Bool = false
    ) throws(InflateError) -> Bool {
        try withUnsafeTemporaryAllocation(of: Int.self, capacity: 16 + 16 + count) {
            (scratch) throws(InflateError) -> Bool in
            let lengthCounts = scratch.baseAddress!
            let firstOfLength = lengthCounts + 16
            let sorted = firstOfLength + 16
            lengthCounts.update(repeating: 0, count: 16)
            var maxLength = 0
            var shortestLiteral = 16
            for symbol in 0..<count {
                let length = Int(lengths[symbol])
                lengthCounts[length] &+= 1
                maxLength = max(maxLength, length)
                if symbol < 256 && length != 0 { shortestLiteral = min(shortestLiteral, length) }
            }
            var left = 1
            for length in 1..<16 {
                left = (left << 1) - lengthCounts[length]
                guard left >= 0 else {
                    throw Inflate.invalid(at: 0, "a Huffman code is over-subscribed (RFC 1951 §3.2.2)")
                }
            }
            // The symbols in canonical order, by a counting sort on their lengths.
            var offset = 0
            for length in 1..<16 {
                firstOfLength[length] = offset
                offset &+= lengthCounts[length]
            }
            for symbol in 0..<count where lengths[symbol] != 0 {
                let length = Int(lengths[symbol])
                sorted[firstOfLength[length]] = symbol
                firstOfLength[length] &+= 1
            }
            let rootSize = 1 << rootBits
            storage[0] = HuffmanEntry.invalid
            storage[1] = HuffmanEntry.invalid
            var size = 2
            var code = 0
            var next = 0
            for length in 1...rootBits {
                if length > 1 {
                    (storage + size).update(from: storage, count: size)
                    size &<<= 1
                }
                for _ in 0..<lengthCounts[length] {
                    let symbol = sorted[next]
                    storage[HuffmanTable.reverse(code, length: length)] = info[symbol] | UInt32(length)
                    next &+= 1
                    code &+= 1
                }
                code &<<= 1
            }
            // Long codes: a subtable per root prefix, of the bits that remain after the longest code's root bits.
            // Their prefixes are no short code's (the code is prefix-free), so those root entries still read invalid
            // until a subtable claims them.
            let subBits = max(0, maxLength - rootBits)
            let rootMask = rootSize - 1
            var subtableOffset = rootSize
            if maxLength > rootBits {
                for length in (rootBits + 1)...maxLength {
                    for _ in 0..<lengthCounts[length] {
                        let symbol = sorted[next]
                        let reversed = HuffmanTable.reverse(code, length: length)
                        next &+= 1
                        code &+= 1
                        let prefix = reversed & rootMask
                        var pointer = storage[prefix]
                        if pointer & HuffmanEntry.kindMask != HuffmanEntry.subtable {
                            pointer =
                                HuffmanEntry.subtable | UInt32(rootBits) | UInt32(subBits) << HuffmanEntry.extraShift
                                | UInt32(subtableOffset) << 16
                            storage[prefix] = pointer
                            (storage + subtableOffset).update(repeating: HuffmanEntry.invalid, count: 1 << subBits)
                            subtableOffset += 1 << subBits
                        }
                        let entry = info[symbol] | UInt32(length - rootBits)
                        var index = reversed >> rootBits
                        while index < 1 << subBits {
                            storage[Int(pointer >> 16) + index] = entry
                            index += 1 << (length - rootBits)
                        }
                    }
                    code &<<= 1
                }
            }
            // Two literal codes (symbols 0-255) fit a root entry only if the two shortest do.
            if pairs && 2 * shortestLiteral <= rootBits {
                pairLiterals()
                return true
            }
            return false
        }
    }

    /// Turns each root entry holding a literal whose code leaves room for a second literal's whole code into a pair.
    ///
    /// The bits after the first code are `index >> length`, itself a root index (with zeros above the bits the entry
    /// holds, so the second code is whole only if its length fits in what remains). That index is not above `index`,
    /// so walking down from the top reads only entries not yet paired.
    func pairLiterals() {
        var index = (1 << rootBits) - 1
        while index >= 0 {
            let first = storage[index]
            let length = HuffmanEntry.length(first)
            if first & HuffmanEntry.kindMask == HuffmanEntry.literal && length < rootBits {
                let second = storage[index >> length]
                let total = length + HuffmanEntry.length(second)
                if second & HuffmanEntry.kindMask == HuffmanEntry.literal && total <= rootBits {
                    storage[index] =
                        HuffmanEntry.literal | HuffmanEntry.pairFlag | UInt32(total) | (first >> 16 & 0xFF) << 16
                        | (second >> 16 & 0xFF) << 24
                }
            }
            index -= 1
        }
    }
}
