#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Objects with more members than this get a lookup table (``KeyTable``) when lookups keep missing their hints.
let keyTableThreshold = 16

extension TapeDecoder {
    /// The tape index of the value of the member matching `key` in the object at `object`, under the key decoding
    /// strategy (`.custom` is resolved by the container's own table, see ``ConvertedKeys``).
    ///
    /// Lookups start where the previous one at the same depth ended, so members decoded in document order (the
    /// order of synthesized `init(from:)`s, usually) are found at the first comparison.
    @inline(__always)
    func member(_ key: String, inObject object: Int, depth: Int) -> Int? {
        if keyMode == .convertFromSnakeCase {
            var key = key
            return key.withUTF8 { member(snakeCased: $0, inObject: object, depth: depth) }
        }
        if let found = key.utf8.withContiguousStorageIfAvailable({
            member(named: $0, inObject: object, depth: depth)
        }) {
            return found
        }
        var key = key
        return key.withUTF8 { member(named: $0, inObject: object, depth: depth) }
    }

    @inline(__always)
    private func keyEquals(_ position: Int, _ key: UnsafeBufferPointer<UInt8>) -> Bool {
        let entry = tape[position]
        let count = key.count
        guard Tape.length(entry) == count, let base = key.baseAddress else { return Tape.length(entry) == count }
        return TapeDecoder.sameBytes(bytes + Tape.offset(entry), base, count)
    }

    /// Whether `count` bytes at `a` and `b` are equal, comparing words (overlapping at the end) rather than bytes.
    @inline(__always)
    static func sameBytes(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ count: Int) -> Bool {
        @inline(__always) func word(_ pointer: UnsafePointer<UInt8>) -> UInt64 {
            UnsafeRawPointer(pointer).loadUnaligned(as: UInt64.self)
        }
        @inline(__always) func half(_ pointer: UnsafePointer<UInt8>) -> UInt32 {
            UnsafeRawPointer(pointer).loadUnaligned(as: UInt32.self)
        }
        if count >= 8 {
            var index = 0
            while index &+ 8 < count {
                if word(a + index) != word(b + index) { return false }
                index &+= 8
            }
            return word(a + (count &- 8)) == word(b + (count &- 8))
        }
        if count >= 4 {
            return half(a) == half(b) && half(a + (count &- 4)) == half(b + (count &- 4))
        }
        // 0 to 3 bytes: the first, middle and last cover them all.
        return count == 0
            || (a[0] == b[0] && a[count &>> 1] == b[count &>> 1] && a[count &- 1] == b[count &- 1])
    }

    /// The tape index of the member after the member whose key is at `position`.
    @inline(__always)
    func nextMember(_ position: Int) -> Int { end(of: position &+ 1) }

    /// The slot of the object at `object` for a container at `depth`, reset when it held another object.
    @inline(__always)
    private func slot(_ object: Int, depth: Int) -> UnsafeMutablePointer<KeySlot> {
        let slot = slots + (depth & (TapeDecoder.slotCount - 1))
        if slot.pointee.object != object {
            slot.pointee = KeySlot(object: object, hint: object + 1)
        }
        return slot
    }

    /// Member lookup by exact key bytes (keys are unique: the parser resolved duplicates).
    func member(named key: UnsafeBufferPointer<UInt8>, inObject object: Int, depth: Int) -> Int? {
        lookup(key, inObject: object, slot: slot(object, depth: depth)) { keyEquals($0, key) }
    }

    /// Member lookup with snake-case keys converted: the first member whose converted key is `key`.
    func member(snakeCased key: UnsafeBufferPointer<UInt8>, inObject object: Int, depth: Int) -> Int? {
        let slot = self.slot(object, depth: depth)
        if slot.pointee.uniqueness == 0 {
            slot.pointee.uniqueness = convertedKeysAreUnique(object) ? 1 : 2
        }
        if slot.pointee.uniqueness == 1 {
            return lookup(key, inObject: object, slot: slot) { SnakeCase.matches(span($0), key) }
        }
        // Two keys convert alike and the first wins: search from the start.
        if Tape.count(tape[object]) > keyTableThreshold { return table(for: object).find(key).map { $0 &+ 1 } }
        var position = object &+ 1
        let end = self.end(of: object)
        while position < end {
            if SnakeCase.matches(span(position), key) { return position &+ 1 }
            position = nextMember(position)
        }
        return nil
    }

    /// The tape index of the value of the member whose key `matches`, when keys match at most one member.
    ///
    /// The hinted member first, then the next few (keys the type skips), then the whole object; a large object that
    /// keeps missing its hints (keys read out of order, or absent) gets a ``KeyTable``.
    @inline(__always)
    private func lookup(
        _ key: UnsafeBufferPointer<UInt8>, inObject object: Int, slot: UnsafeMutablePointer<KeySlot>,
        matches: (Int) -> Bool
    ) -> Int? {
        let header = tape[object]
        let end = object &+ Tape.size(header)
        let start = slot.pointee.hint
        if start < end && matches(start) {
            slot.pointee.hint = nextMember(start)
            return start &+ 1
        }
        var position = start < end ? nextMember(start) : end
        var budget = 4
        while position < end && budget > 0 {
            if matches(position) {
                slot.pointee.hint = nextMember(position)
                return position &+ 1
            }
            position = nextMember(position)
            budget &-= 1
        }
        if Tape.count(header) > keyTableThreshold {
            slot.pointee.misses &+= 1
            if slot.pointee.misses > 2 {
                guard let found = table(for: object).find(key) else { return nil }
                slot.pointee.hint = nextMember(found)
                return found &+ 1
            }
        }
        while position < end {
            if matches(position) {
                slot.pointee.hint = nextMember(position)
                return position &+ 1
            }
            position = nextMember(position)
        }
        position = object &+ 1
        while position < start {
            if matches(position) {
                slot.pointee.hint = nextMember(position)
                return position &+ 1
            }
            position = nextMember(position)
        }
        return nil
    }

    /// Whether the converted keys of the (small) object at `object` are all different.
    private func convertedKeysAreUnique(_ object: Int) -> Bool {
        var hashes: [UInt64] = []
        var position = object + 1
        let end = self.end(of: object)
        while position < end {
            hashes.append(SnakeCase.withConverted(span(position)) { KeyTable.hash($0) })
            position = nextMember(position)
        }
        hashes.sort()
        for index in hashes.indices.dropFirst() where hashes[index] == hashes[index - 1] { return false }
        return true
    }

    /// The lookup table of the object at `object` (converted keys under `.convertFromSnakeCase`), built once.
    func table(for object: Int) -> KeyTable {
        if let table = tables[object] { return table }
        let table = KeyTable(decoder: self, object: object, snakeCase: options.keyMode == .convertFromSnakeCase)
        tables[object] = table
        return table
    }

    /// The keys of the object at `object`, converted under the strategy, without repeats, in document order.
    func keys(ofObject object: Int) -> [String] {
        var keys: [String] = []
        keys.reserveCapacity(storage.count(of: object))
        var position = object + 1
        let end = self.end(of: object)
        switch options.keyMode {
        case .useDefaultKeys, .custom:
            while position < end {
                keys.append(string(at: position))
                position = nextMember(position)
            }
        case .convertFromSnakeCase:
            var seen: Set<String> = []
            while position < end {
                let key = SnakeCase.convert(span(position))
                if seen.insert(key).inserted { keys.append(key) }
                position = nextMember(position)
            }
        }
        return keys
    }
}

/// An open-addressing table from key bytes to member positions, for large objects.
final class KeyTable {
    /// Member key positions (tape indices), or -1.
    private let slots: [Int32]
    private let hashes: [UInt64]
    /// The keys' bytes (converted for snake case), and each slot's range in them.
    private let keyBytes: [UInt8]
    private let ranges: [(start: Int32, count: Int32)]
    private let mask: Int

    init(decoder: TapeDecoder, object: Int, snakeCase: Bool) {
        let count = decoder.storage.count(of: object)
        var capacity = 16
        while capacity < count * 2 { capacity *= 2 }
        let mask = capacity - 1
        var slots = [Int32](repeating: -1, count: capacity)
        var hashes = [UInt64](repeating: 0, count: capacity)
        var ranges = [(start: Int32, count: Int32)](repeating: (0, 0), count: capacity)
        var keyBytes: [UInt8] = []
        var position = object + 1
        let end = decoder.end(of: object)
        while position < end {
            if snakeCase {
                SnakeCase.withConverted(decoder.span(position)) {
                    KeyTable.insert($0, position, &slots, &hashes, &ranges, &keyBytes, mask)
                }
            } else {
                KeyTable.insert(decoder.span(position), position, &slots, &hashes, &ranges, &keyBytes, mask)
            }
            position = decoder.nextMember(position)
        }
        self.slots = slots
        self.hashes = hashes
        self.ranges = ranges
        self.keyBytes = keyBytes
        self.mask = mask
    }

    /// Adds a key unless it is already there (the first wins).
    private static func insert(
        _ key: UnsafeBufferPointer<UInt8>, _ position: Int, _ slots: inout [Int32], _ hashes: inout [UInt64],
        _ ranges: inout [(start: Int32, count: Int32)], _ keyBytes: inout [UInt8], _ mask: Int
    ) {
        let hash = KeyTable.hash(key)
        var slot = Int(truncatingIfNeeded: hash) & mask
        while slots[slot] >= 0 {
            if hashes[slot] == hash && KeyTable.equals(keyBytes, ranges[slot], key) { return }
            slot = (slot + 1) & mask
        }
        slots[slot] = Int32(truncatingIfNeeded: position)
        hashes[slot] = hash
        ranges[slot] = (Int32(truncatingIfNeeded: keyBytes.count), Int32(truncatingIfNeeded: key.count))
        keyBytes.append(contentsOf: key)
    }

    private static func equals(
        _ keyBytes: [UInt8], _ range: (start: Int32, count: Int32), _ key: UnsafeBufferPointer<UInt8>
    ) -> Bool {
        guard Int(range.count) == key.count else { return false }
        return keyBytes.withUnsafeBufferPointer { bytes in
            JSONBytes.equal(
                UnsafeBufferPointer(rebasing: bytes[Int(range.start)..<Int(range.start + range.count)]), key)
        }
    }

    /// The position of the member whose key is `key`.
    func find(_ key: UnsafeBufferPointer<UInt8>) -> Int? {
        let hash = KeyTable.hash(key)
        var slot = Int(truncatingIfNeeded: hash) & mask
        while slots[slot] >= 0 {
            if hashes[slot] == hash && KeyTable.equals(keyBytes, ranges[slot], key) { return Int(slots[slot]) }
            slot = (slot + 1) & mask
        }
        return nil
    }

    /// A 64-bit hash of bytes (FNV-1a over 8-byte words, then mixed).
    static func hash(_ key: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325 ^ UInt64(key.count)
        var index = 0
        let raw = UnsafeRawBufferPointer(key)
        while index + 8 <= key.count {
            hash = (hash ^ raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)) &* 0x0000_0100_0000_01B3
            index += 8
        }
        while index < key.count {
            hash = (hash ^ UInt64(key[index])) &* 0x0000_0100_0000_01B3
            index += 1
        }
        hash ^= hash >> 29
        hash = hash &* 0xBF58_476D_1CE4_E5B9
        return hash ^ (hash >> 32)
    }
}

/// The keys of an object converted by a `.custom` key decoding strategy: built when the container is made, as
/// `JSONDecoder` does (the converter is called once per key, with the coding path).
final class ConvertedKeys {
    /// The converted keys in document order, without repeats (the first wins).
    let keys: [String]
    private let positions: [String: Int]

    init(decoder: TapeDecoder, object: Int, codingPath: [any CodingKey], converter: ([any CodingKey]) -> any CodingKey)
    {
        var keys: [String] = []
        var positions: [String: Int] = [:]
        var path = codingPath
        path.append(JSONStringKey(""))
        var position = object + 1
        let end = decoder.end(of: object)
        while position < end {
            path[path.count - 1] = JSONStringKey(decoder.string(at: position))
            let converted = converter(path).stringValue
            if positions[converted] == nil {
                positions[converted] = position + 1
                keys.append(converted)
            }
            position = decoder.nextMember(position)
        }
        self.keys = keys
        self.positions = positions
    }

    /// The tape index of the value whose converted key is `key`.
    func valueIndex(_ key: String) -> Int? { positions[key] }
}
