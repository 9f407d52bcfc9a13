public import DecantCore
import DecantValueTree

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// Writes ``CBORValue``s as CBOR (RFC 8949) bytes, in preferred serialization (§4.1) and, with
/// ``CBORWritingOptions/deterministic``, in core deterministic encoding (§4.2.1).
///
/// Preferred serialization:
/// - Every head (integers, lengths, tag numbers) takes the shortest of its five forms: the argument in the initial
///   byte below 24, else in 1, 2, 4 or 8 bytes.
/// - Strings, arrays and maps have definite lengths.
/// - A float is written in the shortest of half, single and double precision that holds exactly its value (`1.5` is
///   `f9 3e 00`, `100000.0` is `fa 47 c3 50 00`, `1.1` is `fb 3f f1 99 99 99 99 99 9a`); infinities are half
///   precision, and every NaN is the quiet NaN `f9 7e 00`. The sign of zero is kept (`-0.0` is `f9 80 00`).
/// - A ``CBORValue/bignum(negative:magnitude:)`` is tag 2 or 3 over its magnitude without leading zero bytes
///   (§3.4.3), or a plain integer when the magnitude fits 64 bits.
///
/// A parsed ``CBORValue`` does not remember how its bytes were written, so what preferred serialization would change
/// is written the preferred way: indefinite-length strings, arrays and maps become definite, heads that were longer
/// than needed become shortest, floats wider than needed become narrower, and bignums that fit 64 bits become
/// integers. Parsing then writing a body gives it back byte for byte exactly when it was in preferred serialization
/// (all of RFC 8949 Appendix A's examples that are, for instance). Maps are written with their entries in order;
/// ``CBORValue/tag(_:_:)`` and ``CBORValue/simple(_:)`` as they are (a `simple` below 24 in the initial byte, 24 and
/// above in the two-byte form `f8 nn`; simple values 24-31 have only that form, which RFC 8949 §3.3 makes not
/// well-formed: ``CBORParser`` reads it back only with ``CBORParsingOptions/allowsTwoByteLowSimpleValues``, as it was
/// read in the first place).
///
/// The writer keeps its own stack, so a value nested to any depth is written without recursion.
///
/// ```swift
/// let bytes = try CBORWriter().write(.map([.init(key: .text("a"), value: .float(1.5))]))   // a1 61 61 f9 3e 00
/// ```
public struct CBORWriter: Sendable {
    /// The choices: preferred serialization, or core deterministic encoding.
    public var options: CBORWritingOptions

    /// Creates a writer.
    public init(options: CBORWritingOptions = CBORWritingOptions()) {
        self.options = options
    }

    /// The bytes of `value`: one CBOR data item.
    ///
    /// - Throws: `SerializationError` with code `encodingFailed` when ``CBORWritingOptions/deterministic`` is set and a
    ///   map has two keys with the same encoding (the coding path names the map).
    public func write(_ value: CBORValue) throws(SerializationError) -> Data {
        var sink = ByteSink()
        try Self.write(value, deterministic: options.deterministic, to: &sink)
        return Data(sink.bytes(from: 0))
    }

    /// Appends the bytes of `value` to `output`: for a CBOR sequence (RFC 8742), append its items one after another.
    ///
    /// - Throws: `SerializationError` as ``write(_:)`` does; `output` then holds a partial item.
    public func append(_ value: CBORValue, to output: inout [UInt8]) throws(SerializationError) {
        var sink = ByteSink()
        try Self.write(value, deterministic: options.deterministic, to: &sink)
        output.append(contentsOf: sink.bytes(from: 0))
    }
}

extension CBORWriter {
    /// An open array or map: its children and the next one to write.
    private struct Frame {
        var elements: [CBORValue] = []
        var entries: [CBORValue.MapEntry] = []
        var isMap: Bool
        /// The next child: an element index, or for a map twice the entry index, plus one for the value.
        var next = 0
        /// The number of children: elements, or twice the entries.
        var count: Int
        /// In deterministic encoding, the offset in the output where each key and each value of the map begins.
        var starts: [Int] = []

        /// The child being written, for coding paths: its index in an array, its key's text in a map (`(key)` for
        /// another key, and while the key itself is written).
        var pathComponent: String {
            guard isMap else { return String(next - 1) }
            guard (next - 1) & 1 == 1, case .text(let name) = entries[(next - 1) >> 1].key else { return "(key)" }
            return name
        }
    }

    /// Writes `root` and everything in it, with an explicit stack of the open containers.
    private static func write(
        _ root: CBORValue, deterministic: Bool, to output: inout ByteSink
    ) throws(SerializationError) {
        var stack: [Frame] = []
        var current: CBORValue? = root
        while true {
            if let value = current {
                current = nil
                switch value {
                case .unsignedInteger(let argument): CBORWriter.appendHead(0, argument, to: &output)
                case .negativeInteger(let argument): CBORWriter.appendHead(1, argument, to: &output)
                case .bignum(let negative, let magnitude): CBORWriter.appendBignum(negative, magnitude, to: &output)
                case .bytes(let data):
                    CBORWriter.appendHead(2, UInt64(data.count), to: &output)
                    data.withUnsafeBytes { output.append($0) }
                case .text(let text):
                    CBORWriter.appendHead(3, UInt64(text.utf8.count), to: &output)
                    output.append(utf8: text)
                case .array(let elements):
                    CBORWriter.appendHead(4, UInt64(elements.count), to: &output)
                    if !elements.isEmpty {
                        stack.append(Frame(elements: elements, isMap: false, count: elements.count))
                    }
                case .map(let entries):
                    CBORWriter.appendHead(5, UInt64(entries.count), to: &output)
                    if !entries.isEmpty {
                        var frame = Frame(entries: entries, isMap: true, count: entries.count * 2)
                        if deterministic && entries.count > 1 { frame.starts.reserveCapacity(frame.count + 1) }
                        stack.append(frame)
                    }
                case .tag(let number, let content):
                    CBORWriter.appendHead(6, number, to: &output)
                    current = content
                    continue
                case .simple(let number):
                    if number < 24 {
                        output.append(0xE0 | number)
                    } else {
                        output.append(0xF8)
                        output.append(number)
                    }
                case .bool(let flag): output.append(flag ? 0xF5 : 0xF4)
                case .null: output.append(0xF6)
                case .undefined: output.append(0xF7)
                case .float(let double): CBORWriter.appendFloat(double, to: &output)
                }
            }
            guard !stack.isEmpty else { return }
            let top = stack.count - 1
            let next = stack[top].next
            if next == stack[top].count {
                if deterministic && stack[top].isMap && stack[top].count > 2 {
                    let frame = stack.removeLast()
                    try sortEntries(of: frame, in: &output, path: stack)
                } else {
                    stack.removeLast()
                }
                continue
            }
            stack[top].next = next + 1
            if stack[top].isMap {
                if deterministic && stack[top].count > 2 { stack[top].starts.append(output.count) }
                current = next & 1 == 0 ? stack[top].entries[next >> 1].key : stack[top].entries[next >> 1].value
            } else {
                current = stack[top].elements[next]
            }
        }
    }

    /// Reorders the entries of a map just written by the bytes of their keys (RFC 8949 §4.2.1). Maps inside
    /// were sorted when they were closed, so every key is already in its deterministic encoding.
    private static func sortEntries(
        of frame: Frame, in output: inout ByteSink, path stack: [Frame]
    ) throws(SerializationError) {
        let starts = frame.starts + [output.count]
        let count = frame.entries.count
        let bytes = output.bytes(from: 0)
        func key(_ entry: Int) -> UnsafeBufferPointer<UInt8> {
            UnsafeBufferPointer(rebasing: bytes[starts[2 * entry]..<starts[2 * entry + 1]])
        }
        let order = (0..<count).sorted { key($0).lexicographicallyPrecedes(key($1)) }
        var duplicate: Int?
        for index in 1..<count where key(order[index - 1]).elementsEqual(key(order[index])) {
            duplicate = order[index]
            break
        }
        if let duplicate {
            throw SerializationError(
                code: .encodingFailed,
                message: "A map has the key \(frame.entries[duplicate].key.kindName) twice, so it has no "
                    + "deterministic encoding (RFC 8949 §4.2.1; such a map is not valid CBOR, §5.6). Remove the "
                    + "repeated key, or write without deterministic encoding.",
                codingPath: stack.map(\.pathComponent))
        }
        guard order != Array(0..<count) else { return }
        let segment = starts[0]
        var sorted: [UInt8] = []
        sorted.reserveCapacity(output.count - segment)
        for entry in order {
            sorted.append(contentsOf: bytes[starts[2 * entry]..<starts[2 * entry + 2]])
        }
        output.overwrite(from: segment, with: sorted)
    }

    /// Appends a head: the major type and its argument in the shortest form (RFC 8949 §3, §4.1).
    @inline(__always)
    static func appendHead(_ major: UInt8, _ argument: UInt64, to output: inout ByteSink) {
        let type = major << 5
        if argument < 24 {
            output.append(type | UInt8(argument))
        } else if argument <= 0xFF {
            output.append(type | 24)
            output.append(UInt8(argument))
        } else if argument <= 0xFFFF {
            output.append(type | 25)
            appendBigEndian(UInt16(argument), to: &output)
        } else if argument <= 0xFFFF_FFFF {
            output.append(type | 26)
            appendBigEndian(UInt32(argument), to: &output)
        } else {
            output.append(type | 27)
            appendBigEndian(argument, to: &output)
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

    /// A bignum: a plain integer when the magnitude fits 64 bits, else tag 2 or 3 over the magnitude without leading
    /// zero bytes (RFC 8949 §3.4.3).
    static func appendBignum(_ negative: Bool, _ magnitude: [UInt8], to output: inout ByteSink) {
        let digits = magnitude.drop { $0 == 0 }
        if digits.count <= 8 {
            appendHead(negative ? 1 : 0, digits.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }, to: &output)
            return
        }
        appendHead(6, negative ? 3 : 2, to: &output)
        appendHead(2, UInt64(digits.count), to: &output)
        digits.withUnsafeBytes { output.append($0) }
    }

    /// A float in the shortest of half, single and double precision that holds its value exactly; NaN as `f9 7e 00`.
    static func appendFloat(_ double: Double, to output: inout ByteSink) {
        if double.isNaN {
            output.append(0xF9)
            output.append(0x7E)
            output.append(0x00)
            return
        }
        let single = Float(double)
        guard Double(single) == double else {
            output.append(0xFB)
            appendBigEndian(double.bitPattern, to: &output)
            return
        }
        if let half = halfBits(single.bitPattern) {
            output.append(0xF9)
            appendBigEndian(half, to: &output)
        } else {
            output.append(0xFA)
            appendBigEndian(single.bitPattern, to: &output)
        }
    }

    /// The half-precision bits of a single-precision value (not NaN) when half precision holds it exactly.
    static func halfBits(_ bits: UInt32) -> UInt16? {
        let sign = UInt16(truncatingIfNeeded: bits >> 16) & 0x8000
        let biased = Int((bits >> 23) & 0xFF)
        let mantissa = bits & 0x7F_FFFF
        if biased == 0xFF { return mantissa == 0 ? sign | 0x7C00 : nil }
        // Zero, or a single-precision subnormal (below 2^-126, far below the smallest half, 2^-24).
        if biased == 0 { return mantissa == 0 ? sign : nil }
        let exponent = biased - 127
        if exponent >= -14 && exponent <= 15 {
            // A normal half: ten bits of mantissa.
            guard mantissa & 0x1FFF == 0 else { return nil }
            return sign | UInt16(exponent + 15) << 10 | UInt16(mantissa >> 13)
        }
        if exponent >= -24 && exponent < -14 {
            // A subnormal half: the value is (2^23 + mantissa) * 2^(exponent - 23) = h * 2^-24.
            let significand = mantissa | 0x80_0000
            let shift = UInt32(-exponent - 1)
            guard significand & ((1 << shift) - 1) == 0 else { return nil }
            return sign | UInt16(significand >> shift)
        }
        return nil
    }
}
