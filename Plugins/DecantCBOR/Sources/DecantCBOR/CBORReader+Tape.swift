import DecantBytes
import DecantCore

/// The tape reader: the same checks as ``CBORReader/readItem()`` (well-formedness, UTF-8, duplicate keys, every
/// limit), but instead of values it appends one ``CBORTapeEntry`` per data item, so that nothing but the entries is
/// allocated while parsing. ``CBORItem`` reads values from the tape and the body when asked.
///
/// Duplicate keys are looked for when a map closes, as the JSON parser does: each key leaves a hash, and only a map
/// with two equal hashes is checked key by key (with ``CBORKeyChecker``, in document order, as the tree reader checks).
/// The tree reader finds a repeated key as soon as its value ends, so when a map with a repeated key also holds a later
/// error, the two readers would stop at different places: ``CBORParser`` reports the errors of the tape reader by
/// parsing the body again with the tree reader (errors are the rare path), so both report the same error.
extension CBORReader {
    /// Appends the entry of an item whose head is at `offset`, and returns its index.
    @inline(__always)
    mutating func appendEntry(offset: Int) -> Int {
        let index = entries.count
        entries.append(
            CBORTapeEntry(offset: UInt32(truncatingIfNeeded: offset), end: UInt32(truncatingIfNeeded: index &+ 1)))
        return index
    }

    /// Reads one data item onto the tape, without recursion.
    mutating func readTapeItem() throws(SerializationError) {
        var top = CBORFrame.placeholder
        var depth = 0
        while true {
            let headOffset = position
            let initial = try nextInitialByte(top: top, depth: depth)
            let major = initial >> 5
            let info = initial & 0x1F
            // The completed item: its entry, head offset, and for a definite-length text its content.
            var item: Int
            var itemStart = headOffset
            var textStart = -1
            var textCount = 0
            var textHash: UInt64?
            if initial == 0xFF {
                try checkBreak(at: headOffset, top: top, depth: depth, afterKey: top.attached & 1 == 1)
                itemStart = top.start
                item = try closeOnTape(top)
                depth -= 1
                if depth > 0 { top = frames.removeLast() }
            } else {
                switch major {
                case 0, 1:
                    _ = try argument(info, headOffset: headOffset)
                    item = appendEntry(offset: headOffset)
                case 2, 3:
                    if info == 31 {
                        let entry = appendEntry(offset: headOffset)
                        try open(
                            CBORFrame(
                                kind: major == 2 ? .byteChunks : .textChunks, indefinite: true, start: headOffset,
                                remaining: 0, base: entry), top: &top, depth: &depth)
                        continue
                    }
                    let length = try argument(info, headOffset: headOffset)
                    guard length <= UInt64(count - position) else {
                        throw truncated(major == 2 ? "the byte string" : "the text string", at: headOffset)
                    }
                    let start = position
                    let size = Int(length)
                    if major == 3 {
                        let pointer = bytes + start
                        var ascii = false
                        if size <= 16 {
                            // Short texts (most keys): one ASCII test and the key's hash from the same two words.
                            let (first, second) = ByteRun.shortWords(pointer, count: size)
                            ascii = (first | second) & ByteRun.highBits == 0
                            if depth > 0 && top.kind == .map && top.attached & 1 == 0 {
                                textHash = ByteRun.hashShort(first, second, count: size)
                            }
                        }
                        guard ascii || ByteRun.isValidUTF8(pointer, count: size) else {
                            throw invalidText(at: headOffset)
                        }
                        textStart = start
                        textCount = size
                    }
                    item = appendEntry(offset: headOffset)
                    position += size
                case 4, 5:
                    let kind: CBORFrame.Kind = major == 4 ? .array : .map
                    if info == 31 {
                        let entry = appendEntry(offset: headOffset)
                        try open(
                            CBORFrame(
                                kind: kind, indefinite: true, start: headOffset, remaining: 0, base: entry,
                                keyTable: CBORKeyTable(keyBase: keyHashes.count)), top: &top, depth: &depth)
                        continue
                    }
                    let declared = try argument(info, headOffset: headOffset)
                    // Every item takes at least one byte: a count the rest of the body cannot hold is truncated,
                    // whatever the limits, and nothing is allocated for it.
                    let perItem: UInt64 = major == 4 ? 1 : 2
                    guard declared <= UInt64(count - position) / perItem else {
                        throw truncated(major == 4 ? "the array" : "the map", at: headOffset)
                    }
                    try countItems(declared * perItem, at: headOffset)
                    let entry = appendEntry(offset: headOffset)
                    if declared == 0 {
                        item = entry
                        break
                    }
                    try open(
                        CBORFrame(
                            kind: kind, indefinite: false, start: headOffset, remaining: declared * perItem,
                            base: entry, keyTable: CBORKeyTable(keyBase: keyHashes.count)), top: &top, depth: &depth)
                    continue
                case 6:
                    guard info != 31 else {
                        throw invalid(
                            "The tag at offset \(headOffset) has additional information 31, which is not "
                                + "well-formed for tags (RFC 8949 §3).", at: headOffset)
                    }
                    _ = try argument(info, headOffset: headOffset)
                    let entry = appendEntry(offset: headOffset)
                    try open(
                        CBORFrame(kind: .tag, indefinite: false, start: headOffset, remaining: 1, base: entry),
                        top: &top, depth: &depth)
                    continue
                default:
                    // One-byte simple values (false, true, null and undefined among them) need no check; the
                    // others get the tree reader's (two-byte simple values, floats, reserved values).
                    if info >= 24 { _ = try simpleOrFloat(info, headOffset: headOffset) }
                    item = appendEntry(offset: headOffset)
                }
            }
            // Attach the completed item to the open containers, closing those it completes.
            while true {
                guard depth > 0 else { return }
                if (top.kind == .array || top.kind == .map) && !top.indefinite {
                    // The common cases, without the call.
                    if top.kind == .map && top.attached & 1 == 0 {
                        keyHashes.append(
                            keyHash(item, textStart: textStart, textCount: textCount, textHash: textHash))
                    }
                    top.attached &+= 1
                    top.remaining &-= 1
                    if top.remaining > 0 { break }
                } else if try attachOnTape(
                    item, start: itemStart, textStart: textStart, textCount: textCount, textHash: textHash, to: &top)
                {
                    break
                }
                itemStart = top.start
                item = try closeOnTape(top)
                textStart = -1
                textHash = nil
                depth -= 1
                if depth > 0 { top = frames.removeLast() }
            }
        }
    }

    /// Counts the completed item at entry `item` in `frame`; returns whether the frame still expects items.
    @inline(__always)
    mutating func attachOnTape(
        _ item: Int, start: Int, textStart: Int, textCount: Int, textHash: UInt64?, to frame: inout CBORFrame
    ) throws(SerializationError) -> Bool {
        switch frame.kind {
        case .array:
            if frame.indefinite { try countItems(1, at: start) }
            frame.attached += 1
        case .map:
            if frame.indefinite { try countItems(1, at: start) }
            if frame.attached & 1 == 0 {
                keyHashes.append(keyHash(item, textStart: textStart, textCount: textCount, textHash: textHash))
            }
            frame.attached += 1
        case .byteChunks, .textChunks:
            frame.attached += 1
            return true
        case .tag:
            frame.attached += 1
        }
        if frame.indefinite { return true }
        frame.remaining -= 1
        return frame.remaining > 0
    }

    /// The hash a key (the completed item at entry `item`) leaves for the check when its map closes: of its bytes for
    /// a definite-length text (`textHash` when the caller has it), of its value otherwise.
    @inline(__always)
    func keyHash(_ item: Int, textStart: Int, textCount: Int, textHash: UInt64?) -> UInt64 {
        if let textHash { return textHash }
        if textStart >= 0 { return ByteRun.hash(bytes + textStart, count: textCount) }
        return CBORKeyChecker.hash(of: tapeValue(at: item), seeded: false)
    }

    /// Whether two of the hashes from `start` on are equal: pairwise for a few; for more, in a set at most a quarter
    /// full, or by sorting a copy when its probes run long (crafted collisions), so O(n log n) at worst.
    mutating func hasEqualHashes(from start: Int) -> Bool {
        let count = keyHashes.count - start
        guard count > 1 else { return false }
        if count <= 16 {
            return keyHashes.withUnsafeBufferPointer { all in
                for later in start + 1..<all.count {
                    var earlier = start
                    while earlier < later {
                        if all[earlier] == all[later] { return true }
                        earlier &+= 1
                    }
                }
                return false
            }
        }
        var capacity = 64
        while capacity < 4 * count { capacity *= 2 }
        if hashSlots.count < capacity { hashSlots = Array(repeating: 0, count: capacity) }
        let hashes = keyHashes
        let found: Bool? = hashSlots.withUnsafeMutableBufferPointer { all in
            // Only the part this map uses is cleared (a large map earlier must not make every later one slow).
            let slots = UnsafeMutableBufferPointer(rebasing: all[0..<capacity])
            slots.update(repeating: 0)
            let mask = capacity - 1
            var budget = 8 * count
            for index in start..<hashes.count {
                // 0 marks an empty slot, so the stored form has its low bit set (an equal pair stays equal).
                let stored = hashes[index] | 1
                var slot = Int(truncatingIfNeeded: (stored &* 0x9E37_79B9_7F4A_7C15) >> 40) & mask
                while slots[slot] != 0 {
                    if slots[slot] == stored { return true }
                    budget -= 1
                    if budget < 0 { return nil }
                    slot = (slot + 1) & mask
                }
                slots[slot] = stored
            }
            return false
        }
        if let found { return found }
        let sorted = hashes[start...].sorted()
        return (1..<count).contains { sorted[$0] == sorted[$0 - 1] }
    }

    /// The key-by-key check of a map whose keys' hashes are not all different, in document order, as the tree reader
    /// makes it: an error for a repeated key, or under `lastWins` its value goes to the first occurrence and the
    /// repeated key is dropped.
    @inline(never)
    mutating func checkKeys(of frame: CBORFrame) throws(SerializationError) {
        var checker = CBORKeyChecker(bytes: bytes)
        var table = checker.newTable
        var key = frame.base + 1
        let end = entries.count
        var kept = 0
        while key < end {
            let value = Int(entries[key].end)
            let reading = CBORTapeReading(
                body: UnsafeRawBufferPointer(start: bytes, count: count), entries: entries.buffer, counts: counts,
                replacements: replacements, dropped: dropped)
            let offset = Int(entries[key].offset)
            if reading.kind(key) == .text {
                checker.record(
                    textStart: offset + reading.headLength(key), textCount: Int(reading.argument(key)), textHash: nil,
                    other: nil, position: key, offset: offset, in: table)
            } else {
                checker.record(
                    textStart: -1, textCount: 0, textHash: nil, other: reading.value(at: key), position: key,
                    offset: offset, in: table)
            }
            if let existing = checker.duplicateOfLastKey(in: &table) {
                guard !rejectsDuplicateKeys else {
                    throw invalid(
                        "The map at offset \(frame.start) repeats the key at offset \(offset) (RFC 8949 §5.6); send "
                            + "unique keys, or set the option duplicateKeys to lastWins.", at: offset)
                }
                replacements[checker.keys[existing].position] = value
                dropped.insert(key)
                checker.dropLastKey()
            } else {
                kept += 1
            }
            key = Int(entries[value].end)
        }
        if kept * 2 != frame.attached { counts[frame.base] = kept }
    }

    /// Completes the entry of a closed frame; returns its index.
    mutating func closeOnTape(_ frame: CBORFrame) throws(SerializationError) -> Int {
        entries[frame.base].end = UInt32(truncatingIfNeeded: entries.count)
        // A count the head does not say is kept aside (indefinite lengths; repeated keys dropped, below).
        if frame.indefinite && (frame.kind == .array || frame.kind == .map) {
            counts[frame.base] = frame.kind == .map ? frame.attached / 2 : frame.attached
        }
        if frame.kind == .map {
            let start = frame.keyTable.keyBase
            if hasEqualHashes(from: start) { try checkKeys(of: frame) }
            keyHashes.removeLast(keyHashes.count - start)
        }
        return frame.base
    }

    /// The completed item at entry `index` as a value (for keys that are not definite-length texts).
    func tapeValue(at index: Int) -> CBORValue {
        CBORTapeReading(
            body: UnsafeRawBufferPointer(start: bytes, count: count), entries: entries.buffer, counts: counts,
            replacements: replacements, dropped: dropped
        ).value(at: index)
    }
}
