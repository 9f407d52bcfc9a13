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
                    writer.output += "{"
                    writer.pending.append(.text("}"))
                    for index in entries.indices.reversed() {
                        writer.pending.append(.value(entries[index].value))
                        writer.pending.append(.text(":"))
                        writer.pending.append(.value(entries[index].key))
                        if index > 0 { writer.pending.append(.text(",")) }
                    }
                } else {
                    writer.output += #"{"$map":["#
                    writer.pending.append(.text("]}"))
                    for index in entries.indices.reversed() {
                        writer.pending.append(.text("]"))
                        writer.pending.append(.value(entries[index].value))
                        writer.pending.append(.text(","))
                        writer.pending.append(.value(entries[index].key))
                        writer.pending.append(.text(index > 0 ? ",[" : "["))
                    }
                }
            }
        }
        return writer.output
    }
}

/// Writes text for a value tree with an explicit stack: the work still to do, last first.
struct TextWriter {
    enum Work {
        case value(CBORValue)
        case text(String)
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
            }
        }
    }

    /// Writes `open`, then schedules `elements` separated by `separator` and `close`.
    mutating func open(_ open: String, _ elements: [CBORValue], close: String, separator: String = ",") {
        output += open
        pending.append(.text(close))
        for index in elements.indices.reversed() {
            pending.append(.value(elements[index]))
            if index > 0 { pending.append(.text(separator)) }
        }
    }

    /// Writes `text` as a JSON string: quotes, backslashes and control characters escaped, the rest as it is.
    mutating func writeJSONString(_ text: String) {
        output += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case "\u{0}"..."\u{1F}":
                let hex = String(scalar.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: output.unicodeScalars.append(scalar)
            }
        }
        output += "\""
    }
}
