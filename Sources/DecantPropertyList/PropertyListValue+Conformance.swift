public import DecantCore
public import DecantJSON

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension PropertyListValue: ConformanceRepresentable {
    /// The typed JSON of `../shared/corpora/plist/cpython/valid/*.expected.json`: `{"dict": ...}`,
    /// `{"integer": "42"}`, `{"real": "0.5"}`, `{"date": ...}`, `{"data_base64": ...}`, `{"uid": n}`.
    public func conformanceValue() throws -> JSONValue {
        try JSONParser(options: JSONParsingOptions(maxDepth: 100_000)).parse(canonicalJSONText())
    }
}

extension PropertyListValue: ConformanceInitializable {
    /// The value whose canonical form (``canonicalJSONText()``) is `form`: each value a one-member object naming its
    /// kind, `{"dict": {...}}`, `{"array": [...]}`, `{"string": "..."}`, `{"integer": "42"}`, `{"real": "0.5"}` (or
    /// `"inf"`, `"-inf"`, `"nan"`), `{"bool": true}`, `{"date": "2004-10-26T10:33:33Z"}` (fractional seconds
    /// allowed), `{"data_base64": "..."}` or `{"uid": 7}`. Integers and reals may also be JSON numbers. Built
    /// iteratively, so any depth the JSON holds is read.
    public init(conformanceValue form: JSONValue) throws(SerializationError) {
        struct Frame {
            let isDictionary: Bool
            let pending: [(key: String, value: JSONValue)]
            var next = 0
            var keys: [String] = []
            var values: [PropertyListValue] = []
        }
        var stack: [Frame] = []
        var current = form
        while true {
            var produced: PropertyListValue?
            guard let members = current.objectEntries, members.count == 1, let (tag, body) = members.first else {
                throw Self.formError("a one-member object naming the value's kind, such as {\"string\": \"a\"}")
            }
            switch tag {
            case "dict":
                guard let entries = body.objectEntries else { throw Self.formError(#"{"dict": {KEY: VALUE, ...}}"#) }
                stack.append(Frame(isDictionary: true, pending: entries))
            case "array":
                guard let elements = body.arrayValue else { throw Self.formError(#"{"array": [VALUE, ...]}"#) }
                stack.append(Frame(isDictionary: false, pending: elements.map { ("", $0) }))
            default:
                produced = try Self.scalar(tag, body)
            }
            while true {
                if let value = produced {
                    guard !stack.isEmpty else {
                        self = value
                        return
                    }
                    stack[stack.count - 1].values.append(value)
                    produced = nil
                }
                let top = stack.count - 1
                if stack[top].next < stack[top].pending.count {
                    let (key, value) = stack[top].pending[stack[top].next]
                    if stack[top].isDictionary { stack[top].keys.append(key) }
                    stack[top].next += 1
                    current = value
                    break
                }
                let frame = stack.removeLast()
                produced =
                    frame.isDictionary
                    ? .dictionary(PropertyListDictionary(checkingKeys: frame.keys, values: frame.values))
                    : .array(frame.values)
            }
        }
    }

    private static func scalar(_ tag: String, _ body: JSONValue) throws(SerializationError) -> PropertyListValue {
        switch tag {
        case "string":
            guard let text = body.stringValue else { throw formError(#"{"string": TEXT}"#) }
            return .string(text)
        case "integer":
            let text = body.stringValue ?? body.numberValue?.description
            guard let text, let integer = PropertyListNumbers.integer(text) else {
                throw formError(#"{"integer": "DECIMAL"} within 128 signed bits"#)
            }
            return .integer(integer)
        case "real":
            guard let real = body.stringValue.flatMap(PropertyListNumbers.real) ?? body.numberValue?.doubleValue else {
                throw formError(#"{"real": "0.5"} (or "inf", "-inf", "nan")"#)
            }
            return .real(real)
        case "bool":
            guard let bool = body.boolValue else { throw formError(#"{"bool": true}"#) }
            return .bool(bool)
        case "date":
            guard let date = body.stringValue.flatMap(date(canonical:)) else {
                throw formError(#"{"date": "YYYY-MM-DDTHH:MM:SS[.ffffff]Z"} in the years 1 to 9999"#)
            }
            return .date(date)
        case "data_base64":
            guard let data = body.stringValue.flatMap({ Data(base64Encoded: $0) }) else {
                throw formError(#"{"data_base64": BASE64}"#)
            }
            return .data(data)
        case "uid":
            guard let uid = body.numberValue?.uint64Value else { throw formError(#"{"uid": N}, N from 0 to 2^64-1"#) }
            return .uid(uid)
        default:
            throw formError(
                "one of the kinds dict, array, string, integer, real, bool, date, data_base64 and uid, not \"\(tag)\"")
        }
    }

    /// `YYYY-MM-DDTHH:MM:SS[.ffffff]Z`, as ``canonicalJSONText()`` writes dates.
    private static func date(canonical text: String) -> Date? {
        guard let dot = text.firstIndex(of: ".") else { return PropertyListNumbers.date(text) }
        let digits = text[text.index(after: dot)...].dropLast()
        guard text.hasSuffix("Z"), !digits.isEmpty, digits.count <= 9, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
            let whole = PropertyListNumbers.date(String(text[..<dot]) + "Z"), let fraction = Double("0." + digits)
        else { return nil }
        return Date(timeIntervalSince1970: whole.timeIntervalSince1970 + fraction)
    }

    private static func formError(_ expected: String) -> SerializationError {
        .canonicalForm(expected: expected, for: PropertyListValue.self)
    }
}
