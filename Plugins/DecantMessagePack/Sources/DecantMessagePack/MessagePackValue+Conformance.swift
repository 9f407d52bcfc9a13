public import DecantCore
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

extension MessagePackValue: ConformanceInitializable {
    /// Builds the value whose canonical form (``conformanceValue()``) is `form`: the inverse of that form, so that
    /// `decant encode --content-type application/msgpack` writes what `decant decode --json` printed.
    ///
    /// JSON integers become integers (-2^63 to 2^64 - 1), other numbers ``float64(_:)`` (the canonical form does not
    /// say a float's width, so a ``float32(_:)`` comes back as the float 64 of the same value), objects maps with
    /// string keys, and the typed objects (`$bytes`, `$map`, `$ext`, `$timestamp`, `$float`) what they stand for. A map
    /// whose only key is one of those names has the same canonical form as the value the name stands for, and is read
    /// as that value. Builds without recursion, so any depth is safe.
    ///
    /// - Throws: `SerializationError.canonicalForm(expected:for:)` (`unsupportedValue`) for JSON that is not such a
    ///   form: a typed object with a bad member, an integer out of range.
    public init(conformanceValue form: JSONValue) throws(SerializationError) {
        struct Frame {
            var keys: [String]?
            var isPairs: Bool
            var pending: [JSONValue]
            var next = 0
            var built: [MessagePackValue] = []
        }
        var stack: [Frame] = []
        var current: JSONValue? = form
        while true {
            var finished: MessagePackValue?
            if let json = current {
                current = nil
                switch try Self.canonicalPiece(of: json) {
                case .leaf(let value): finished = value
                case .array(let children): stack.append(Frame(keys: nil, isPairs: false, pending: children))
                case .members(let keys, let children):
                    stack.append(Frame(keys: keys, isPairs: false, pending: children))
                case .pairs(let children): stack.append(Frame(keys: nil, isPairs: true, pending: children))
                }
            } else if let top = stack.indices.last {
                if stack[top].next < stack[top].pending.count {
                    current = stack[top].pending[stack[top].next]
                    stack[top].next += 1
                    continue
                }
                let frame = stack.removeLast()
                if let keys = frame.keys {
                    finished = .map(zip(keys, frame.built).map { Entry(.string($0), $1) })
                } else if frame.isPairs {
                    finished = .map(
                        stride(from: 0, to: frame.built.count, by: 2).map {
                            Entry(frame.built[$0], frame.built[$0 + 1])
                        })
                } else {
                    finished = .array(frame.built)
                }
            }
            guard let value = finished else { continue }
            guard let top = stack.indices.last else {
                self = value
                return
            }
            stack[top].built.append(value)
        }
    }

    /// One value of the canonical form: finished, or a container with its children still to build.
    private enum CanonicalPiece {
        case leaf(MessagePackValue)
        case array([JSONValue])
        case members([String], [JSONValue])
        /// A `$map`: keys and values alternating.
        case pairs([JSONValue])
    }

    private static func canonicalPiece(of json: JSONValue) throws(SerializationError) -> CanonicalPiece {
        func fail(_ expected: String) -> SerializationError {
            .canonicalForm(expected: expected, for: MessagePackValue.self)
        }
        switch json.kind {
        case .null: return .leaf(.nil)
        case .bool: return .leaf(.bool(json.boolValue ?? false))
        case .string: return .leaf(.string(json.stringValue ?? ""))
        case .number:
            guard let number = json.numberValue else { throw fail("a number") }
            if number.isInteger {
                if let integer = number.int64Value { return .leaf(.int(integer)) }
                if let integer = number.uint64Value { return .leaf(.uint(integer)) }
                throw fail("an integer from -2^63 to 2^64 - 1")
            }
            guard let double = number.doubleValue else { throw fail("a number a Double holds") }
            return .leaf(.float64(double))
        case .array: return .array(json.arrayValue ?? [])
        case .object: break
        }
        let members = json.objectEntries ?? []
        guard let first = members.first, first.key.hasPrefix("$") else {
            return .members(members.map(\.key), members.map(\.value))
        }
        switch (first.key, members.count) {
        case ("$bytes", 1):
            guard let text = first.value.stringValue, let data = Data(base64Encoded: text) else {
                throw fail(#"{"$bytes": "<base64>"}"#)
            }
            return .leaf(.binary([UInt8](data)))
        case ("$map", 1):
            guard let pairs = first.value.arrayValue else { throw fail(#"{"$map": [[key, value], ...]}"#) }
            var children: [JSONValue] = []
            for pair in pairs {
                guard let items = pair.arrayValue, items.count == 2 else {
                    throw fail(#"{"$map": [[key, value], ...]}"#)
                }
                children += items
            }
            return .pairs(children)
        case ("$ext", 2):
            guard let type = first.value.numberValue?.int64Value.flatMap({ Int8(exactly: $0) }),
                members[1].key == "data",
                let text = members[1].value.stringValue, let data = Data(base64Encoded: text)
            else { throw fail(#"{"$ext": <-128 to 127>, "data": "<base64>"}"#) }
            return .leaf(.ext(type: type, data: [UInt8](data)))
        case ("$timestamp", 1):
            let expected = #"{"$timestamp": {"seconds": <Int64>, "nanoseconds": <0 to 999999999>}}"#
            guard let parts = first.value.objectEntries, parts.count == 2,
                let seconds = first.value["seconds"]?.numberValue?.int64Value,
                let nanoseconds = first.value["nanoseconds"]?.numberValue?.int64Value.flatMap({ UInt32(exactly: $0) }),
                nanoseconds <= 999_999_999
            else { throw fail(expected) }
            return .leaf(.timestamp(seconds: seconds, nanoseconds: nanoseconds))
        case ("$float", 1):
            switch first.value.stringValue {
            case "NaN": return .leaf(.float64(.nan))
            case "Infinity": return .leaf(.float64(.infinity))
            case "-Infinity": return .leaf(.float64(-.infinity))
            default: throw fail(#"{"$float": "NaN"}, {"$float": "Infinity"} or {"$float": "-Infinity"}"#)
            }
        default: return .members(members.map(\.key), members.map(\.value))
        }
    }
}
