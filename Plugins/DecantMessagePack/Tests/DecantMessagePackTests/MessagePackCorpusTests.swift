import DecantMessagePack
import Foundation
import Testing

/// The msgpack-test-suite corpus: every encoding of every case decodes to the case's value.
@Suite struct MessagePackCorpusTests {
    static let corpusAvailable = MessagePackTestSupport.suiteFile != nil

    /// Whether `value` is the value the suite states (`kind` is the key naming the case's type).
    static func matches(_ value: MessagePackValue, kind: String, expected: Any) -> Bool {
        switch kind {
        case "nil": return value == .nil
        case "bool": return (expected as? Bool).map { value == .bool($0) } ?? false
        case "binary": return value == .binary(MessagePackTestSupport.hex(expected as? String ?? "?"))
        case "string": return value == .string(expected as? String ?? "\u{0}?")
        case "bignum": return number(value).map { $0 == (expected as? String) } ?? false
        case "number":
            guard let number = expected as? NSNumber else { return false }
            switch value {
            case .int(let integer): return Double(integer) == number.doubleValue
            case .uint(let integer): return Double(integer) == number.doubleValue
            case .float32(let float): return Double(float) == number.doubleValue
            case .float64(let double): return double == number.doubleValue
            default: return false
            }
        case "timestamp":
            guard let pair = expected as? [Any], pair.count == 2, let seconds = (pair[0] as? NSNumber)?.int64Value,
                let nanoseconds = (pair[1] as? NSNumber)?.uint32Value
            else { return false }
            return value == .timestamp(seconds: seconds, nanoseconds: nanoseconds)
        case "ext":
            guard let pair = expected as? [Any], pair.count == 2, let type = (pair[0] as? NSNumber)?.int8Value,
                let data = pair[1] as? String
            else { return false }
            return value == .ext(type: type, data: MessagePackTestSupport.hex(data))
        case "array":
            guard case .array(let elements) = value, let list = expected as? [Any], list.count == elements.count
            else { return false }
            return zip(elements, list).allSatisfy { matches($0, kind: kindOf($1), expected: $1) }
        case "map":
            guard case .map(let entries) = value, let object = expected as? [String: Any],
                object.count == entries.count
            else { return false }
            return entries.allSatisfy { entry in
                guard case .string(let key) = entry.key, let member = object[key] else { return false }
                return matches(entry.value, kind: kindOf(member), expected: member)
            }
        default: return false
        }
    }

    /// The decimal text of an integer value, or of a float holding a whole number.
    static func number(_ value: MessagePackValue) -> String? {
        switch value {
        case .int(let integer): "\(integer)"
        case .uint(let integer): "\(integer)"
        case .float32(let float): Int64(exactly: float).map { "\($0)" }
        case .float64(let double): Int64(exactly: double).map { "\($0)" } ?? UInt64(exactly: double).map { "\($0)" }
        default: nil
        }
    }

    /// The kind of a nested JSON value of the suite.
    static func kindOf(_ value: Any) -> String {
        // The suite nests only integers, strings, arrays and maps.
        switch value {
        case is String: "string"
        case is [String: Any]: "map"
        case is [Any]: "array"
        case is NSNull: "nil"
        default: "number"
        }
    }

    @Test(.enabled(if: corpusAvailable)) func everyEncodingDecodesToTheCaseValue() throws {
        let url = try #require(MessagePackTestSupport.suiteFile)
        let suite = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        var passed = 0
        var failed = 0
        var cases = 0
        for (file, entries) in suite.sorted(by: { $0.key < $1.key }) {
            for entry in try #require(entries as? [[String: Any]]) {
                cases += 1
                let encodings = try #require(entry["msgpack"] as? [String])
                // A bignum case states its exact value as text; "number" beside it may be rounded.
                let kind = entry["bignum"] != nil ? "bignum" : try #require(entry.keys.first { $0 != "msgpack" })
                for encoding in encodings {
                    let bytes = Data(MessagePackTestSupport.hex(encoding))
                    if let value = try? MessagePackParser().parse(bytes),
                        Self.matches(value, kind: kind, expected: entry[kind] ?? NSNull())
                    {
                        passed += 1
                    } else {
                        failed += 1
                        Issue.record("\(file) \(kind) \(encoding)")
                    }
                }
            }
        }
        print("msgpack-test-suite: \(passed) passed, \(failed) failed (\(cases) cases)")
        #expect(failed == 0)
        #expect(cases == 85)
    }
}
