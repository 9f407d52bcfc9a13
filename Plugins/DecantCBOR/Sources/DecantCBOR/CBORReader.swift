import DecantBytes
import DecantCore
import DecantValueTree

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One open container while reading: an array, a map, a tag or the chunks of an indefinite-length string. Its items
/// wait on the reader's value stack from ``base`` on; a map's keys are also remembered from its ``keyTable``'s base on, for the
/// duplicate check.
struct CBORFrame {
    enum Kind: UInt8 {
        case array
        case map
        case byteChunks
        case textChunks
        case tag
    }

    var kind: Kind
    /// Whether the length is indefinite (ended by a break).
    var indefinite: Bool
    /// The byte offset of the container's head.
    var start: Int
    /// The items still expected (a map counts keys and values), when the length is definite.
    var remaining: UInt64
    /// The index, in the value stack, of the container's first item (for the tape reader: the container's entry).
    var base: Int
    /// The tag number, for a tag.
    var tagNumber: UInt64 = 0
    /// The state of a map's duplicate-key check.
    var keyTable = CBORKeyTable()
    /// The items attached so far (the tape reader's count of elements, keys and values).
    var attached = 0

    static let placeholder = CBORFrame(kind: .array, indefinite: false, start: 0, remaining: 0, base: 0)
}

/// The reading state over one body. The caller calls ``release()`` once it is done, whatever the outcome.
struct CBORReader {
    let bytes: UnsafeRawPointer
    let count: Int
    let options: CBORParsingOptions
    let rejectsDuplicateKeys: Bool
    var position = 0
    var items = 0
    /// The finished items of every open container.
    var values = ValueStack<CBORValue>()
    /// The open containers but the innermost one.
    var frames: [CBORFrame] = []
    /// The duplicate-key check of the open maps.
    var keyChecker: CBORKeyChecker
    /// The tape reader's entries, the counts their heads do not say, and the results of `lastWins` duplicate keys
    /// (see ``CBORTape``).
    var entries: CBORTapeBuffer
    var counts: [Int: Int] = [:]
    /// The tape reader's hashes of the keys of every open map (see ``CBORKeyTable/keyBase``).
    var keyHashes: [UInt64] = []
    /// The tape reader's hash set for maps of many keys (reused from map to map).
    var hashSlots: [UInt64] = []
    var replacements: [Int: Int] = [:]
    var dropped: Set<Int> = []

    /// The text cache (bodies of 4 KB or more, tree reader only), so that repeated texts share one value.
    var textCache: TextCache<CBORValue>

    /// Creates a reader; the text cache is made only for the tree reader (`cachesTexts`) and bodies of 4 KB or more.
    init(bytes: UnsafeRawPointer, count: Int, options: CBORParsingOptions, cachesTexts: Bool = true) {
        self.bytes = bytes
        self.count = count
        self.options = options
        keyChecker = CBORKeyChecker(bytes: bytes)
        // Most items take a few bytes; the tape grows beyond this when they are smaller.
        entries = CBORTapeBuffer(capacity: cachesTexts ? 0 : count / 8 + 1)
        rejectsDuplicateKeys = options.duplicateKeys != .lastWins
        textCache = TextCache(bodyBytes: count, enabled: cachesTexts, placeholder: .null)
    }

    /// Frees the value stack and the tape buffer.
    func release() {
        values.release()
        entries.release()
    }

    func invalid(_ message: String, at offset: Int) -> SerializationError {
        SerializationError(code: .invalidBody, message: message, offset: offset)
    }

    func invalidText(at offset: Int) -> SerializationError {
        invalid(
            "The text string at offset \(offset) is not valid UTF-8 (RFC 8949 §3.1); send binary data as a byte "
                + "string.", at: offset)
    }

    /// The text of the `count` bytes at `start`, or `nil` when they are not valid UTF-8.
    @inline(__always)
    func text(at start: UnsafeRawPointer, count: Int) -> String? {
        let utf8 = UnsafeBufferPointer(start: start.assumingMemoryBound(to: UInt8.self), count: count)
        if ByteRun.isASCII(start, count: count) { return String(decoding: utf8, as: UTF8.self) }
        // Decoding replaces invalid sequences with U+FFFD; the bytes come back unchanged exactly when it replaced
        // nothing (a replacement EF BF BD in place of the same bytes would have been valid there).
        var text = String(decoding: utf8, as: UTF8.self)
        guard text.utf8.count == count else { return nil }
        let unchanged = text.withUTF8 { decoded in
            guard let base = decoded.baseAddress else { return false }
            return ByteRun.equal(UnsafeRawPointer(base), start, count: count)
        }
        return unchanged ? text : nil
    }

    /// The text value of the `count` bytes at `pointer` (offset `start`, head at `headOffset`), shared with the
    /// last text of the same bytes in the text cache. Sets `hash` to the bytes' fast hash when `isKey`.
    @inline(__always)
    mutating func sharedText(
        _ pointer: UnsafeRawPointer, count size: Int, start: Int, headOffset: Int, isKey: Bool, hash: inout UInt64?
    ) throws(SerializationError) -> CBORValue {
        if size <= 16 {
            // Short texts (most keys) are compared and hashed as two words, without reading the body again.
            let (first, second) = ByteRun.shortWords(pointer, count: size)
            let shortHash = ByteRun.hashShort(first, second, count: size)
            if isKey { hash = shortHash }
            let slot = textCache.slot(forHash: shortHash)
            if let shared = textCache.shortText(count: size, first: first, second: second, slot: slot) { return shared }
            let value: CBORValue
            if (first | second) & ByteRun.highBits == 0 {
                let utf8 = UnsafeBufferPointer(start: pointer.assumingMemoryBound(to: UInt8.self), count: size)
                value = .text(String(decoding: utf8, as: UTF8.self))
            } else {
                guard let text = text(at: pointer, count: size) else { throw invalidText(at: headOffset) }
                value = .text(text)
            }
            textCache.storeShortText(value, count: size, first: first, second: second, slot: slot)
            return value
        }
        let longHash = ByteRun.hash(pointer, count: size)
        if isKey { hash = longHash }
        let slot = textCache.slot(forHash: longHash)
        let bytes = bytes
        if let shared = textCache.longText(
            count: size, hash: longHash, slot: slot,
            sameBytes: { offset in
                ByteRun.equal(bytes + offset, pointer, count: size)
            })
        {
            return shared
        }
        guard let text = text(at: pointer, count: size) else { throw invalidText(at: headOffset) }
        let value = CBORValue.text(text)
        textCache.storeLongText(value, count: size, hash: longHash, start: start, slot: slot)
        return value
    }

    func truncated(_ what: String, at offset: Int) -> SerializationError {
        invalid(
            "The body ends inside \(what) that starts at offset \(offset): the CBOR is truncated. Send the whole "
                + "document.", at: offset)
    }

    /// Counts `count` more data items against ``CBORParsingOptions/maxItems``.
    @inline(__always)
    mutating func countItems(_ count: UInt64, at offset: Int) throws(SerializationError) {
        guard count <= UInt64(max(0, options.maxItems - items)) else {
            throw SerializationError(
                code: .limitExceeded,
                message: "The body declares more than \(options.maxItems) data items (at offset \(offset)); raise "
                    + "the option maxItems to accept it.",
                offset: offset)
        }
        items += Int(count)
    }

    /// Reads the argument of a head whose additional information is `info` (not 31).
    @inline(__always)
    mutating func argument(_ info: UInt8, headOffset: Int) throws(SerializationError) -> UInt64 {
        if info < 24 { return UInt64(info) }
        return try longArgument(info, headOffset: headOffset)
    }

    /// Reads an argument of 1, 2, 4 or 8 bytes.
    mutating func longArgument(_ info: UInt8, headOffset: Int) throws(SerializationError) -> UInt64 {
        let size: Int
        switch info {
        case 24: size = 1
        case 25: size = 2
        case 26: size = 4
        case 27: size = 8
        default:
            throw invalid(
                "The head at offset \(headOffset) has the additional information \(info), which is not well-formed "
                    + "there (28-30 are reserved; 31 is only for indefinite lengths and the break, RFC 8949 §3).",
                at: headOffset)
        }
        guard count - position >= size else { throw truncated("the head", at: headOffset) }
        let value: UInt64
        switch size {
        case 1: value = UInt64(bytes.load(fromByteOffset: position, as: UInt8.self))
        case 2: value = UInt64(UInt16(bigEndian: bytes.loadUnaligned(fromByteOffset: position, as: UInt16.self)))
        case 4: value = UInt64(UInt32(bigEndian: bytes.loadUnaligned(fromByteOffset: position, as: UInt32.self)))
        default: value = UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: position, as: UInt64.self))
        }
        position += size
        return value
    }

    /// Makes `frame` the innermost open container.
    @inline(__always)
    mutating func open(_ frame: CBORFrame, top: inout CBORFrame, depth: inout Int) throws(SerializationError) {
        guard depth < options.maxDepth else {
            throw SerializationError(
                code: .limitExceeded,
                message: "The data item at offset \(frame.start) is nested deeper than \(options.maxDepth) levels "
                    + "(arrays, maps, tags and indefinite-length strings); raise the option maxDepth to accept it.",
                offset: frame.start)
        }
        if depth > 0 { frames.append(top) }
        top = frame
        depth += 1
    }

    /// Reads the initial byte of the next head and steps over it. Fails when the body ends there, or when the
    /// innermost open container (`top`, if `depth` is above 0) is an indefinite-length string and the head is not a
    /// definite-length chunk of its type (nor the break that ends it).
    @inline(__always)
    mutating func nextInitialByte(top: CBORFrame, depth: Int) throws(SerializationError) -> UInt8 {
        let headOffset = position
        guard position < count else {
            if depth > 0 { throw truncated("the container", at: top.start) }
            throw truncated("the data item", at: headOffset)
        }
        let initial = bytes.load(fromByteOffset: position, as: UInt8.self)
        position += 1
        let major = initial >> 5
        if depth > 0, initial != 0xFF, top.kind == .byteChunks || top.kind == .textChunks {
            if major != (top.kind == .byteChunks ? 2 : 3) || initial & 0x1F == 31 {
                let expected = major == 2 ? "definite-length byte strings" : "definite-length text strings"
                throw invalid(
                    "The item at offset \(headOffset) inside the indefinite-length string at offset \(top.start) "
                        + "is not a chunk of the same type: only \(expected) may appear there (RFC 8949 §3.2.3).",
                    at: headOffset)
            }
        }
        return initial
    }

    /// Checks that a break at `headOffset` ends the innermost open container `top` (`depth` above 0), which is of
    /// indefinite length and, for a map, not waiting for a key's value (`afterKey`).
    func checkBreak(at headOffset: Int, top: CBORFrame, depth: Int, afterKey: Bool) throws(SerializationError) {
        guard depth > 0, top.indefinite else {
            throw invalid(
                "A break (0xFF) at offset \(headOffset) is outside any indefinite-length item (RFC 8949 §3.2.1).",
                at: headOffset)
        }
        if top.kind == .map && afterKey {
            throw invalid(
                "The indefinite-length map at offset \(top.start) ends (break at offset \(headOffset)) after a key "
                    + "without a value.", at: headOffset)
        }
    }

    /// Reads one data item, without recursion.
    mutating func readItem() throws(SerializationError) -> CBORValue {
        var top = CBORFrame.placeholder
        var depth = 0
        while true {
            let headOffset = position
            let initial = try nextInitialByte(top: top, depth: depth)
            let major = initial >> 5
            let info = initial & 0x1F
            var value: CBORValue
            var valueStart = headOffset
            // The content of a definite-length text string, for the duplicate-key check.
            var textStart = -1
            var textCount = 0
            var textHash: UInt64?
            if initial == 0xFF {
                try checkBreak(at: headOffset, top: top, depth: depth, afterKey: (values.count - top.base) & 1 == 1)
                valueStart = top.start
                value = close(top)
                depth -= 1
                if depth > 0 { top = frames.removeLast() }
            } else {
                switch major {
                case 0:
                    value = .unsignedInteger(try argument(info, headOffset: headOffset))
                case 1:
                    value = .negativeInteger(try argument(info, headOffset: headOffset))
                case 2, 3:
                    if info == 31 {
                        try open(
                            CBORFrame(
                                kind: major == 2 ? .byteChunks : .textChunks, indefinite: true, start: headOffset,
                                remaining: 0, base: values.count), top: &top, depth: &depth)
                        continue
                    }
                    let length = try argument(info, headOffset: headOffset)
                    guard length <= UInt64(count - position) else {
                        throw truncated(major == 2 ? "the byte string" : "the text string", at: headOffset)
                    }
                    let start = position
                    let size = Int(length)
                    position += size
                    let pointer = bytes + start
                    if major == 2 {
                        value = .bytes(Data(bytes: pointer, count: size))
                    } else {
                        if textCache.isEnabled {
                            // Texts repeat (keys above all): the value made for the same bytes earlier is reused.
                            let isKey =
                                depth > 0 && top.kind == .map && !top.keyTable.seededHash
                                && (values.count - top.base) & 1 == 0
                            value = try sharedText(
                                pointer, count: size, start: start, headOffset: headOffset, isKey: isKey,
                                hash: &textHash)
                        } else {
                            guard let text = text(at: pointer, count: size) else { throw invalidText(at: headOffset) }
                            value = .text(text)
                        }
                        textStart = start
                        textCount = size
                    }
                case 4, 5:
                    if info == 31 {
                        try open(
                            CBORFrame(
                                kind: major == 4 ? .array : .map, indefinite: true, start: headOffset, remaining: 0,
                                base: values.count, keyTable: keyChecker.newTable), top: &top, depth: &depth)
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
                    if declared == 0 {
                        value = major == 4 ? .array([]) : .map([])
                        break
                    }
                    try open(
                        CBORFrame(
                            kind: major == 4 ? .array : .map, indefinite: false, start: headOffset,
                            remaining: declared * perItem, base: values.count, keyTable: keyChecker.newTable),
                        top: &top, depth: &depth)
                    continue
                case 6:
                    guard info != 31 else {
                        throw invalid(
                            "The tag at offset \(headOffset) has additional information 31, which is not "
                                + "well-formed for tags (RFC 8949 §3).", at: headOffset)
                    }
                    let number = try argument(info, headOffset: headOffset)
                    try open(
                        CBORFrame(
                            kind: .tag, indefinite: false, start: headOffset, remaining: 1, base: values.count,
                            tagNumber: number), top: &top, depth: &depth)
                    continue
                default:
                    value = try simpleOrFloat(info, headOffset: headOffset)
                }
            }
            // Attach the completed value to the open containers, closing those it completes.
            while true {
                guard depth > 0 else { return value }
                if try attach(
                    consume value, start: valueStart, textStart: textStart, textCount: textCount, textHash: textHash,
                    to: &top)
                {
                    break
                }
                valueStart = top.start
                value = close(top)
                textStart = -1
                textHash = nil
                depth -= 1
                if depth > 0 { top = frames.removeLast() }
            }
        }
    }

    /// Adds `value` to `frame`; returns whether the frame still expects items.
    @inline(__always)
    mutating func attach(
        _ value: consuming CBORValue, start: Int, textStart: Int, textCount: Int, textHash: UInt64?,
        to frame: inout CBORFrame
    ) throws(SerializationError) -> Bool {
        switch frame.kind {
        case .array:
            if frame.indefinite { try countItems(1, at: start) }
            values.push(value)
        case .map:
            if frame.indefinite { try countItems(1, at: start) }
            if (values.count - frame.base) & 1 == 0 {
                // A key: remembered now, checked against the earlier keys once its value is complete.
                keyChecker.record(
                    textStart: textStart, textCount: textCount, textHash: textHash,
                    other: textStart >= 0 ? nil : copy value, position: values.count, offset: start,
                    in: frame.keyTable)
                values.push(consume value)
            } else if let existing = keyChecker.duplicateOfLastKey(in: &frame.keyTable) {
                let repeated = keyChecker.keys[keyChecker.keys.count - 1].offset
                guard !rejectsDuplicateKeys else {
                    throw invalid(
                        "The map at offset \(frame.start) repeats the key at offset \(repeated) (RFC 8949 §5.6); "
                            + "send unique keys, or set the option duplicateKeys to lastWins.", at: repeated)
                }
                // The last value wins, at the position of the first occurrence of the key.
                values.replace(at: keyChecker.keys[existing].position + 1, with: value)
                values.dropLast()
                keyChecker.dropLastKey()
            } else {
                values.push(value)
            }
        case .byteChunks, .textChunks:
            values.push(value)
            return true
        case .tag:
            values.push(value)
        }
        if frame.indefinite { return true }
        frame.remaining -= 1
        return frame.remaining > 0
    }

    /// The value of a closed frame, its items taken off the value stack.
    mutating func close(_ frame: CBORFrame) -> CBORValue {
        switch frame.kind {
        case .array:
            return .array(values.takeArray(from: frame.base))
        case .map:
            keyChecker.close(frame.keyTable)
            return .map(values.takeEntries(from: frame.base))
        case .byteChunks:
            var data = Data()
            for index in frame.base..<values.count {
                if case .bytes(let chunk) = values[index] { data.append(chunk) }
            }
            values.drop(from: frame.base)
            return .bytes(data)
        case .textChunks:
            var text = ""
            for index in frame.base..<values.count {
                if case .text(let chunk) = values[index] { text += chunk }
            }
            values.drop(from: frame.base)
            return .text(text)
        case .tag:
            let number = frame.tagNumber
            let content = values.count > frame.base ? values.pop() : .null
            return CBORValue.tagged(number, content)
        }
    }

    /// Major type 7: simple values and floats (RFC 8949 §3.3).
    mutating func simpleOrFloat(_ info: UInt8, headOffset: Int) throws(SerializationError) -> CBORValue {
        switch info {
        case 20: return .bool(false)
        case 21: return .bool(true)
        case 22: return .null
        case 23: return .undefined
        case 0..<20: return .simple(info)
        case 24:
            let simple = try argument(info, headOffset: headOffset)
            guard simple >= 32 || options.allowsTwoByteLowSimpleValues else {
                throw invalid(
                    "The simple value \(simple) at offset \(headOffset) uses the two-byte form, which is not "
                        + "well-formed below 32 (RFC 8949 §3.3); encode it in one byte.", at: headOffset)
            }
            switch simple {
            case 20: return .bool(false)
            case 21: return .bool(true)
            case 22: return .null
            case 23: return .undefined
            default: return .simple(UInt8(simple))
            }
        case 25:
            return .float(Self.half(UInt16(try argument(info, headOffset: headOffset))))
        case 26:
            return .float(Double(Float(bitPattern: UInt32(try argument(info, headOffset: headOffset)))))
        case 27:
            return .float(Double(bitPattern: try argument(info, headOffset: headOffset)))
        default:
            // 28-30 are reserved; 31 (a break) is handled by the caller.
            _ = try argument(info, headOffset: headOffset)
            return .null
        }
    }

    /// A half-precision float, decoded exactly as RFC 8949 Appendix D does.
    static func half(_ bits: UInt16) -> Double {
        let exponent = Int(bits >> 10 & 0x1F)
        let mantissa = Double(bits & 0x3FF)
        let magnitude: Double
        if exponent == 0 {
            magnitude = Double(sign: .plus, exponent: -24, significand: mantissa)
        } else if exponent != 31 {
            magnitude = Double(sign: .plus, exponent: exponent - 25, significand: mantissa + 1024)
        } else {
            magnitude = mantissa == 0 ? .infinity : .nan
        }
        return bits & 0x8000 != 0 ? -magnitude : magnitude
    }
}
