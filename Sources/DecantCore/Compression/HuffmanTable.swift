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
    /// With `pairs`, a root entry whose bits hold two whole literal codes decodes both (``HuffmanEntry/pairFlag``).
    func build(
        lengths: UnsafePointer<UInt8>, count: Int, info: UnsafePointer<UInt32>, pairs: Bool = false
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
        // A complete code without long codes writes every root entry itself. An incomplete one leaves entries that must
        // read as invalid, and long codes find their subtables by reading the root entry of their prefix.
        if left != 0 || maxLength > rootBits { storage.update(repeating: HuffmanEntry.invalid, count: rootSize) }
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
                        HuffmanEntry.subtable | UInt32(rootBits) | UInt32(subBits) << HuffmanEntry.extraShift
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
        // Two literal codes (symbols 0-255) fit a root entry only if the two shortest do.
        if pairs {
            var shortest = 16
            for symbol in 0..<min(count, 256) where lengths[symbol] != 0 {
                shortest = min(shortest, Int(lengths[symbol]))
            }
            if 2 * shortest <= rootBits { pairLiterals() }
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
