public import DecantJSON

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
