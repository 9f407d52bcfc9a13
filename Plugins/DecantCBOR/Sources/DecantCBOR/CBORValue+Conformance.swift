public import DecantCore
public import DecantJSON

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension CBORValue: ConformanceRepresentable {
    /// The canonical JSON form described on ``CBORValue``: JSON where JSON can represent the value, typed objects
    /// (`$bytes`, `$tag`, `$map`, `$undefined`, `$simple`, `$float`) elsewhere. A stable contract of
    /// `decant decode --json` and of the `Fixtures/cbor` expectations.
    ///
    /// The JSON text is written without recursion and parsed once, so the cost is linear at any depth.
    ///
    /// - Throws: `SerializationError.Code.limitExceeded` when one string is longer than `JSONValue.maxStringBytes`.
    public func conformanceValue() throws -> JSONValue {
        let options = JSONParsingOptions(maxDepth: Int(Int32.max), maxBytes: Int(UInt32.max))
        return try JSONParser(options: options).parse(canonicalJSONText)
    }

    /// The canonical form as compact JSON text (see ``conformanceValue()``).
    public var canonicalJSONText: String {
        var writer = TextWriter()
        writer.walk(self) { value, writer in
            switch value {
            case .unsignedInteger, .negativeInteger, .bignum:
                writer.output += value.integerText ?? "0"
            case .float(let double):
                if let number = JSONNumber(double) {
                    writer.output += number.text
                } else {
                    let name = double.isNaN ? "NaN" : double < 0 ? "-Infinity" : "Infinity"
                    writer.output += #"{"$float":""# + name + #""}"#
                }
            case .text(let text):
                writer.writeJSONString(text)
            case .bytes(let data):
                writer.output += #"{"$bytes":""# + data.base64EncodedString() + #""}"#
            case .bool(let flag):
                writer.output += flag ? "true" : "false"
            case .null:
                writer.output += "null"
            case .undefined:
                writer.output += #"{"$undefined":true}"#
            case .simple(let number):
                writer.output += #"{"$simple":"# + String(number) + "}"
            case .array(let elements):
                writer.open("[", elements, close: "]")
            case .tag(let number, let content):
                writer.output += #"{"$tag":"# + String(number) + #","value":"#
                writer.pending.append(.text("}"))
                writer.pending.append(.value(content))
            case .map(let entries):
                let textKeys = entries.allSatisfy { if case .text = $0.key { true } else { false } }
                if textKeys {
                    writer.open("{", entries, style: .members, close: "}")
                } else {
                    writer.open(#"{"$map":["#, entries, style: .pairs, close: "]}")
                }
            }
        }
        return writer.output
    }
}

/// Writes text for a value tree with an explicit stack: the work still to do, last first. A container's elements or
/// entries wait on the stack as one piece of work that hands out one at a time, so the stack holds a few pieces per
/// open container, however many items the containers have.
struct TextWriter {
    /// How the entries of a map are written.
    enum EntryStyle {
        /// `key:value`, separated by commas (a JSON object).
        case members
        /// `[key,value]`, separated by commas (the canonical form's `$map`).
        case pairs
        /// `key: value`, separated by `, ` (diagnostic notation).
        case diagnostic
    }

    enum Work {
        case value(CBORValue)
        case text(String)
        /// The elements of an array from `next` on, separated by `separator`.
        case elements([CBORValue], next: Int, separator: String)
        /// The entries of a map from `next` on.
        case entries([CBORValue.MapEntry], next: Int, style: EntryStyle)
    }

    var output = ""
    var pending: [Work] = []

    /// Calls `emit` for every value in document order; `emit` writes scalars and pushes the parts of containers.
    mutating func walk(_ root: CBORValue, emit: (CBORValue, inout TextWriter) -> Void) {
        pending = [.value(root)]
        while let work = pending.popLast() {
            switch work {
            case .text(let text): output += text
            case .value(let value): emit(value, &self)
            case .elements(let elements, let next, let separator):
                guard next < elements.count else { continue }
                pending.append(.elements(elements, next: next + 1, separator: separator))
                if next > 0 { output += separator }
                emit(elements[next], &self)
            case .entries(let entries, let next, let style):
                guard next < entries.count else { continue }
                pending.append(.entries(entries, next: next + 1, style: style))
                let entry = entries[next]
                switch style {
                case .members:
                    if next > 0 { output += "," }
                    pending.append(.value(entry.value))
                    pending.append(.text(":"))
                case .pairs:
                    output += next > 0 ? ",[" : "["
                    pending.append(.text("]"))
                    pending.append(.value(entry.value))
                    pending.append(.text(","))
                case .diagnostic:
                    if next > 0 { output += ", " }
                    pending.append(.value(entry.value))
                    pending.append(.text(": "))
                }
                emit(entry.key, &self)
            }
        }
    }

    /// Writes `open`, then schedules `elements` separated by `separator` and `close`.
    mutating func open(_ open: String, _ elements: [CBORValue], close: String, separator: String = ",") {
        output += open
        pending.append(.text(close))
        pending.append(.elements(elements, next: 0, separator: separator))
    }

    /// Writes `open`, then schedules `entries` in `style` and `close`.
    mutating func open(_ open: String, _ entries: [CBORValue.MapEntry], style: EntryStyle, close: String) {
        output += open
        pending.append(.text(close))
        pending.append(.entries(entries, next: 0, style: style))
    }

    /// Writes `text` as a JSON string (`JSONText`, the rule DecantJSON writes strings with).
    mutating func writeJSONString(_ text: String) {
        JSONText.appendQuoted(text, to: &output)
    }
}

extension CBORValue: ConformanceInitializable {
    /// Builds the value whose canonical form (``conformanceValue()``) is `form`: the inverse of that form, so that
    /// `decant encode --content-type application/cbor` writes what `decant decode --json` printed.
    ///
    /// JSON integers of any size become integers (bignums beyond 64 bits, up to ``CBORParser/maxBignumBytes``), other
    /// numbers floats, objects maps with text keys, and the typed objects (`$bytes`, `$tag`, `$map`, `$undefined`,
    /// `$simple`, `$float`) what they stand for. A map whose only key is one of those names (`{"$bytes": "AA=="}` as a
    /// text-keyed map) has the same canonical form as the value the name stands for, and is read as that value.
    /// Builds without recursion, so any depth is safe.
    ///
    /// - Throws: `SerializationError.canonicalForm(expected:for:)` (`unsupportedValue`) for JSON that is not such a
    ///   form: a typed object with a bad member, an integer of more than ``CBORParser/maxBignumBytes`` bytes.
    public init(conformanceValue form: JSONValue) throws(SerializationError) {
        struct Frame {
            var shape: CanonicalShape
            var pending: [JSONValue]
            var next = 0
            var built: [CBORValue] = []
        }
        var stack: [Frame] = []
        var current: JSONValue? = form
        while true {
            var finished: CBORValue?
            if let json = current {
                current = nil
                switch try Self.canonicalShape(of: json) {
                case .leaf(let value): finished = value
                case .container(let shape, let children):
                    stack.append(Frame(shape: shape, pending: children))
                }
            } else if let top = stack.indices.last {
                if stack[top].next < stack[top].pending.count {
                    current = stack[top].pending[stack[top].next]
                    stack[top].next += 1
                    continue
                }
                let frame = stack.removeLast()
                switch frame.shape {
                case .array: finished = .array(frame.built)
                case .members(let keys):
                    finished = .map(zip(keys, frame.built).map { MapEntry(key: .text($0), value: $1) })
                case .pairs:
                    finished = .map(
                        stride(from: 0, to: frame.built.count, by: 2).map {
                            MapEntry(key: frame.built[$0], value: frame.built[$0 + 1])
                        })
                case .tag(let number): finished = .tag(number, frame.built[0])
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

    /// What one JSON value of the canonical form is: a finished value, or a container and its children to build.
    private static func canonicalShape(of json: JSONValue) throws(SerializationError) -> CanonicalPiece {
        switch json.kind {
        case .null: return .leaf(.null)
        case .bool: return .leaf(.bool(json.boolValue ?? false))
        case .string: return .leaf(.text(json.stringValue ?? ""))
        case .number:
            guard let number = json.numberValue else { break }
            if number.isInteger { return .leaf(try integer(number.text)) }
            guard let double = number.doubleValue else { break }
            return .leaf(.float(double))
        case .array: return .container(.array, json.arrayValue ?? [])
        case .object:
            let members = json.objectEntries ?? []
            if let typed = try typedObject(members) { return typed }
            return .container(.members(members.map(\.key)), members.map(\.value))
        }
        throw .canonicalForm(expected: "a number a Double or an integer holds", for: CBORValue.self)
    }

    /// The value of a typed object (`$bytes`, `$tag`, ...), or `nil` for a plain map.
    private static func typedObject(
        _ members: [(key: String, value: JSONValue)]
    ) throws(SerializationError) -> CanonicalPiece? {
        guard let first = members.first, first.key.hasPrefix("$") else { return nil }
        func fail(_ expected: String) -> SerializationError { .canonicalForm(expected: expected, for: CBORValue.self) }
        switch (first.key, members.count) {
        case ("$bytes", 1):
            guard let text = first.value.stringValue, let data = Data(base64Encoded: text) else {
                throw fail(#"{"$bytes": "<base64>"}"#)
            }
            return .leaf(.bytes(data))
        case ("$tag", 2):
            guard let number = first.value.numberValue?.uint64Value, members[1].key == "value" else {
                throw fail(#"{"$tag": <0 to 2^64-1>, "value": ...}"#)
            }
            return .container(.tag(number), [members[1].value])
        case ("$map", 1):
            var children: [JSONValue] = []
            for pair in first.value.arrayValue ?? [] {
                guard let items = pair.arrayValue, items.count == 2 else {
                    throw fail(#"{"$map": [[key, value], ...]}"#)
                }
                children += items
            }
            guard first.value.arrayValue != nil else { throw fail(#"{"$map": [[key, value], ...]}"#) }
            return .container(.pairs, children)
        case ("$undefined", 1):
            guard first.value.boolValue == true else { throw fail(#"{"$undefined": true}"#) }
            return .leaf(.undefined)
        case ("$simple", 1):
            guard let number = first.value.numberValue?.uint64Value, let simple = UInt8(exactly: number) else {
                throw fail(#"{"$simple": <0 to 255>}"#)
            }
            return .leaf(.simple(simple))
        case ("$float", 1):
            switch first.value.stringValue {
            case "NaN": return .leaf(.float(.nan))
            case "Infinity": return .leaf(.float(.infinity))
            case "-Infinity": return .leaf(.float(-.infinity))
            default: throw fail(#"{"$float": "NaN"}, {"$float": "Infinity"} or {"$float": "-Infinity"}"#)
            }
        default: return nil
        }
    }

    /// The integer of a JSON integer's text: a 64-bit integer, or a bignum.
    private static func integer(_ text: String) throws(SerializationError) -> CBORValue {
        let negative = text.hasPrefix("-")
        let digits = text.utf8.dropFirst(negative ? 1 : 0)
        // 9,865 digits hold the largest magnitude the parser turns into an integer.
        guard digits.count <= 9_865 + 1 else {
            throw .canonicalForm(
                expected: "an integer of at most \(CBORParser.maxBignumBytes) bytes (CBORParser.maxBignumBytes)",
                for: CBORValue.self)
        }
        // Big-endian 32-bit limbs of the magnitude, by multiplying by ten and adding each digit.
        var limbs: [UInt32] = [0]
        for digit in digits {
            var carry = UInt64(digit &- UInt8(ascii: "0"))
            for index in limbs.indices.reversed() {
                let product = UInt64(limbs[index]) * 10 + carry
                limbs[index] = UInt32(truncatingIfNeeded: product)
                carry = product >> 32
            }
            if carry > 0 { limbs.insert(UInt32(carry), at: 0) }
        }
        var bytes = limbs.flatMap { limb in (0..<4).reversed().map { UInt8(truncatingIfNeeded: limb >> ($0 * 8)) } }
        bytes = Array(bytes.drop { $0 == 0 })
        if bytes.isEmpty { return .unsignedInteger(0) }
        if negative {
            // -1 - n = -magnitude, so n = magnitude - 1.
            var index = bytes.count - 1
            while bytes[index] == 0 {
                bytes[index] = 0xFF
                index -= 1
            }
            bytes[index] -= 1
            bytes = Array(bytes.drop { $0 == 0 })
        }
        guard bytes.count <= CBORParser.maxBignumBytes else {
            throw .canonicalForm(
                expected: "an integer of at most \(CBORParser.maxBignumBytes) bytes (CBORParser.maxBignumBytes)",
                for: CBORValue.self)
        }
        if bytes.count <= 8 {
            let small = bytes.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            return negative ? .negativeInteger(small) : .unsignedInteger(small)
        }
        return .bignum(negative: negative, magnitude: bytes)
    }

    /// A container of the canonical form: an array, a map of text keys, a `$map`, a `$tag`.
    private enum CanonicalShape {
        case array
        case members([String])
        case pairs
        case tag(UInt64)
    }

    /// One value of the canonical form: finished, or a container with its children still to build.
    private enum CanonicalPiece {
        case leaf(CBORValue)
        case container(CanonicalShape, [JSONValue])
    }
}
