import DecantBytes
import DecantCore

/// The key-check state of one open map (see ``CBORKeyChecker``).
struct CBORKeyTable {
    /// The index of the map's first key record (for the tape reader: of its first key hash).
    var keyBase = 0
    /// The index of the map's first key in ``CBORKeyChecker/otherKeys``.
    var otherBase = 0
    /// Where the map's hash table starts in the checker's slots, and its size (0 while the map has few keys).
    var slotBase = 0
    var slotCapacity = 0
    /// The probes made in the map's hash table so far.
    var probes = 0
    /// Whether the map's keys are hashed with the seeded `Hasher` (after too many collisions of the fast hash).
    var seededHash = false
}

/// A key of an open map, for the duplicate check (RFC 8949 §5.6).
struct CBORKeyRecord {
    /// The key's hash: of its UTF-8 bytes for a text string, else its `hashValue`.
    var hash: UInt64
    /// The byte offset of a definite-length text key's content in the body, else -1.
    var textStart: Int
    /// The length of a definite-length text key's content.
    var textCount: Int
    /// The index in ``CBORKeyChecker/otherKeys`` of a key that is not a definite-length text, else -1.
    var other: Int
    /// Where the key's owner keeps the key: its index in the tree reader's value stack, or in the tape.
    var position: Int
    /// The byte offset of the key's head.
    var offset: Int
}

/// The duplicate-key check (RFC 8949 §5.6), shared by the tree reader (``CBORReader``) and the tape reader
/// (``CBORTapeReader``): two keys are the same when they are equal ``CBORValue``s.
///
/// Definite-length text keys, nearly all keys in practice, are compared by their UTF-8 bytes in the body and hashed
/// with a fast hash of those bytes; other keys are kept as values and hashed with `hashValue` (a text key made of
/// chunks is hashed and compared by its bytes too, so that it equals the same text sent in one piece). A map
/// compares each key with the earlier ones while it has few keys, then keeps an open-addressing hash table at the
/// top of the used part of ``slots`` (the map that receives a key is always the innermost open one, so its table can
/// grow in place). If the fast hash collides too often (crafted keys), the map rehashes its keys with the seeded
/// `Hasher`, so that the check stays linear.
struct CBORKeyChecker {
    /// Keys compared one by one before a map builds its hash table.
    static let linearKeys = 16

    let bytes: UnsafeRawPointer
    /// The keys of every open map.
    var keys: [CBORKeyRecord] = []
    /// The keys of every open map that are not definite-length text strings, as values.
    var otherKeys: [CBORValue] = []
    /// The hash tables of the open maps with many keys: key record index + 1, or 0 for an empty slot.
    var slots: [Int] = []
    /// The end of the part of `slots` that open maps use.
    var slotTop = 0

    init(bytes: UnsafeRawPointer) {
        self.bytes = bytes
    }

    /// The state of a map opened now.
    var newTable: CBORKeyTable { CBORKeyTable(keyBase: keys.count, otherBase: otherKeys.count) }

    /// Remembers a key of the innermost open map, whose table is `table`: a definite-length text key by its content
    /// (`textStart`, `textCount`; `textHash` its fast hash when the caller has it), any other by its value `other`.
    @inline(__always)
    mutating func record(
        textStart: Int, textCount: Int, textHash: UInt64?, other: CBORValue?, position: Int, offset: Int,
        in table: CBORKeyTable
    ) {
        let hash: UInt64
        var otherIndex = -1
        if let textHash {
            hash = textHash
        } else if textStart >= 0 {
            hash = Self.hashBytes(bytes + textStart, count: textCount, seeded: table.seededHash)
        } else {
            // Hashing another key is linear in its size, as making its value was.
            let value = other ?? .null
            hash = Self.hash(of: value, seeded: table.seededHash)
            otherIndex = otherKeys.count
            otherKeys.append(value)
        }
        keys.append(
            CBORKeyRecord(
                hash: hash, textStart: textStart, textCount: textCount, other: otherIndex, position: position,
                offset: offset))
    }

    /// Forgets the last key (a repeated one whose value replaced the first occurrence's).
    mutating func dropLastKey() {
        if keys.removeLast().other >= 0 { otherKeys.removeLast() }
    }

    /// Forgets the keys of the map of `table`, which closes.
    mutating func close(_ table: CBORKeyTable) {
        keys.removeLast(keys.count - table.keyBase)
        otherKeys.removeLast(otherKeys.count - table.otherBase)
        if table.slotCapacity > 0 { slotTop = table.slotBase }
    }

    /// The index of an earlier key of the map of `table` equal to its last key, if any. When there is none, the last
    /// key joins the map's hash table (if it has one).
    @inline(__always)
    mutating func duplicateOfLastKey(in table: inout CBORKeyTable) -> Int? {
        let last = keys.count - 1
        let earlier = last - table.keyBase
        if earlier == 0 { return nil }
        if table.slotCapacity == 0 {
            if earlier <= Self.linearKeys {
                let hash = keys[last].hash
                let base = table.keyBase
                let found = keys.withUnsafeBufferPointer { records in
                    var index = base
                    while index < last && records[index].hash != hash { index &+= 1 }
                    return index
                }
                if found == last { return nil }
                for index in found..<last where keys[index].hash == hash && sameKey(index, last) { return index }
                return nil
            }
            buildTable(for: &table, keyCount: earlier)
        }
        return lookUpOrInsert(last, in: &table)
    }

    /// Finds the key `record` in `table`, or inserts it there.
    mutating func lookUpOrInsert(_ record: Int, in table: inout CBORKeyTable) -> Int? {
        let mask = table.slotCapacity - 1
        let hash = keys[record].hash
        var slot = Int(truncatingIfNeeded: hash) & mask
        var probes = 0
        while true {
            let occupant = slots[table.slotBase + slot]
            if occupant == 0 { break }
            let index = occupant - 1
            if keys[index].hash == hash && sameKey(index, record) { return index }
            probes += 1
            slot = (slot + 1) & mask
        }
        slots[table.slotBase + slot] = record + 1
        table.probes += probes
        let keyCount = record - table.keyBase + 1
        if !table.seededHash && table.probes > 4 * keyCount + 64 {
            // The fast hash collides too much: rehash every key of the map with the seeded hasher.
            table.seededHash = true
            for index in table.keyBase...record {
                let key = keys[index]
                keys[index].hash =
                    key.textStart >= 0
                    ? Self.hashBytes(bytes + key.textStart, count: key.textCount, seeded: true)
                    : Self.hash(of: otherKeys[key.other], seeded: true)
            }
            buildTable(for: &table, keyCount: keyCount)
        } else if 2 * keyCount > table.slotCapacity {
            buildTable(for: &table, keyCount: keyCount)
        }
        return nil
    }

    /// (Re)builds `table`'s hash table, at the top of the used part of `slots`, with its first `keyCount` keys (all
    /// different).
    mutating func buildTable(for table: inout CBORKeyTable, keyCount: Int) {
        var capacity = 32
        while capacity < 4 * keyCount { capacity *= 2 }
        // A map's table is the top region of `slots` (the region above `slotTop` is free): it grows in place.
        let base = table.slotCapacity > 0 ? table.slotBase : slotTop
        let end = base + capacity
        if slots.count < end { slots.append(contentsOf: repeatElement(0, count: end - slots.count)) }
        slots.withUnsafeMutableBufferPointer { buffer in
            guard let start = buffer.baseAddress else { return }
            (start + base).update(repeating: 0, count: capacity)
        }
        slotTop = end
        table.slotBase = base
        table.slotCapacity = capacity
        table.probes = 0
        let mask = capacity - 1
        for record in table.keyBase..<table.keyBase + keyCount {
            var slot = Int(truncatingIfNeeded: keys[record].hash) & mask
            while slots[table.slotBase + slot] != 0 {
                table.probes += 1
                slot = (slot + 1) & mask
            }
            slots[table.slotBase + slot] = record + 1
        }
    }

    /// Whether the keys of the records `first` and `second` are equal ``CBORValue``s.
    func sameKey(_ first: Int, _ second: Int) -> Bool {
        let one = keys[first]
        let other = keys[second]
        switch (one.textStart >= 0, other.textStart >= 0) {
        case (true, true):
            return one.textCount == other.textCount
                && ByteRun.equal(bytes + one.textStart, bytes + other.textStart, count: one.textCount)
        case (true, false):
            return isText(otherKeys[other.other], equalTo: one)
        case (false, true):
            return isText(otherKeys[one.other], equalTo: other)
        case (false, false):
            return otherKeys[one.other] == otherKeys[other.other]
        }
    }

    /// Whether `value` is the text string of the definite-length text key `record`.
    func isText(_ value: CBORValue, equalTo record: CBORKeyRecord) -> Bool {
        guard case .text(var text) = value, text.utf8.count == record.textCount else { return false }
        return text.withUTF8 { utf8 in
            guard let base = utf8.baseAddress else { return record.textCount == 0 }
            return ByteRun.equal(UnsafeRawPointer(base), bytes + record.textStart, count: record.textCount)
        }
    }

    /// The nodes of a key that is not a text string that its fast hash visits (see ``hash(of:seeded:)``).
    static let hashedKeyNodes = 64

    /// The hash of a key that is not a definite-length text string: of its UTF-8 bytes for a text string (as
    /// ``hashBytes(_:count:seeded:)`` hashes a definite-length one); for any other key, of the first
    /// ``hashedKeyNodes`` nodes of its walk (equal values walk alike) unless `seeded`, else its `hashValue`.
    ///
    /// The fast hash is bounded so that keys nested in keys stay linear: a map whose key is an array holding the
    /// next map, thousands of levels deep, used to hash each level's whole key, quadratic in the depth. Keys that
    /// share their first nodes collide, and a map with many of them switches to the seeded hash, which walks each key
    /// whole once.
    static func hash(of value: CBORValue, seeded: Bool) -> UInt64 {
        guard case .text(var text) = value else {
            if seeded { return UInt64(truncatingIfNeeded: value.hashValue) }
            var hasher = Hasher()
            var pending = [value]
            var visited = 0
            while visited < hashedKeyNodes, let node = pending.popLast() {
                node.hashNode(into: &hasher)
                node.appendChildren(to: &pending)
                visited += 1
            }
            return UInt64(truncatingIfNeeded: hasher.finalize())
        }
        return text.withUTF8 { utf8 in
            guard let base = utf8.baseAddress else { return hashBytes(nil, count: 0, seeded: seeded) }
            return hashBytes(UnsafeRawPointer(base), count: utf8.count, seeded: seeded)
        }
    }

    /// A hash of `count` bytes at `start`: a fast multiply-and-fold hash, or the seeded `Hasher` (SipHash) when
    /// `seeded`.
    @inline(__always)
    static func hashBytes(_ start: UnsafeRawPointer?, count: Int, seeded: Bool) -> UInt64 {
        // The empty text hashes the same whichever way it came.
        guard let start, count > 0 else { return ByteRun.hashShort(0, 0, count: 0) }
        if seeded {
            var hasher = Hasher()
            hasher.combine(bytes: UnsafeRawBufferPointer(start: start, count: count))
            return UInt64(truncatingIfNeeded: hasher.finalize())
        }
        return ByteRun.hash(start, count: count)
    }
}
