import DecantCore
public import DecantJSON
import Foundation

extension MessagePackValue: ConformanceRepresentable {
    /// The canonical form described on ``MessagePackValue``: JSON for what JSON can say (maps with only string keys
    /// become objects in document order, a repeated key's last value at its first position), typed objects
    /// (`$bytes`, `$map`, `$ext`, `$timestamp`, `$float`) for the rest. This form is a stable contract.
    ///
    /// The JSON text is written without recursion and parsed once, so the cost is linear at any depth and a value
    /// costs its text and one tape entry (8 bytes), not a `JSONValue` of its own.
    ///
    /// - Throws: `SerializationError.Code.limitExceeded` when a string is longer than `JSONValue.maxStringBytes`.
    public func conformanceValue() throws -> JSONValue {
        let options = JSONParsingOptions(maxDepth: Int(Int32.max), maxBytes: Int(UInt32.max))
        var writer = MessagePackTextWriter()
        try writer.write(self)
        return try JSONParser(options: options).parse(writer.output)
    }
}

/// Writes the canonical JSON text of a value with an explicit stack: the work still to do, last first. A container's
/// elements or entries wait on the stack as one piece of work that hands them out one at a time, so the stack holds a
/// few pieces per open container, however many items the containers have.
struct MessagePackTextWriter {
    enum Work {
        case value(MessagePackValue)
        case text(StaticString)
        /// The elements of an array from `next` on.
        case elements([MessagePackValue], next: Int)
        /// The entries of a map from `next` on, as object members (`"key":value`) or as `$map` pairs (`[key,value]`).
        case entries([MessagePackValue.Entry], next: Int, asMembers: Bool)
    }

    var output = ""
    private var pending: [Work] = []

    /// Writes `root` and everything in it.
    ///
    /// - Throws: `limitExceeded` (as `JSONValue(checking:)` does) for a string longer than `JSONValue.maxStringBytes`.
    mutating func write(_ root: MessagePackValue) throws(SerializationError) {
        pending = [.value(root)]
        while let work = pending.popLast() {
            switch work {
            case .text(let text): append(text)
            case .value(let value): try emit(value)
            case .elements(let elements, let next):
                guard next < elements.count else { continue }
                pending.append(.elements(elements, next: next + 1))
                if next > 0 { output += "," }
                try emit(elements[next])
            case .entries(let entries, let next, let asMembers):
                guard next < entries.count else { continue }
                pending.append(.entries(entries, next: next + 1, asMembers: asMembers))
                let entry = entries[next]
                if asMembers {
                    if next > 0 { output += "," }
                    pending.append(.value(entry.value))
                    pending.append(.text(":"))
                } else {
                    output += next > 0 ? ",[" : "["
                    pending.append(.text("]"))
                    pending.append(.value(entry.value))
                    pending.append(.text(","))
                }
                try emit(entry.key)
            }
        }
    }

    private mutating func append(_ text: StaticString) {
        output += text.withUTF8Buffer { String(decoding: $0, as: UTF8.self) }
    }

    /// Writes a scalar, or opens a container and schedules its contents.
    private mutating func emit(_ value: MessagePackValue) throws(SerializationError) {
        switch value {
        case .nil: output += "null"
        case .bool(let bool): output += bool ? "true" : "false"
        case .int(let integer): output += String(integer)
        case .uint(let integer): output += String(integer)
        case .float32(let float): writeFloat(Double(float))
        case .float64(let double): writeFloat(double)
        case .string(let string): try writeString(string)
        case .binary(let bytes):
            output += #"{"$bytes":""# + Data(bytes).base64EncodedString() + #""}"#
        case .array(let elements):
            output += "["
            pending.append(.text("]"))
            pending.append(.elements(elements, next: 0))
        case .map(let entries):
            if entries.allSatisfy({ $0.key.stringValue != nil }) {
                output += "{"
                pending.append(.text("}"))
                pending.append(.entries(entries, next: 0, asMembers: true))
            } else {
                output += #"{"$map":["#
                pending.append(.text("]}"))
                pending.append(.entries(entries, next: 0, asMembers: false))
            }
        case .ext(let type, let data):
            output += #"{"$ext":"# + String(type) + #","data":""# + Data(data).base64EncodedString() + #""}"#
        case .timestamp(let seconds, let nanoseconds):
            output +=
                #"{"$timestamp":{"seconds":"# + String(seconds) + #","nanoseconds":"# + String(nanoseconds)
                + "}}"
        }
    }

    /// A finite float as the shortest text that reads back as it (as `JSONValue(Double)` writes it); NaN and the
    /// infinities as `{"$float": ...}`.
    private mutating func writeFloat(_ double: Double) {
        if let number = JSONNumber(double) {
            output += number.text
        } else {
            let name = double.isNaN ? "NaN" : (double < 0 ? "-Infinity" : "Infinity")
            output += #"{"$float":""# + name + #""}"#
        }
    }

    /// Writes `string` as a JSON string (`JSONText`, the rule DecantJSON writes strings with).
    ///
    /// - Throws: `limitExceeded` (as `JSONValue(checking:)` does) for a string longer than `JSONValue.maxStringBytes`.
    private mutating func writeString(_ string: String) throws(SerializationError) {
        if string.utf8.count > JSONValue.maxStringBytes { _ = try JSONValue(checking: string) }
        JSONText.appendQuoted(string, to: &output)
    }
}
