import DecantBytes
import DecantCore
import DecantValueTree

/// An open array or map while its elements are read; they wait on the reader's value stack from ``base`` on (a
/// map's keys and values alternating).
struct MessagePackFrame {
    var isMap: Bool
    /// The elements (or entries) still expected.
    var remaining: Int
    /// The index, in the value stack, of the container's first item.
    var base: Int

    static let placeholder = MessagePackFrame(isMap: false, remaining: 0, base: 0)
}

/// The cursor over the bytes, the container stack and the cache of repeated strs. The caller calls
/// ``release()`` once it is done, whatever the outcome.
struct MessagePackReader {
    let bytes: UnsafeRawPointer
    let count: Int
    let options: MessagePackParsingOptions
    /// Whether strs must be valid UTF-8 (not `replacesInvalidUTF8`).
    let checksUTF8: Bool
    var position = 0
    /// The values counted against ``MessagePackParsingOptions/maxItems`` so far.
    var items = 0
    /// The finished items of every open container.
    var values = ValueStack<MessagePackValue>()
    /// The open containers but the innermost one.
    var frames: [MessagePackFrame] = []
    /// The tape reader's entries (see ``MessagePackTape``).
    var entries: MessagePackTapeStorage

    /// The str cache (bodies of 4 KB or more, tree reader only), so that repeated strs share one value.
    var textCache: TextCache<MessagePackValue>

    /// Creates a reader; the str cache is made only for the tree reader (`cachesTexts`) and bodies of 4 KB or more.
    init(bytes: UnsafeRawPointer, count: Int, options: MessagePackParsingOptions, cachesTexts: Bool = true) {
        self.bytes = bytes
        self.count = count
        self.options = options
        checksUTF8 = !options.replacesInvalidUTF8
        // Most values take a few bytes; the tape grows beyond this when they are smaller.
        entries = MessagePackTapeStorage(capacity: cachesTexts ? 0 : count / 8 + 1)
        textCache = TextCache(bodyBytes: count, enabled: cachesTexts, placeholder: .nil)
    }

    /// Frees the value stack and the tape's entries (unless handed over).
    func release() {
        values.release()
        entries.release()
    }

    var remaining: Int { count - position }

    func invalid(_ message: String, at offset: Int) -> SerializationError {
        SerializationError(code: .invalidBody, message: message, offset: offset)
    }

    /// Fails unless `count` more bytes remain; `what` names the value begun at `start`.
    @inline(__always)
    func require(_ count: Int, for what: String, at start: Int) throws(SerializationError) {
        guard count <= remaining else { throw truncated(count, for: what, at: start) }
    }

    func truncated(_ count: Int, for what: String, at start: Int) -> SerializationError {
        invalid(
            "The MessagePack body ends inside \(what) at offset \(start): it needs \(count) more bytes but only "
                + "\(remaining) remain; the body is truncated.", at: start)
    }

    /// Reads a big-endian unsigned integer of `width` bytes (1, 2, 4 or 8).
    @inline(__always)
    mutating func unsigned(_ width: Int, for what: String, at start: Int) throws(SerializationError) -> UInt64 {
        try require(width, for: what, at: start)
        let value = Self.bigEndian(bytes + position, width: width)
        position += width
        return value
    }

    /// The big-endian unsigned integer of `width` bytes (1, 2, 4 or 8) at `pointer`.
    @inline(__always)
    static func bigEndian(_ pointer: UnsafeRawPointer, width: Int) -> UInt64 {
        switch width {
        case 1: UInt64(pointer.load(as: UInt8.self))
        case 2: UInt64(UInt16(bigEndian: pointer.loadUnaligned(as: UInt16.self)))
        case 4: UInt64(UInt32(bigEndian: pointer.loadUnaligned(as: UInt32.self)))
        default: UInt64(bigEndian: pointer.loadUnaligned(as: UInt64.self))
        }
    }

    /// The error for the byte 0xc1 at `start`.
    func unusedByte(at start: Int) -> SerializationError {
        invalid(
            "The MessagePack body has the byte 0xc1 at offset \(start), which the specification never uses; "
                + "the body is not MessagePack or is corrupt.", at: start)
    }

    /// Fails unless an array or map of `count` (> 0) elements or entries, with its head at `start`, can be opened
    /// inside `depth` open containers: every element takes at least one byte, so a count the rest of the body
    /// cannot hold fails now, before any allocation; the values it declares stay within
    /// ``MessagePackParsingOptions/maxItems`` (and are counted); and the nesting stays within
    /// ``MessagePackParsingOptions/maxDepth``.
    @inline(__always)
    mutating func checkOpening(isMap: Bool, count: Int, depth: Int, at start: Int) throws(SerializationError) {
        let minimum = isMap ? count * 2 : count
        guard minimum <= remaining else {
            throw invalid(
                "The MessagePack \(isMap ? "map" : "array") at offset \(start) declares \(count) "
                    + "\(isMap ? "entries" : "elements") but only \(remaining) bytes remain; the body is "
                    + "truncated or corrupt.", at: start)
        }
        try countItems(minimum, at: start)
        guard depth < options.maxDepth else {
            throw SerializationError(
                code: .limitExceeded,
                message: "The MessagePack body nests arrays and maps deeper than maxDepth "
                    + "(\(options.maxDepth)) at offset \(start); raise the maxDepth option to accept it.",
                offset: start)
        }
    }

    /// Counts `count` more values against ``MessagePackParsingOptions/maxItems``; `start` is the offset of the head
    /// that declares them (or of the top-level value).
    @inline(__always)
    mutating func countItems(_ count: Int, at start: Int) throws(SerializationError) {
        guard count <= options.maxItems &- items else {
            throw SerializationError(
                code: .limitExceeded,
                message: "The MessagePack body declares more than maxItems (\(options.maxItems)) values at offset "
                    + "\(start); raise the maxItems option to accept it.",
                offset: start)
        }
        items &+= count
    }

    /// Reads one complete value, iteratively.
    mutating func readValue() throws(SerializationError) -> MessagePackValue {
        var top = MessagePackFrame.placeholder
        var depth = 0
        while true {
            var value: MessagePackValue
            let start = position
            try require(1, for: "a value", at: start)
            let head = bytes.load(fromByteOffset: position, as: UInt8.self)
            position += 1
            var container: (isMap: Bool, count: Int)?
            switch head {
            case 0x00...0x7f: value = .int(Int64(head))
            case 0x80...0x8f:
                container = (true, Int(head & 0x0f))
                value = .nil
            case 0x90...0x9f:
                container = (false, Int(head & 0x0f))
                value = .nil
            case 0xa0...0xbf: value = try string(Int(head & 0x1f), at: start)
            case 0xc0: value = .nil
            case 0xc1: throw unusedByte(at: start)
            case 0xc2: value = .bool(false)
            case 0xc3: value = .bool(true)
            case 0xc4, 0xc5, 0xc6:
                let length = try unsigned(1 << Int(head - 0xc4), for: "a bin length", at: start)
                let size = try count(length, for: "a bin", at: start)
                try require(size, for: "a bin", at: start)
                value = .binary(Array(UnsafeRawBufferPointer(start: bytes + position, count: size)))
                position += size
            case 0xc7, 0xc8, 0xc9:
                let length = try unsigned(1 << Int(head - 0xc7), for: "an ext length", at: start)
                value = try ext(length: try count(length, for: "an ext", at: start), at: start)
            case 0xca:
                value = .float32(Float(bitPattern: UInt32(try unsigned(4, for: "a float 32", at: start))))
            case 0xcb: value = .float64(Double(bitPattern: try unsigned(8, for: "a float 64", at: start)))
            case 0xcc, 0xcd, 0xce, 0xcf:
                let unsigned = try unsigned(1 << Int(head - 0xcc), for: "a uint", at: start)
                if let signed = Int64(exactly: unsigned) {
                    value = .int(signed)
                } else {
                    value = .uint(unsigned)
                }
            case 0xd0:
                value = .int(Int64(Int8(truncatingIfNeeded: try unsigned(1, for: "an int 8", at: start))))
            case 0xd1:
                value = .int(Int64(Int16(truncatingIfNeeded: try unsigned(2, for: "an int 16", at: start))))
            case 0xd2:
                value = .int(Int64(Int32(truncatingIfNeeded: try unsigned(4, for: "an int 32", at: start))))
            case 0xd3: value = .int(Int64(bitPattern: try unsigned(8, for: "an int 64", at: start)))
            case 0xd4...0xd8: value = try ext(length: 1 << Int(head - 0xd4), at: start)
            case 0xd9, 0xda, 0xdb:
                let length = try unsigned(1 << Int(head - 0xd9), for: "a str length", at: start)
                value = try string(try count(length, for: "a str", at: start), at: start)
            case 0xdc, 0xdd:
                let length = try unsigned(head == 0xdc ? 2 : 4, for: "an array length", at: start)
                container = (false, Int(length))
                value = .nil
            case 0xde, 0xdf:
                let length = try unsigned(head == 0xde ? 2 : 4, for: "a map length", at: start)
                container = (true, Int(length))
                value = .nil
            default: value = .int(Int64(Int8(bitPattern: head)))
            }
            if let (isMap, count) = container {
                if count == 0 {
                    value = isMap ? .map([]) : .array([])
                } else {
                    try checkOpening(isMap: isMap, count: count, depth: depth, at: start)
                    if depth > 0 { frames.append(top) }
                    top = MessagePackFrame(isMap: isMap, remaining: count, base: values.count)
                    depth += 1
                    continue
                }
            }
            // Hand the finished value to the open containers, closing those it completes.
            while true {
                guard depth > 0 else { return value }
                values.push(consume value)
                // A map's entry is complete once its value is there (an even number of items).
                if !top.isMap || (values.count - top.base) & 1 == 0 {
                    top.remaining -= 1
                }
                if top.remaining > 0 { break }
                value = top.isMap ? .map(values.takeEntries(from: top.base)) : .array(values.takeArray(from: top.base))
                depth -= 1
                if depth > 0 { top = frames.removeLast() }
            }
        }
    }

    /// A declared length as an `Int`, checked against the remaining bytes.
    func count(_ length: UInt64, for what: String, at start: Int) throws(SerializationError) -> Int {
        guard length <= UInt64(remaining) else {
            throw invalid(
                "The MessagePack body declares \(what) of \(length) bytes at offset \(start) but only \(remaining) "
                    + "bytes remain; the body is truncated or corrupt.", at: start)
        }
        return Int(length)
    }

    /// Reads a str of `length` bytes: ASCII is decoded at once; other text is decoded, then checked for
    /// replacements. Repeated strs share one value.
    @inline(__always)
    mutating func string(_ length: Int, at start: Int) throws(SerializationError) -> MessagePackValue {
        try require(length, for: "a str", at: start)
        let offset = position
        let pointer = bytes + offset
        position += length
        guard textCache.isEnabled else { return try text(pointer, count: length, at: start) }
        if length <= 16 {
            // Short strs (most keys) are compared and hashed as two words, without reading the body again.
            let (first, second) = ByteRun.shortWords(pointer, count: length)
            let hash = ByteRun.hashShort(first, second, count: length)
            let slot = textCache.slot(forHash: hash)
            if let shared = textCache.shortText(count: length, first: first, second: second, slot: slot) {
                return shared
            }
            let value: MessagePackValue
            if (first | second) & ByteRun.highBits == 0 {
                let utf8 = UnsafeBufferPointer(start: pointer.assumingMemoryBound(to: UInt8.self), count: length)
                value = .string(String(decoding: utf8, as: UTF8.self))
            } else {
                value = try text(pointer, count: length, at: start)
            }
            textCache.storeShortText(value, count: length, first: first, second: second, slot: slot)
            return value
        }
        let hash = ByteRun.hash(pointer, count: length)
        let slot = textCache.slot(forHash: hash)
        let bytes = bytes
        if let shared = textCache.longText(
            count: length, hash: hash, slot: slot,
            sameBytes: { cached in
                ByteRun.equal(bytes + cached, pointer, count: length)
            })
        {
            return shared
        }
        let value = try text(pointer, count: length, at: start)
        textCache.storeLongText(value, count: length, hash: hash, start: offset, slot: slot)
        return value
    }

    /// The str value of the `count` bytes at `pointer` (the str's head is at `start`).
    @inline(__always)
    func text(_ pointer: UnsafeRawPointer, count: Int, at start: Int) throws(SerializationError) -> MessagePackValue {
        let utf8 = UnsafeBufferPointer(start: pointer.assumingMemoryBound(to: UInt8.self), count: count)
        if ByteRun.isASCII(pointer, count: count) { return .string(String(decoding: utf8, as: UTF8.self)) }
        // Decoding replaces invalid sequences with U+FFFD; the bytes come back unchanged exactly when it replaced
        // nothing (a replacement EF BF BD in place of the same bytes would have been valid there).
        var text = String(decoding: utf8, as: UTF8.self)
        if options.replacesInvalidUTF8 { return .string(text) }
        if text.utf8.count == count {
            let unchanged = text.withUTF8 { decoded in
                guard let base = decoded.baseAddress else { return false }
                return ByteRun.equal(UnsafeRawPointer(base), pointer, count: count)
            }
            if unchanged { return .string(text) }
        }
        throw invalidText(utf8, contentStart: pointer - bytes, at: start)
    }

    /// The error for a str that is not valid UTF-8, with the offset of its first bad byte.
    func invalidText(_ utf8: UnsafeBufferPointer<UInt8>, contentStart: Int, at start: Int) -> SerializationError {
        var iterator = utf8.makeIterator()
        var decoder = UTF8()
        var consumed = 0
        loop: while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): consumed += UTF8.width(scalar)
            case .emptyInput, .error: break loop
            }
        }
        let valid = contentStart + consumed
        return SerializationError(
            code: .invalidEncoding,
            message: "The MessagePack str at offset \(start) is not valid UTF-8 (bad byte at offset \(valid)); "
                + "fix the sender, or set the replaceInvalidUTF8 option to replace bad sequences with U+FFFD.",
            offset: valid)
    }

    mutating func ext(length: Int, at start: Int) throws(SerializationError) -> MessagePackValue {
        let (type, data) = try extContent(length: length, at: start)
        guard type == -1 else { return .ext(type: type, data: Array(data)) }
        let (seconds, nanoseconds) = try Self.timestamp(data, at: start)
        return .timestamp(seconds: seconds, nanoseconds: nanoseconds)
    }

    /// Reads an ext's type and steps over its `length` bytes of data; returns both.
    @inline(__always)
    mutating func extContent(
        length: Int, at start: Int
    ) throws(SerializationError) -> (type: Int8, data: UnsafeRawBufferPointer) {
        let type = Int8(bitPattern: UInt8(try unsigned(1, for: "an ext type", at: start)))
        try require(length, for: "an ext", at: start)
        let data = UnsafeRawBufferPointer(start: bytes + position, count: length)
        position += length
        return (type, data)
    }

    /// The seconds and nanoseconds of the data of a timestamp (extension type -1) whose head is at `start`.
    ///
    /// - Throws: `invalidBody` for data of another length than 4, 8 or 12 bytes, or nanoseconds above 999,999,999.
    static func timestamp(
        _ data: UnsafeRawBufferPointer, at start: Int
    ) throws(SerializationError) -> (seconds: Int64, nanoseconds: UInt32) {
        let seconds: Int64
        let nanoseconds: UInt64
        switch (data.count, data.baseAddress) {
        case (4, let base?):
            seconds = Int64(bigEndian(base, width: 4))
            nanoseconds = 0
        case (8, let base?):
            let bits = bigEndian(base, width: 8)
            nanoseconds = bits >> 34
            seconds = Int64(bits & 0x3_ffff_ffff)
        case (12, let base?):
            nanoseconds = bigEndian(base, width: 4)
            seconds = Int64(bitPattern: bigEndian(base + 4, width: 8))
        default:
            throw SerializationError(
                code: .invalidBody,
                message: "The MessagePack timestamp (extension type -1) at offset \(start) has \(data.count) bytes "
                    + "of data; the specification defines only 4, 8 and 12.", offset: start)
        }
        guard nanoseconds <= 999_999_999 else {
            throw SerializationError(
                code: .invalidBody,
                message: "The MessagePack timestamp at offset \(start) has \(nanoseconds) nanoseconds, more than "
                    + "999,999,999; the timestamp is corrupt.", offset: start)
        }
        return (seconds, UInt32(nanoseconds))
    }
}
