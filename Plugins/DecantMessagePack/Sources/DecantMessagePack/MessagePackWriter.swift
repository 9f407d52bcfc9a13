public import DecantCore
import DecantValueTree

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// Writes ``MessagePackValue``s as MessagePack bytes, each in its smallest representation (the MessagePack
/// specification, msgpack/msgpack `spec.md`).
///
/// - Integers: a positive fixint (0...127) or negative fixint (-32...-1) when one holds the value; else a non-negative
///   integer takes the smallest of uint 8/16/32/64 and a negative one the smallest of int 8/16/32/64 (so 200 is
///   `cc c8`, never `d1 00 c8`).
/// - Floats keep their width: ``MessagePackValue/float32(_:)`` is float 32 (`ca`), ``MessagePackValue/float64(_:)``
///   float 64 (`cb`).
/// - Strings: fixstr up to 31 bytes, then str 8, str 16, str 32; binary: bin 8, bin 16, bin 32 (str 8 and bin are the
///   2013 specification's; readers older than it know neither).
/// - Arrays and maps: fixarray and fixmap up to 15 elements or entries, then array/map 16 and 32. Map entries are
///   written in their order.
/// - Timestamps (extension type -1): timestamp 32 when the nanoseconds are zero and the seconds fit 32 unsigned bits,
///   else timestamp 64 when the seconds fit 34 unsigned bits, else timestamp 96.
/// - Other extensions: fixext 1, 2, 4, 8 or 16 when the data has exactly that size, else ext 8, 16 or 32.
///
/// A parsed value does not remember how it was written, so a body whose items were not in their smallest form (`cd
/// 00 01` for 1) is written smaller; every value of the msgpack-test-suite corpus is written in one of the forms the
/// suite lists for it. The writer keeps its own stack, so a value nested to any depth is written without recursion.
///
/// ```swift
/// let bytes = try MessagePackWriter().write(.map([.init(.string("a"), .int(200))]))   // 81 a1 61 cc c8
/// ```
public struct MessagePackWriter: Sendable {
    /// Creates a writer.
    public init() {}

    /// The bytes of `value`: one MessagePack object.
    ///
    /// - Throws: `SerializationError` with code `encodingFailed` (with the coding path) for what MessagePack cannot
    ///   hold: a string, binary, extension data, array or map longer than 2^32 - 1 bytes or elements, or a timestamp
    ///   whose nanoseconds exceed 999,999,999.
    public func write(_ value: MessagePackValue) throws(SerializationError) -> Data {
        var sink = ByteSink()
        try Self.write(value, to: &sink)
        return Data(sink.bytes(from: 0))
    }

    /// Appends the bytes of `value` to `output`: for a stream of objects, append them one after another.
    ///
    /// - Throws: `SerializationError` as ``write(_:)`` does; `output` then holds a partial object.
    public func append(_ value: MessagePackValue, to output: inout [UInt8]) throws(SerializationError) {
        var sink = ByteSink()
        try Self.write(value, to: &sink)
        output.append(contentsOf: sink.bytes(from: 0))
    }

    /// Writes `value` and everything in it, with an explicit stack of the open containers.
    private static func write(_ value: MessagePackValue, to output: inout ByteSink) throws(SerializationError) {
        var stack: [Frame] = []
        var current: MessagePackValue? = value
        while true {
            if let value = current {
                current = nil
                switch value {
                case .nil: output.append(0xC0)
                case .bool(let flag): output.append(flag ? 0xC3 : 0xC2)
                case .int(let integer): appendInteger(integer, to: &output)
                case .uint(let integer):
                    output.append(0xCF)
                    appendBigEndian(integer, to: &output)
                case .float32(let float):
                    output.append(0xCA)
                    appendBigEndian(float.bitPattern, to: &output)
                case .float64(let double):
                    output.append(0xCB)
                    appendBigEndian(double.bitPattern, to: &output)
                case .string(let string):
                    let count = string.utf8.count
                    if count < 32 {
                        output.append(0xA0 | UInt8(count))
                    } else {
                        try appendLength(count, codes: (0xD9, 0xDA, 0xDB), of: "a string", stack, to: &output)
                    }
                    output.append(utf8: string)
                case .binary(let bytes):
                    try appendLength(bytes.count, codes: (0xC4, 0xC5, 0xC6), of: "binary data", stack, to: &output)
                    bytes.withUnsafeBytes { output.append($0) }
                case .array(let elements):
                    if elements.count < 16 {
                        output.append(0x90 | UInt8(elements.count))
                    } else {
                        try appendLength(
                            elements.count, codes: nil, array: true, of: "an array", stack, to: &output)
                    }
                    if !elements.isEmpty { stack.append(Frame(elements: elements, count: elements.count)) }
                case .map(let entries):
                    if entries.count < 16 {
                        output.append(0x80 | UInt8(entries.count))
                    } else {
                        try appendLength(entries.count, codes: nil, array: false, of: "a map", stack, to: &output)
                    }
                    if !entries.isEmpty { stack.append(Frame(entries: entries, count: entries.count * 2)) }
                case .ext(let type, let data):
                    try appendExtension(type: type, data, stack, to: &output)
                case .timestamp(let seconds, let nanoseconds):
                    try appendTimestamp(seconds: seconds, nanoseconds: nanoseconds, stack, to: &output)
                }
            }
            guard let top = stack.indices.last else { return }
            let next = stack[top].next
            if next == stack[top].count {
                stack.removeLast()
                continue
            }
            stack[top].next = next + 1
            if stack[top].isMap {
                current = next & 1 == 0 ? stack[top].entries[next >> 1].key : stack[top].entries[next >> 1].value
            } else {
                current = stack[top].elements[next]
            }
        }
    }
}

extension MessagePackWriter {
    /// An open array or map: its children and the next one to write.
    private struct Frame {
        var elements: [MessagePackValue] = []
        var entries: [MessagePackValue.Entry] = []
        /// The number of children: elements, or twice the entries.
        var count: Int
        /// The next child: an element index, or for a map twice the entry index, plus one for the value.
        var next = 0
        var isMap: Bool

        init(elements: [MessagePackValue], count: Int) {
            self.elements = elements
            self.count = count
            isMap = false
        }

        init(entries: [MessagePackValue.Entry], count: Int) {
            self.entries = entries
            self.count = count
            isMap = true
        }

        /// The child being written, for coding paths: its index, or its key's text in a map (`(key)` otherwise).
        var pathComponent: String {
            guard isMap else { return String(next - 1) }
            guard (next - 1) & 1 == 1, case .string(let name) = entries[(next - 1) >> 1].key else { return "(key)" }
            return name
        }
    }

    /// The error for a value MessagePack cannot hold.
    private static func failure(_ message: String, _ stack: [Frame]) -> SerializationError {
        SerializationError(code: .encodingFailed, message: message, codingPath: stack.map(\.pathComponent))
    }

    /// An integer in the smallest form: fixints, else uint 8-64 for non-negative values and int 8-64 for negative ones.
    @inline(__always)
    static func appendInteger(_ integer: Int64, to output: inout ByteSink) {
        if integer >= 0 {
            if integer < 128 {
                output.append(UInt8(integer))
            } else if integer <= 0xFF {
                output.append(0xCC)
                output.append(UInt8(integer))
            } else if integer <= 0xFFFF {
                output.append(0xCD)
                appendBigEndian(UInt16(integer), to: &output)
            } else if integer <= 0xFFFF_FFFF {
                output.append(0xCE)
                appendBigEndian(UInt32(integer), to: &output)
            } else {
                output.append(0xCF)
                appendBigEndian(UInt64(integer), to: &output)
            }
        } else if integer >= -32 {
            output.append(UInt8(truncatingIfNeeded: integer))
        } else if integer >= -128 {
            output.append(0xD0)
            output.append(UInt8(truncatingIfNeeded: integer))
        } else if integer >= -32768 {
            output.append(0xD1)
            appendBigEndian(UInt16(truncatingIfNeeded: integer), to: &output)
        } else if integer >= -2_147_483_648 {
            output.append(0xD2)
            appendBigEndian(UInt32(truncatingIfNeeded: integer), to: &output)
        } else {
            output.append(0xD3)
            appendBigEndian(UInt64(truncatingIfNeeded: integer), to: &output)
        }
    }

    @inline(__always)
    static func appendBigEndian<T: FixedWidthInteger>(_ value: T, to output: inout ByteSink) {
        var shift = T.bitWidth - 8
        while shift >= 0 {
            output.append(UInt8(truncatingIfNeeded: value >> shift))
            shift -= 8
        }
    }

    /// A length with an 8-, 16- or 32-bit field (`codes` for str and bin), or a 16- or 32-bit one (array and map).
    private static func appendLength(
        _ count: Int, codes: (UInt8, UInt8, UInt8)?, array: Bool = false, of kind: String,
        _ stack: @autoclosure () -> [Frame],
        to output: inout ByteSink
    ) throws(SerializationError) {
        if let codes, count <= 0xFF {
            output.append(codes.0)
            output.append(UInt8(count))
        } else if count <= 0xFFFF {
            output.append(codes?.1 ?? (array ? 0xDC : 0xDE))
            appendBigEndian(UInt16(count), to: &output)
        } else if count <= 0xFFFF_FFFF {
            output.append(codes?.2 ?? (array ? 0xDD : 0xDF))
            appendBigEndian(UInt32(count), to: &output)
        } else {
            throw failure(
                "MessagePack cannot hold \(kind) of \(count) \(codes == nil ? "elements" : "bytes"): its longest "
                    + "is 4,294,967,295.", stack())
        }
    }

    /// An extension: fixext for data of 1, 2, 4, 8 or 16 bytes, else ext 8, 16 or 32.
    private static func appendExtension(
        type: Int8, _ data: [UInt8], _ stack: @autoclosure () -> [Frame], to output: inout ByteSink
    ) throws(SerializationError) {
        switch data.count {
        case 1: output.append(0xD4)
        case 2: output.append(0xD5)
        case 4: output.append(0xD6)
        case 8: output.append(0xD7)
        case 16: output.append(0xD8)
        default:
            try appendLength(data.count, codes: (0xC7, 0xC8, 0xC9), of: "extension data", stack(), to: &output)
        }
        output.append(UInt8(bitPattern: type))
        data.withUnsafeBytes { output.append($0) }
    }

    /// A timestamp (extension type -1) in the smallest of its three forms.
    private static func appendTimestamp(
        seconds: Int64, nanoseconds: UInt32, _ stack: @autoclosure () -> [Frame], to output: inout ByteSink
    ) throws(SerializationError) {
        guard nanoseconds <= 999_999_999 else {
            throw failure(
                "A timestamp has \(nanoseconds) nanoseconds; MessagePack's timestamps hold 0 to 999,999,999.", stack())
        }
        if seconds >= 0 && seconds >> 34 == 0 {
            if nanoseconds == 0 && seconds >> 32 == 0 {
                output.append(0xD6)
                output.append(0xFF)
                appendBigEndian(UInt32(seconds), to: &output)
            } else {
                output.append(0xD7)
                output.append(0xFF)
                appendBigEndian(UInt64(nanoseconds) << 34 | UInt64(seconds), to: &output)
            }
        } else {
            output.append(0xC7)
            output.append(12)
            output.append(0xFF)
            appendBigEndian(nanoseconds, to: &output)
            appendBigEndian(UInt64(bitPattern: seconds), to: &output)
        }
    }
}
