import DecantCore

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// How ``JSONValue/jsonData(options:)`` writes JSON text.
public struct JSONWritingOptions: OptionSet, Sendable, Hashable {
    /// The option bits.
    public let rawValue: Int

    /// Creates options from their bits.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// One element or member per line, indented by two spaces, with `": "` after keys; empty containers stay `[]`
    /// and `{}` (``JSONValueEncoder`` lays out its output the same way).
    public static let prettyPrinted = JSONWritingOptions(rawValue: 1 << 0)
    /// Object members ordered by key, comparing Unicode scalars (UTF-8 bytes), instead of in document order.
    public static let sortedKeys = JSONWritingOptions(rawValue: 1 << 1)
}

extension JSONValue {
    /// The value as UTF-8 JSON text (RFC 8259 §8.1), compact unless `options` say otherwise.
    ///
    /// Numbers are written back as their exact text, so parsing then writing a compact document reproduces it byte
    /// for byte, apart from whitespace and string escapes: strings escape only `"`, `\` and control characters
    /// (`\b \f \n \r \t`, else `\u00XX`), as RFC 8259 §7 requires, and keep everything else, `/` and non-ASCII
    /// included, as UTF-8. Writes without recursion, so any depth is safe.
    public func jsonData(options: JSONWritingOptions = []) -> Data {
        var output: [UInt8] = []
        appendJSON(options: options, to: &output)
        return Data(output)
    }

    /// Appends the text ``jsonData(options:)`` returns to `output`, without copying it into a `Data`: for writers
    /// that put several values in one buffer (the `decant` tool's output).
    package func appendJSON(options: JSONWritingOptions = [], to output: inout [UInt8]) {
        JSONWriter(storage: storage, options: options).write(index, into: &output)
    }
}

/// Writes tape values as JSON text.
struct JSONWriter {
    let storage: JSONStorage
    let options: JSONWritingOptions
    /// The depth of the value in the text it is written into (for its indentation when pretty-printed): 0 for a
    /// whole document.
    var baseDepth = 0

    private struct Frame {
        var isObject: Bool
        /// The next member or element: a tape index, or an index into `sorted` when keys are sorted.
        var next: Int
        var end: Int
        var sorted: [Int]?
        var isFirst = true
    }

    func write(_ root: Int, into output: inout [UInt8]) {
        let pretty = options.contains(.prettyPrinted)
        let sortsKeys = options.contains(.sortedKeys)
        output.reserveCapacity(output.count + storage.bytes.count + storage.tape.count * 2)
        var stack: [Frame] = []

        // Writes a scalar, or opens a container (pushing a frame unless it is empty).
        func open(_ index: Int, _ output: inout [UInt8], _ stack: inout [Frame]) {
            let entry = storage.tape[index]
            let kind = Tape.kind(entry)
            guard kind >= Tape.arrayKind else {
                writeScalar(index, into: &output)
                return
            }
            let isObject = kind == Tape.objectKind
            let end = index + Tape.size(entry)
            output.append(isObject ? UInt8(ascii: "{") : UInt8(ascii: "["))
            if end == index + 1 {
                JSONLayout.end(
                    isObject ? UInt8(ascii: "}") : UInt8(ascii: "]"), hasItems: false, depth: 0, pretty: false,
                    into: &output)
                return
            }
            var sorted: [Int]?
            if isObject && sortsKeys { sorted = storage.sortedKeyPositions(inObjectAt: index) }
            stack.append(Frame(isObject: isObject, next: sorted == nil ? index + 1 : 0, end: end, sorted: sorted))
        }

        open(root, &output, &stack)
        while !stack.isEmpty {
            let top = stack.count - 1
            let position: Int
            if let sorted = stack[top].sorted {
                if stack[top].next < sorted.count {
                    position = sorted[stack[top].next]
                    stack[top].next += 1
                } else {
                    position = -1
                }
            } else if stack[top].next < stack[top].end {
                position = stack[top].next
                stack[top].next = storage.end(of: stack[top].isObject ? position + 1 : position)
            } else {
                position = -1
            }
            if position < 0 {
                let frame = stack.removeLast()
                JSONLayout.end(
                    frame.isObject ? UInt8(ascii: "}") : UInt8(ascii: "]"), hasItems: true,
                    depth: baseDepth + stack.count, pretty: pretty, into: &output)
                continue
            }
            JSONLayout.beginItem(
                first: stack[top].isFirst, depth: baseDepth + stack.count, pretty: pretty, into: &output)
            stack[top].isFirst = false
            if stack[top].isObject {
                writeString(position, into: &output)
                JSONLayout.afterKey(pretty: pretty, into: &output)
                open(position + 1, &output, &stack)
            } else {
                open(position, &output, &stack)
            }
        }
    }

    func writeScalar(_ index: Int, into output: inout [UInt8]) {
        let entry = storage.tape[index]
        switch Tape.kind(entry) {
        case Tape.nullKind: output.append(contentsOf: "null".utf8)
        case Tape.falseKind: output.append(contentsOf: "false".utf8)
        case Tape.trueKind: output.append(contentsOf: "true".utf8)
        case Tape.integerKind: Self.writeInteger(Tape.integerValue(entry), into: &output)
        case Tape.numberKind: storage.withSpan(at: index) { output.append(contentsOf: $0) }
        default: writeString(index, into: &output)
        }
    }

    /// Writes an integer's exact decimal text.
    @inline(__always)
    static func writeInteger(_ value: Int64, into output: inout [UInt8]) {
        writeInteger(magnitude: value.magnitude, negative: value < 0, into: &output)
    }

    /// Writes the exact decimal text of the integer `magnitude`, with a `-` when `negative`.
    static func writeInteger(magnitude: UInt64, negative: Bool, into output: inout [UInt8]) {
        if negative { output.append(UInt8(ascii: "-")) }
        var magnitude = magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
        withUnsafeMutableBytes(of: &digits) { buffer in
            var position = buffer.count
            repeat {
                position -= 1
                buffer[position] = UInt8(truncatingIfNeeded: magnitude % 10) + 0x30
                magnitude /= 10
            } while magnitude > 0
            output.append(contentsOf: buffer[position...])
        }
    }

    /// Writes the string at `index` with the escapes RFC 8259 §7 requires (``JSONStringEscaping``).
    func writeString(_ index: Int, into output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        storage.withSpan(at: index) { JSONStringEscaping.appendEscaped(UnsafeRawBufferPointer($0), to: &output) }
        output.append(UInt8(ascii: "\""))
    }
}

extension JSONStorage {
    /// The key positions of the object at `object`, ordered by key bytes.
    func sortedKeyPositions(inObjectAt object: Int) -> [Int] {
        var positions: [Int] = []
        var position = object + 1
        let end = end(of: object)
        while position < end {
            positions.append(position)
            position = self.end(of: position + 1)
        }
        return positions.sorted { a, b in
            withSpan(at: a) { sa in withSpan(at: b) { sb in JSONBytes.less(sa, sb) } }
        }
    }
}
