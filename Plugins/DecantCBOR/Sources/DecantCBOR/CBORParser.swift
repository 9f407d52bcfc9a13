public import DecantCore

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// Decodes CBOR (RFC 8949) data items into ``CBORValue``s: one item (`application/cbor`) or a sequence of items
/// (`application/cbor-seq`, RFC 8742).
///
/// Every major type is supported, with definite and indefinite lengths (RFC 8949 §3.2), half-, single- and
/// double-precision floats (half precision decoded as in Appendix D), all simple values and tags. The bignums of
/// tags 2 and 3 (§3.4.3) become integers: ``CBORValue/unsignedInteger(_:)`` or ``CBORValue/negativeInteger(_:)``
/// when they fit, else ``CBORValue/bignum(negative:magnitude:)`` up to ``maxBignumBytes`` bytes of magnitude (larger
/// ones stay ``CBORValue/tag(_:_:)``). Other tags are kept as a tag number and content.
///
/// A body that is not well-formed (§5.3.1: truncated, reserved additional information 28-30, a break outside an
/// indefinite-length item, a chunk of the wrong type inside an indefinite-length string, a two-byte simple value
/// below 32) fails with `SerializationError.Code.invalidBody` and the byte ``SerializationError/offset`` of the
/// offending head; so do text strings that are not valid UTF-8 and duplicate map keys (unless
/// ``CBORParsingOptions/duplicateKeys`` is ``CBORParsingOptions/DuplicateKeyPolicy/lastWins``).
///
/// The parser is linear in the body's size, recursion-free (it keeps its own stack), and never allocates from a
/// declared length more than the remaining bytes could hold: a header claiming 2^60 elements fails at once.
///
/// ```swift
/// let value = try CBORParser().parse(Data([0xA1, 0x61, 0x61, 0x01]))   // {"a": 1}
/// value["a"]   // .unsignedInteger(1)
/// ```
public struct CBORParser: Sendable {
    /// The largest bignum magnitude (tags 2 and 3) turned into an integer, in bytes: 4,096 (9,865 decimal digits).
    /// Larger bignums stay tags, so that printing them in decimal (quadratic in their length) stays cheap.
    public static let maxBignumBytes = 4096

    /// The limits and the duplicate-key policy.
    public var options: CBORParsingOptions

    /// Creates a parser.
    public init(options: CBORParsingOptions = CBORParsingOptions()) {
        self.options = options
    }

    /// Decodes `data` as exactly one data item (`application/cbor`).
    ///
    /// - Throws: `SerializationError` with code `invalidBody` (with the byte offset) when the body is empty, not
    ///   well-formed or followed by extra bytes, or `limitExceeded` when it exceeds a limit of ``options``.
    public func parse(_ data: Data) throws(SerializationError) -> CBORValue {
        let items = try decode(data, sequence: false)
        guard let first = items.first else {
            throw SerializationError(
                code: .invalidBody, message: "The body is empty: a CBOR document holds exactly one data item.",
                offset: 0)
        }
        return first
    }

    /// Decodes `data` as a CBOR sequence (RFC 8742): zero or more data items, one after another.
    ///
    /// - Throws: `SerializationError` as ``parse(_:)`` does.
    public func parseSequence(_ data: Data) throws(SerializationError) -> [CBORValue] {
        try decode(data, sequence: true)
    }

    private func decode(_ data: Data, sequence: Bool) throws(SerializationError) -> [CBORValue] {
        do {
            return try data.withUnsafeBytes { raw in
                var reader = CBORReader(bytes: raw, options: options)
                var items: [CBORValue] = []
                while reader.position < raw.count {
                    if !sequence && !items.isEmpty {
                        throw SerializationError(
                            code: .invalidBody,
                            message: "Extra bytes follow the data item at offset \(reader.position): an "
                                + "application/cbor body holds exactly one item. Send one item, or label a "
                                + "sequence of items application/cbor-seq.",
                            offset: reader.position)
                    }
                    try reader.countItems(1, at: reader.position)
                    items.append(try reader.readItem())
                }
                return items
            }
        } catch let error as SerializationError {
            throw error
        } catch {
            throw SerializationError(wrapping: error)
        }
    }
}

/// One open container while reading: an array, a map, a tag or the chunks of an indefinite-length string.
private struct Frame {
    enum Kind {
        case array
        case map
        case byteChunks
        case textChunks
        case tag(UInt64)
    }

    var kind: Kind
    /// The byte offset of the container's head.
    var start: Int
    /// Whether the length is indefinite (ended by a break).
    var indefinite: Bool
    /// The items still expected (a map counts keys and values), when the length is definite.
    var remaining: UInt64
    var elements: [CBORValue] = []
    var entries: [CBORValue.MapEntry] = []
    var pendingKey: CBORValue?
    var pendingKeyOffset = 0
    var keyPositions: [CBORValue: Int] = [:]
    var chunkBytes = Data()
    var chunkText = ""
}

/// The reading state over one body.
private struct CBORReader {
    let bytes: UnsafeRawBufferPointer
    let options: CBORParsingOptions
    var position = 0
    var items = 0

    init(bytes: UnsafeRawBufferPointer, options: CBORParsingOptions) {
        self.bytes = bytes
        self.options = options
    }

    var remainingBytes: Int { bytes.count - position }

    func invalid(_ message: String, at offset: Int) -> SerializationError {
        SerializationError(code: .invalidBody, message: message, offset: offset)
    }

    func truncated(_ what: String, at offset: Int) -> SerializationError {
        invalid(
            "The body ends inside \(what) that starts at offset \(offset): the CBOR is truncated. Send the whole "
                + "document.", at: offset)
    }

    /// Counts `count` more data items against ``CBORParsingOptions/maxItems``.
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
    mutating func argument(_ info: UInt8, headOffset: Int) throws(SerializationError) -> UInt64 {
        let size: Int
        switch info {
        case 0..<24: return UInt64(info)
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
        guard remainingBytes >= size else { throw truncated("the head", at: headOffset) }
        var value: UInt64 = 0
        for _ in 0..<size {
            value = value << 8 | UInt64(bytes[position])
            position += 1
        }
        return value
    }

    mutating func push(_ frame: Frame, into stack: inout [Frame]) throws(SerializationError) {
        guard stack.count < options.maxDepth else {
            throw SerializationError(
                code: .limitExceeded,
                message: "The data item at offset \(frame.start) is nested deeper than \(options.maxDepth) levels "
                    + "(arrays, maps, tags and indefinite-length strings); raise the option maxDepth to accept it.",
                offset: frame.start)
        }
        stack.append(frame)
    }

    /// Reads one data item, without recursion.
    mutating func readItem() throws(SerializationError) -> CBORValue {
        var stack: [Frame] = []
        while true {
            let headOffset = position
            guard position < bytes.count else {
                if let top = stack.last {
                    throw truncated("the container", at: top.start)
                }
                throw truncated("the data item", at: headOffset)
            }
            let initial = bytes[position]
            position += 1
            let major = initial >> 5
            let info = initial & 0x1F
            if let top = stack.last, initial != 0xFF {
                switch top.kind {
                case .byteChunks where major != 2 || info == 31, .textChunks where major != 3 || info == 31:
                    let expected = major == 2 ? "definite-length byte strings" : "definite-length text strings"
                    throw invalid(
                        "The item at offset \(headOffset) inside the indefinite-length string at offset "
                            + "\(top.start) is not a chunk of the same type: only \(expected) may appear there "
                            + "(RFC 8949 §3.2.3).", at: headOffset)
                default: break
                }
            }
            var value: CBORValue
            var valueStart = headOffset
            if initial == 0xFF {
                guard let top = stack.last, top.indefinite else {
                    throw invalid(
                        "A break (0xFF) at offset \(headOffset) is outside any indefinite-length item (RFC 8949 "
                            + "§3.2.1).", at: headOffset)
                }
                if top.pendingKey != nil {
                    throw invalid(
                        "The indefinite-length map at offset \(top.start) ends (break at offset \(headOffset)) "
                            + "after a key without a value.", at: headOffset)
                }
                let frame = stack.removeLast()
                valueStart = frame.start
                value = finish(frame)
            } else {
                switch major {
                case 0:
                    value = .unsignedInteger(try argument(info, headOffset: headOffset))
                case 1:
                    value = .negativeInteger(try argument(info, headOffset: headOffset))
                case 2, 3:
                    if info == 31 {
                        try push(
                            Frame(
                                kind: major == 2 ? .byteChunks : .textChunks, start: headOffset, indefinite: true,
                                remaining: 0), into: &stack)
                        continue
                    }
                    let length = try argument(info, headOffset: headOffset)
                    guard length <= UInt64(remainingBytes) else {
                        throw truncated(major == 2 ? "the byte string" : "the text string", at: headOffset)
                    }
                    let range = position..<position + Int(length)
                    position = range.upperBound
                    let slice = UnsafeRawBufferPointer(rebasing: bytes[range])
                    if major == 2 {
                        value = .bytes(Data(slice))
                    } else {
                        guard let text = String(validating: slice, as: UTF8.self) else {
                            throw invalid(
                                "The text string at offset \(headOffset) is not valid UTF-8 (RFC 8949 §3.1); send "
                                    + "binary data as a byte string.", at: headOffset)
                        }
                        value = .text(text)
                    }
                case 4, 5:
                    if info == 31 {
                        try push(
                            Frame(kind: major == 4 ? .array : .map, start: headOffset, indefinite: true, remaining: 0),
                            into: &stack)
                        continue
                    }
                    let count = try argument(info, headOffset: headOffset)
                    // Every item takes at least one byte: a count the rest of the body cannot hold is truncated,
                    // whatever the limits, and nothing is allocated for it.
                    let perItem: UInt64 = major == 4 ? 1 : 2
                    guard count <= UInt64(remainingBytes) / perItem else {
                        throw truncated(major == 4 ? "the array" : "the map", at: headOffset)
                    }
                    try countItems(count * perItem, at: headOffset)
                    if count == 0 {
                        value = major == 4 ? .array([]) : .map([])
                        break
                    }
                    var frame = Frame(
                        kind: major == 4 ? .array : .map, start: headOffset, indefinite: false,
                        remaining: count * perItem)
                    if major == 4 {
                        frame.elements.reserveCapacity(Int(count))
                    } else {
                        frame.entries.reserveCapacity(Int(count))
                    }
                    try push(frame, into: &stack)
                    continue
                case 6:
                    guard info != 31 else {
                        throw invalid(
                            "The tag at offset \(headOffset) has additional information 31, which is not "
                                + "well-formed for tags (RFC 8949 §3).", at: headOffset)
                    }
                    let number = try argument(info, headOffset: headOffset)
                    try push(
                        Frame(kind: .tag(number), start: headOffset, indefinite: false, remaining: 1), into: &stack)
                    continue
                default:
                    value = try simpleOrFloat(info, headOffset: headOffset)
                }
            }
            // Attach the completed value to the open containers, closing those it completes.
            while true {
                guard !stack.isEmpty else { return value }
                let last = stack.count - 1
                if try attach(value, start: valueStart, to: &stack[last]) { break }
                let frame = stack.removeLast()
                valueStart = frame.start
                value = finish(frame)
            }
        }
    }

    /// Adds `value` to `frame`; returns whether the frame still expects items.
    mutating func attach(_ value: CBORValue, start: Int, to frame: inout Frame) throws(SerializationError) -> Bool {
        if frame.indefinite, case .array = frame.kind {
            try countItems(1, at: start)
        } else if frame.indefinite, case .map = frame.kind {
            try countItems(1, at: start)
        }
        switch frame.kind {
        case .array:
            frame.elements.append(value)
        case .map:
            if let key = frame.pendingKey {
                frame.pendingKey = nil
                if frame.entries.isEmpty {
                    frame.entries.append(CBORValue.MapEntry(key: key, value: value))
                } else {
                    if frame.keyPositions.isEmpty, let first = frame.entries.first {
                        frame.keyPositions[first.key] = 0
                    }
                    if let existing = frame.keyPositions[key] {
                        guard options.duplicateKeys == .lastWins else {
                            throw invalid(
                                "The map at offset \(frame.start) repeats the key at offset "
                                    + "\(frame.pendingKeyOffset) (RFC 8949 §5.6); send unique keys, or set the "
                                    + "option duplicateKeys to lastWins.", at: frame.pendingKeyOffset)
                        }
                        frame.entries[existing].value = value
                    } else {
                        frame.keyPositions[key] = frame.entries.count
                        frame.entries.append(CBORValue.MapEntry(key: key, value: value))
                    }
                }
            } else {
                frame.pendingKey = value
                frame.pendingKeyOffset = start
            }
        case .byteChunks:
            if case .bytes(let chunk) = value { frame.chunkBytes.append(chunk) }
            return true
        case .textChunks:
            if case .text(let chunk) = value { frame.chunkText += chunk }
            return true
        case .tag:
            frame.elements.append(value)
        }
        if frame.indefinite { return true }
        frame.remaining -= 1
        return frame.remaining > 0
    }

    /// The value of a closed frame.
    func finish(_ frame: Frame) -> CBORValue {
        switch frame.kind {
        case .array: return .array(frame.elements)
        case .map: return .map(frame.entries)
        case .byteChunks: return .bytes(frame.chunkBytes)
        case .textChunks: return .text(frame.chunkText)
        case .tag(let number):
            let content = frame.elements.first ?? .null
            guard number == 2 || number == 3, case .bytes(let data) = content else { return .tag(number, content) }
            let magnitude = Array(data.drop { $0 == 0 })
            guard magnitude.count <= CBORParser.maxBignumBytes else { return .tag(number, content) }
            if magnitude.count <= 8 {
                let small = magnitude.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
                return number == 2 ? .unsignedInteger(small) : .negativeInteger(small)
            }
            return .bignum(negative: number == 3, magnitude: magnitude)
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
