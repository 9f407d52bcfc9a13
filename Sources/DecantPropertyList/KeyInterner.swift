/// Interns dictionary keys by their UTF-8 bytes, so that a key repeated through a document is built once.
///
/// The table is open-addressed with a fixed hash, so keys crafted to collide could make every lookup walk a long
/// run of slots; a lookup gives up after ``maxProbes`` slots and builds the key without interning it, which keeps
/// every key linear in its length whatever the input.
struct KeyInterner {
    /// The most slots a lookup visits (the table is at most half full: honest lookups visit one or two).
    static let maxProbes = 32

    private var slots: [Int32] = Array(repeating: -1, count: 64)
    private var starts: [Int] = []
    private var hashes: [UInt64] = []
    private var strings: [String] = []
    private var arena: [UInt8] = []

    /// The string of `bytes` (valid UTF-8), built the first time these bytes are seen.
    mutating func intern(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        guard bytes.count <= 256 else { return String(decoding: bytes, as: UTF8.self) }
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0100_0000_01B3 }
        hash ^= UInt64(bytes.count)
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash ^ hash >> 29) & mask
        var probes = 0
        while true {
            let entry = Int(slots[slot])
            if entry < 0 { break }
            if hashes[entry] == hash, matches(entry, bytes) { return strings[entry] }
            probes += 1
            guard probes < KeyInterner.maxProbes else { return String(decoding: bytes, as: UTF8.self) }
            slot = (slot + 1) & mask
        }
        let string = String(decoding: bytes, as: UTF8.self)
        slots[slot] = Int32(strings.count)
        starts.append(arena.count)
        arena.append(contentsOf: bytes)
        hashes.append(hash)
        strings.append(string)
        if strings.count * 2 > slots.count { grow() }
        return string
    }

    private func matches(_ entry: Int, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let start = starts[entry]
        let end = entry + 1 < starts.count ? starts[entry + 1] : arena.count
        guard end - start == bytes.count else { return false }
        for index in 0..<bytes.count where arena[start + index] != bytes[index] { return false }
        return true
    }

    private mutating func grow() {
        slots = Array(repeating: -1, count: slots.count * 2)
        let mask = slots.count - 1
        for entry in hashes.indices {
            let hash = hashes[entry]
            var slot = Int(truncatingIfNeeded: hash ^ hash >> 29) & mask
            while slots[slot] >= 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(entry)
        }
    }
}
