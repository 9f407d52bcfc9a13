public import DecantCore
public import Foundation

/// Parses MessagePack bytes into ``MessagePackValue`` (every format family of the MessagePack specification,
/// including the timestamp extension type -1 in its 32-, 64- and 96-bit forms).
///
/// Untrusted input is safe: parsing is linear in the input and iterative (an explicit stack, bounded by
/// ``MessagePackParsingOptions/maxDepth``); a declared length (str, bin, ext) or element count (array, map) is
/// checked against the bytes that remain before anything is allocated, so an array 32 claiming four billion
/// elements fails at once. Errors are `SerializationError`s with the byte offset of the value at fault:
/// `invalidBody` (truncated input, the never-used byte 0xc1, a timestamp with nanoseconds above 999,999,999 or of
/// another length, bytes after the top-level value), `invalidEncoding` (a str that is not UTF-8, unless
/// ``MessagePackParsingOptions/replacesInvalidUTF8``) and `limitExceeded` (depth, body size).
public struct MessagePackParser: Sendable {
    /// The limits and choices.
    public var options: MessagePackParsingOptions

    /// Creates a parser.
    public init(options: MessagePackParsingOptions = MessagePackParsingOptions()) {
        self.options = options
    }

    /// Parses one top-level value; with ``MessagePackParsingOptions/allowsMultipleValues``, every top-level value
    /// of the stream as one ``MessagePackValue/array(_:)``.
    ///
    /// - Throws: `SerializationError` (see the type's description).
    public func parse(_ data: Data) throws(SerializationError) -> MessagePackValue {
        guard data.count <= options.maxBytes else {
            throw SerializationError(
                code: .limitExceeded,
                message: "The MessagePack body has \(data.count) bytes, more than maxBytes (\(options.maxBytes)); "
                    + "raise the maxBytes option to accept it.")
        }
        var reader = Reader(bytes: [UInt8](data), options: options)
        if options.allowsMultipleValues {
            var values: [MessagePackValue] = []
            while reader.position < reader.bytes.count { values.append(try reader.readValue()) }
            return .array(values)
        }
        let value = try reader.readValue()
        if reader.position < reader.bytes.count {
            throw SerializationError(
                code: .invalidBody,
                message: "The MessagePack body has \(reader.bytes.count - reader.position) bytes after its single "
                    + "top-level value at offset \(reader.position); send one value, or set the allowsMultipleValues "
                    + "option to read a stream of values.",
                offset: reader.position)
        }
        return value
    }
}

/// An open array or map while its elements are read.
private struct Frame {
    var isMap: Bool
    var remaining: Int
    var elements: [MessagePackValue] = []
    var entries: [MessagePackValue.Entry] = []
    var pendingKey: MessagePackValue?
}

/// The cursor over the bytes and the container stack.
private struct Reader {
    let bytes: [UInt8]
    let options: MessagePackParsingOptions
    var position = 0

    init(bytes: [UInt8], options: MessagePackParsingOptions) {
        self.bytes = bytes
        self.options = options
    }

    var remaining: Int { bytes.count - position }

    func invalid(_ message: String, at offset: Int) -> SerializationError {
        SerializationError(code: .invalidBody, message: message, offset: offset)
    }

    /// Fails unless `count` more bytes remain; `what` names the value begun at `start`.
    func require(_ count: Int, for what: String, at start: Int) throws(SerializationError) {
        guard count <= remaining else {
            throw invalid(
                "The MessagePack body ends inside \(what) at offset \(start): it needs \(count) more bytes but only "
                    + "\(remaining) remain; the body is truncated.", at: start)
        }
    }

    mutating func unsigned(_ width: Int, for what: String, at start: Int) throws(SerializationError) -> UInt64 {
        try require(width, for: what, at: start)
        var value: UInt64 = 0
        for index in position..<(position + width) { value = value << 8 | UInt64(bytes[index]) }
        position += width
        return value
    }

    mutating func take(_ count: Int, for what: String, at start: Int) throws(SerializationError) -> ArraySlice<UInt8> {
        try require(count, for: what, at: start)
        defer { position += count }
        return bytes[position..<(position + count)]
    }

    /// Reads one complete value, iteratively.
    mutating func readValue() throws(SerializationError) -> MessagePackValue {
        var stack: [Frame] = []
        while true {
            var value: MessagePackValue
            let start = position
            try require(1, for: "a value", at: start)
            let head = bytes[position]
            position += 1
            var container: (isMap: Bool, count: Int)?
            switch head {
            case 0x00...0x7f: value = .int(Int64(head))
            case 0x80...0x8f: container = (true, Int(head & 0x0f)); value = .nil
            case 0x90...0x9f: container = (false, Int(head & 0x0f)); value = .nil
            case 0xa0...0xbf: value = try string(Int(head & 0x1f), at: start)
            case 0xc0: value = .nil
            case 0xc1:
                throw invalid(
                    "The MessagePack body has the byte 0xc1 at offset \(start), which the specification never uses; "
                        + "the body is not MessagePack or is corrupt.", at: start)
            case 0xc2: value = .bool(false)
            case 0xc3: value = .bool(true)
            case 0xc4, 0xc5, 0xc6:
                let length = try unsigned(1 << Int(head - 0xc4), for: "a bin length", at: start)
                value = .binary(Array(try take(try count(length, for: "a bin", at: start), for: "a bin", at: start)))
            case 0xc7, 0xc8, 0xc9:
                let length = try unsigned(1 << Int(head - 0xc7), for: "an ext length", at: start)
                value = try ext(length: try count(length, for: "an ext", at: start), at: start)
            case 0xca:
                value = .float32(Float(bitPattern: UInt32(try unsigned(4, for: "a float 32", at: start))))
            case 0xcb: value = .float64(Double(bitPattern: try unsigned(8, for: "a float 64", at: start)))
            case 0xcc, 0xcd, 0xce, 0xcf:
                let integer = try unsigned(1 << Int(head - 0xcc), for: "a uint", at: start)
                value = Int64(exactly: integer).map(MessagePackValue.int) ?? .uint(integer)
            case 0xd0: value = .int(Int64(Int8(truncatingIfNeeded: try unsigned(1, for: "an int 8", at: start))))
            case 0xd1: value = .int(Int64(Int16(truncatingIfNeeded: try unsigned(2, for: "an int 16", at: start))))
            case 0xd2: value = .int(Int64(Int32(truncatingIfNeeded: try unsigned(4, for: "an int 32", at: start))))
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
                    // Every element takes at least one byte: a count the rest of the body cannot hold fails now,
                    // before any allocation.
                    let minimum = isMap ? count * 2 : count
                    guard minimum <= remaining else {
                        throw invalid(
                            "The MessagePack \(isMap ? "map" : "array") at offset \(start) declares \(count) "
                                + "\(isMap ? "entries" : "elements") but only \(remaining) bytes remain; the body is "
                                + "truncated or corrupt.", at: start)
                    }
                    guard stack.count < options.maxDepth else {
                        throw SerializationError(
                            code: .limitExceeded,
                            message: "The MessagePack body nests arrays and maps deeper than maxDepth "
                                + "(\(options.maxDepth)) at offset \(start); raise the maxDepth option to accept it.",
                            offset: start)
                    }
                    var frame = Frame(isMap: isMap, remaining: count)
                    if isMap { frame.entries.reserveCapacity(count) } else { frame.elements.reserveCapacity(count) }
                    stack.append(frame)
                    continue
                }
            }
            // Hand the finished value to the open containers, closing those it completes.
            while true {
                guard var frame = stack.popLast() else { return value }
                if frame.isMap {
                    if let key = frame.pendingKey {
                        frame.entries.append(MessagePackValue.Entry(key, value))
                        frame.pendingKey = nil
                        frame.remaining -= 1
                    } else {
                        frame.pendingKey = value
                    }
                } else {
                    frame.elements.append(value)
                    frame.remaining -= 1
                }
                if frame.remaining > 0 {
                    stack.append(frame)
                    break
                }
                value = frame.isMap ? .map(frame.entries) : .array(frame.elements)
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

    mutating func string(_ length: Int, at start: Int) throws(SerializationError) -> MessagePackValue {
        let slice = try take(length, for: "a str", at: start)
        if let string = String(validating: slice, as: UTF8.self) { return .string(string) }
        if options.replacesInvalidUTF8 { return .string(String(decoding: slice, as: UTF8.self)) }
        var valid = slice.startIndex
        var iterator = slice.makeIterator()
        var decoder = UTF8()
        var consumed = 0
        loop: while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                consumed += UTF8.width(scalar)
                valid = slice.startIndex + consumed
            case .emptyInput, .error: break loop
            }
        }
        throw SerializationError(
            code: .invalidEncoding,
            message: "The MessagePack str at offset \(start) is not valid UTF-8 (bad byte at offset \(valid)); "
                + "fix the sender, or set the replaceInvalidUTF8 option to replace bad sequences with U+FFFD.",
            offset: valid)
    }

    mutating func ext(length: Int, at start: Int) throws(SerializationError) -> MessagePackValue {
        let type = Int8(bitPattern: UInt8(try unsigned(1, for: "an ext type", at: start)))
        let data = try take(length, for: "an ext", at: start)
        guard type == -1 else { return .ext(type: type, data: Array(data)) }
        var bits: UInt64 = 0
        let seconds: Int64
        let nanoseconds: UInt64
        switch data.count {
        case 4:
            for byte in data { bits = bits << 8 | UInt64(byte) }
            seconds = Int64(bits)
            nanoseconds = 0
        case 8:
            for byte in data { bits = bits << 8 | UInt64(byte) }
            nanoseconds = bits >> 34
            seconds = Int64(bits & 0x3_ffff_ffff)
        case 12:
            for byte in data.prefix(4) { bits = bits << 8 | UInt64(byte) }
            nanoseconds = bits
            var secondBits: UInt64 = 0
            for byte in data.dropFirst(4) { secondBits = secondBits << 8 | UInt64(byte) }
            seconds = Int64(bitPattern: secondBits)
        default:
            throw invalid(
                "The MessagePack timestamp (extension type -1) at offset \(start) has \(data.count) bytes of data; "
                    + "the specification defines only 4, 8 and 12.", at: start)
        }
        guard nanoseconds <= 999_999_999 else {
            throw invalid(
                "The MessagePack timestamp at offset \(start) has \(nanoseconds) nanoseconds, more than "
                    + "999,999,999; the timestamp is corrupt.", at: start)
        }
        return .timestamp(seconds: seconds, nanoseconds: UInt32(nanoseconds))
    }
}
