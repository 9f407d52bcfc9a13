import DecantCore

/// The tape reader: the same checks as ``CBORReader/readItem()`` (well-formedness, UTF-8, duplicate keys, every
/// limit), but instead of values it appends one ``CBORTapeEntry`` per data item, so that nothing but the entries is
/// allocated while parsing. ``CBORItem`` reads values from the tape and the body when asked.
extension CBORReader {
    /// Appends the entry of an item whose head (of `headLength` bytes) is at `offset`, and returns its index.
    @inline(__always)
    mutating func appendEntry(_ kind: CBORTapeEntry.Kind, offset: Int, count: UInt64 = 0) -> Int {
        let index = entries.count
        entries.append(
            CBORTapeEntry(
                offset: UInt32(truncatingIfNeeded: offset), end: UInt32(truncatingIfNeeded: index + 1),
                count: UInt32(truncatingIfNeeded: count), kind: kind,
                headLength: UInt8(truncatingIfNeeded: position - offset)))
        return index
    }

    /// Reads one data item onto the tape, without recursion.
    mutating func readTapeItem() throws(SerializationError) {
        var top = CBORFrame.placeholder
        var depth = 0
        while true {
            let headOffset = position
            guard position < count else {
                if depth > 0 { throw truncated("the container", at: top.start) }
                throw truncated("the data item", at: headOffset)
            }
            let initial = bytes.load(fromByteOffset: position, as: UInt8.self)
            position += 1
            let major = initial >> 5
            let info = initial & 0x1F
            if depth > 0, initial != 0xFF, top.kind == .byteChunks || top.kind == .textChunks {
                if major != (top.kind == .byteChunks ? 2 : 3) || info == 31 {
                    let expected = major == 2 ? "definite-length byte strings" : "definite-length text strings"
                    throw invalid(
                        "The item at offset \(headOffset) inside the indefinite-length string at offset "
                            + "\(top.start) is not a chunk of the same type: only \(expected) may appear there "
                            + "(RFC 8949 §3.2.3).", at: headOffset)
                }
            }
            // The completed item: its entry, head offset, and for a definite-length text its content.
            var item: Int
            var itemStart = headOffset
            var textStart = -1
            var textCount = 0
            if initial == 0xFF {
                guard depth > 0, top.indefinite else {
                    throw invalid(
                        "A break (0xFF) at offset \(headOffset) is outside any indefinite-length item (RFC 8949 "
                            + "§3.2.1).", at: headOffset)
                }
                if top.kind == .map && top.attached & 1 == 1 {
                    throw invalid(
                        "The indefinite-length map at offset \(top.start) ends (break at offset \(headOffset)) "
                            + "after a key without a value.", at: headOffset)
                }
                itemStart = top.start
                item = closeOnTape(top)
                depth -= 1
                if depth > 0 { top = frames.removeLast() }
            } else {
                switch major {
                case 0, 1:
                    _ = try argument(info, headOffset: headOffset)
                    item = appendEntry(major == 0 ? .unsignedInteger : .negativeInteger, offset: headOffset)
                case 2, 3:
                    if info == 31 {
                        let entry = appendEntry(major == 2 ? .byteChunks : .textChunks, offset: headOffset)
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
                        guard ByteRun.isValidUTF8(bytes + start, count: size) else {
                            throw invalidText(at: headOffset)
                        }
                        textStart = start
                        textCount = size
                    }
                    item = appendEntry(major == 2 ? .bytes : .text, offset: headOffset, count: length)
                    position += size
                case 4, 5:
                    let kind: CBORFrame.Kind = major == 4 ? .array : .map
                    if info == 31 {
                        let entry = appendEntry(major == 4 ? .array : .map, offset: headOffset)
                        try open(
                            CBORFrame(
                                kind: kind, indefinite: true, start: headOffset, remaining: 0, base: entry,
                                keyTable: keyChecker.newTable), top: &top, depth: &depth)
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
                    let entry = appendEntry(major == 4 ? .array : .map, offset: headOffset)
                    if declared == 0 {
                        item = entry
                        break
                    }
                    try open(
                        CBORFrame(
                            kind: kind, indefinite: false, start: headOffset, remaining: declared * perItem,
                            base: entry, keyTable: keyChecker.newTable), top: &top, depth: &depth)
                    continue
                case 6:
                    guard info != 31 else {
                        throw invalid(
                            "The tag at offset \(headOffset) has additional information 31, which is not "
                                + "well-formed for tags (RFC 8949 §3).", at: headOffset)
                    }
                    _ = try argument(info, headOffset: headOffset)
                    let entry = appendEntry(.tag, offset: headOffset)
                    try open(
                        CBORFrame(kind: .tag, indefinite: false, start: headOffset, remaining: 1, base: entry),
                        top: &top, depth: &depth)
                    continue
                default:
                    // The same checks as the tree reader; the value only says which kind of entry it is.
                    let kind: CBORTapeEntry.Kind =
                        switch try simpleOrFloat(info, headOffset: headOffset) {
                        case .bool(false): .falseValue
                        case .bool(true): .trueValue
                        case .null: .null
                        case .undefined: .undefined
                        case .float: .float
                        default: .simple
                        }
                    item = appendEntry(kind, offset: headOffset)
                }
            }
            // Attach the completed item to the open containers, closing those it completes.
            while true {
                guard depth > 0 else { return }
                if try attachOnTape(item, start: itemStart, textStart: textStart, textCount: textCount, to: &top) {
                    break
                }
                itemStart = top.start
                item = closeOnTape(top)
                textStart = -1
                depth -= 1
                if depth > 0 { top = frames.removeLast() }
            }
        }
    }

    /// Counts the completed item at entry `item` in `frame`; returns whether the frame still expects items.
    @inline(__always)
    mutating func attachOnTape(
        _ item: Int, start: Int, textStart: Int, textCount: Int, to frame: inout CBORFrame
    ) throws(SerializationError) -> Bool {
        switch frame.kind {
        case .array:
            if frame.indefinite { try countItems(1, at: start) }
            frame.attached += 1
        case .map:
            if frame.indefinite { try countItems(1, at: start) }
            if frame.attached & 1 == 0 {
                // A key: remembered now, checked against the earlier keys once its value is complete.
                keyChecker.record(
                    textStart: textStart, textCount: textCount, textHash: nil,
                    other: textStart >= 0 ? nil : tapeValue(at: item), position: item, offset: start,
                    in: frame.keyTable)
                frame.attached += 1
            } else if let existing = keyChecker.duplicateOfLastKey(in: &frame.keyTable) {
                let repeated = keyChecker.keys[keyChecker.keys.count - 1]
                guard !rejectsDuplicateKeys else {
                    throw invalid(
                        "The map at offset \(frame.start) repeats the key at offset \(repeated.offset) (RFC 8949 "
                            + "§5.6); send unique keys, or set the option duplicateKeys to lastWins.",
                        at: repeated.offset)
                }
                // The last value wins, at the position of the first occurrence of the key.
                replacements[keyChecker.keys[existing].position] = item
                dropped.insert(repeated.position)
                keyChecker.dropLastKey()
                frame.attached -= 1
            } else {
                frame.attached += 1
            }
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

    /// Completes the entry of a closed frame; returns its index.
    mutating func closeOnTape(_ frame: CBORFrame) -> Int {
        var count = frame.attached
        if frame.kind == .map {
            keyChecker.close(frame.keyTable)
            count /= 2
        }
        entries[frame.base].end = UInt32(truncatingIfNeeded: entries.count)
        entries[frame.base].count = UInt32(truncatingIfNeeded: count)
        return frame.base
    }

    /// The completed item at entry `index` as a value (for keys that are not definite-length texts).
    func tapeValue(at index: Int) -> CBORValue {
        entries.withUnsafeBufferPointer { entries in
            CBORTapeReading(
                body: UnsafeRawBufferPointer(start: bytes, count: count), entries: entries,
                replacements: replacements, dropped: dropped
            ).value(at: index)
        }
    }
}
