import DecantCore

/// The duplicate-key check (RFC 8949 §5.6): two keys are the same when they are equal ``CBORValue``s.
///
/// Definite-length text keys, nearly all keys in practice, are compared by their UTF-8 bytes in the body and hashed
/// with a fast hash of those bytes; other keys are compared as values and hashed with `hashValue` (a text key made
/// of chunks is hashed and compared by its bytes too, so that it equals the same text sent in one piece). A map
/// compares each key with the earlier ones while it has few keys, then keeps an open-addressing hash table at the
/// top of the used part of the reader's `slots` (the map that receives a key is always the innermost open one, so
/// its table can grow in place). If the fast hash collides too often (crafted keys), the map rehashes its keys with
/// the seeded `Hasher`, so that the check stays linear.
extension CBORReader {
    /// Keys compared one by one before a map builds its hash table.
    static let linearKeys = 8

    /// Remembers the key `value` (not yet pushed) of `frame`; `textHash` is its fast hash when the caller has it.
    @inline(__always)
    mutating func recordKey(
        _ value: CBORValue, offset: Int, textStart: Int, textCount: Int, textHash: UInt64?, in frame: CBORFrame
    ) {
        var hash: UInt64 = 0
        if let textHash {
            hash = textHash
        } else if textStart >= 0 {
            hash = Self.hashBytes(bytes + textStart, count: textCount, seeded: frame.seededHash)
        }
        // Other keys are hashed when a second key comes (hashing a large key in a map of one key is wasted work).
        keys.append(
            CBORKeyRecord(
                hash: hash, hashed: textStart >= 0, textStart: textStart, textCount: textCount,
                valueIndex: values.count, offset: offset))
    }

    /// Hashes the key of record `index` if it is not hashed yet.
    @inline(__always)
    mutating func ensureHash(_ index: Int, seeded: Bool) {
        guard !keys[index].hashed else { return }
        keys[index].hash = Self.hash(of: values[keys[index].valueIndex], seeded: seeded)
        keys[index].hashed = true
    }

    /// The index of an earlier key of `frame` equal to its last key, if any. When there is none, the last key joins
    /// the map's hash table (if it has one).
    @inline(__always)
    mutating func duplicateOfLastKey(in frame: inout CBORFrame) -> Int? {
        let last = keys.count - 1
        let earlier = last - frame.keyBase
        if earlier == 0 { return nil }
        ensureHash(last, seeded: frame.seededHash)
        if frame.slotCapacity == 0 {
            if earlier <= Self.linearKeys {
                let hash = keys[last].hash
                for index in frame.keyBase..<last {
                    ensureHash(index, seeded: frame.seededHash)
                    if keys[index].hash == hash && sameKey(index, last) { return index }
                }
                return nil
            }
            for index in frame.keyBase..<last { ensureHash(index, seeded: frame.seededHash) }
            buildTable(for: &frame, keyCount: earlier)
        }
        return lookUpOrInsert(last, in: &frame)
    }

    /// Finds the key `record` in `frame`'s table, or inserts it there.
    mutating func lookUpOrInsert(_ record: Int, in frame: inout CBORFrame) -> Int? {
        let mask = frame.slotCapacity - 1
        let hash = keys[record].hash
        var slot = Int(truncatingIfNeeded: hash) & mask
        var probes = 0
        while true {
            let occupant = slots[frame.slotBase + slot]
            if occupant == 0 { break }
            let index = occupant - 1
            if keys[index].hash == hash && sameKey(index, record) { return index }
            probes += 1
            slot = (slot + 1) & mask
        }
        slots[frame.slotBase + slot] = record + 1
        frame.probes += probes
        let keyCount = record - frame.keyBase + 1
        if !frame.seededHash && frame.probes > 4 * keyCount + 64 {
            // The fast hash collides too much: rehash every key of the map with the seeded hasher.
            frame.seededHash = true
            for index in frame.keyBase...record {
                let key = keys[index]
                keys[index].hash =
                    key.textStart >= 0
                    ? Self.hashBytes(bytes + key.textStart, count: key.textCount, seeded: true)
                    : Self.hash(of: values[key.valueIndex], seeded: true)
            }
            buildTable(for: &frame, keyCount: keyCount)
        } else if 2 * keyCount > frame.slotCapacity {
            buildTable(for: &frame, keyCount: keyCount)
        }
        return nil
    }

    /// (Re)builds `frame`'s hash table, at the top of the used part of `slots`, with its first `keyCount` keys (all
    /// different).
    mutating func buildTable(for frame: inout CBORFrame, keyCount: Int) {
        var capacity = 32
        while capacity < 4 * keyCount { capacity *= 2 }
        // A map's table is the top region of `slots` (the region above `slotTop` is free): it grows in place.
        let base = frame.slotCapacity > 0 ? frame.slotBase : slotTop
        let end = base + capacity
        if slots.count < end { slots.append(contentsOf: repeatElement(0, count: end - slots.count)) }
        slots.withUnsafeMutableBufferPointer { buffer in
            guard let start = buffer.baseAddress else { return }
            (start + base).update(repeating: 0, count: capacity)
        }
        slotTop = end
        frame.slotBase = base
        frame.slotCapacity = capacity
        frame.probes = 0
        let mask = capacity - 1
        for record in frame.keyBase..<frame.keyBase + keyCount {
            var slot = Int(truncatingIfNeeded: keys[record].hash) & mask
            while slots[frame.slotBase + slot] != 0 {
                frame.probes += 1
                slot = (slot + 1) & mask
            }
            slots[frame.slotBase + slot] = record + 1
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
            return isText(values[other.valueIndex], equalTo: one)
        case (false, true):
            return isText(values[one.valueIndex], equalTo: other)
        case (false, false):
            return values[one.valueIndex] == values[other.valueIndex]
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

    /// The hash of a key that is not a definite-length text string: of its UTF-8 bytes for a text string (as
    /// ``hashBytes(_:count:seeded:)`` hashes a definite-length one), else its `hashValue`.
    static func hash(of value: CBORValue, seeded: Bool) -> UInt64 {
        guard case .text(var text) = value else {
            return UInt64(truncatingIfNeeded: value.hashValue)
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
