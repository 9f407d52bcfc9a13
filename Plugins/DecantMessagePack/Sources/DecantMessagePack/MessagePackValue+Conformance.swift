public import DecantJSON
import Foundation

extension MessagePackValue: ConformanceRepresentable {
    /// The canonical form described on ``MessagePackValue``: JSON for what JSON can say (maps with only string keys
    /// become objects in document order), typed objects (`$bytes`, `$map`, `$ext`, `$timestamp`, `$float`) for the
    /// rest. This form is a stable contract.
    ///
    /// It recurses once per nesting level, which the parser bounds with `maxDepth`.
    ///
    /// - Throws: `SerializationError.Code.limitExceeded` when a string is longer than `JSONValue.maxStringBytes`.
    public func conformanceValue() throws -> JSONValue {
        switch self {
        case .nil: return nil
        case .bool(let bool): return JSONValue(bool)
        case .int(let integer): return JSONValue(integer)
        case .uint(let integer): return JSONValue(integer)
        case .float32(let float): return Self.canonical(Double(float))
        case .float64(let double): return Self.canonical(double)
        case .string(let string): return try JSONValue(checking: string)
        case .binary(let bytes): return .object([("$bytes", JSONValue(Data(bytes).base64EncodedString()))])
        case .array(let elements): return .array(try elements.map { try $0.conformanceValue() })
        case .map(let entries):
            if entries.allSatisfy({ $0.key.stringValue != nil }) {
                return .object(
                    try entries.map { entry in (entry.key.stringValue ?? "", try entry.value.conformanceValue()) })
            }
            let rows = try entries.map { entry in
                JSONValue.array([try entry.key.conformanceValue(), try entry.value.conformanceValue()])
            }
            return .object([("$map", .array(rows))])
        case .ext(let type, let data):
            return .object([("$ext", JSONValue(type)), ("data", JSONValue(Data(data).base64EncodedString()))])
        case .timestamp(let seconds, let nanoseconds):
            return .object([
                ("$timestamp", .object([("seconds", JSONValue(seconds)), ("nanoseconds", JSONValue(nanoseconds))]))
            ])
        }
    }

    /// A finite float as a JSON number, NaN and the infinities as `{"$float": ...}`.
    private static func canonical(_ double: Double) -> JSONValue {
        if double.isFinite { return JSONValue(double) }
        let name = double.isNaN ? "NaN" : (double < 0 ? "-Infinity" : "Infinity")
        return .object([("$float", JSONValue(name))])
    }
}
