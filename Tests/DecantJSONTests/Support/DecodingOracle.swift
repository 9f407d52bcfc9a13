import DecantCore
import Foundation
import Testing

@testable import DecantJSON

/// Foundation's `JSONDecoder` as the independent oracle of `JSONValueDecoder`: the same input goes to both, and both
/// must succeed with equal values or both fail.
enum DecodingOracle {
    /// What one decoder made of an input.
    enum Outcome<Value: Equatable>: Equatable, CustomStringConvertible {
        case value(Value)
        case failure(String)

        var description: String {
            switch self {
            case .value(let value): "value \(value)"
            case .failure(let error): "failure \(error)"
            }
        }

        var isFailure: Bool {
            if case .failure = self { return true }
            return false
        }

        /// Equal values, or failures whatever their errors.
        func agrees(with other: Outcome) -> Bool {
            switch (self, other) {
            case (.value(let a), .value(let b)): a == b
            case (.failure, .failure): true
            default: false
            }
        }
    }

    static func foundation<T: Decodable & Equatable>(
        _ type: T.Type, _ data: Data, _ decoder: JSONDecoder = JSONDecoder()
    ) -> Outcome<T> {
        do {
            return .value(try decoder.decode(type, from: data))
        } catch {
            return .failure("\(error)")
        }
    }

    static func ours<T: Decodable & Equatable>(
        _ type: T.Type, _ data: Data, _ decoder: JSONValueDecoder = JSONValueDecoder()
    ) -> Outcome<T> {
        do throws(SerializationError) {
            return .value(try decoder.decode(type, from: data))
        } catch {
            return .failure("\(error)")
        }
    }

    /// Expects both decoders to agree on `json`; returns our outcome.
    @discardableResult
    static func expectAgreement<T: Decodable & Equatable>(
        _ type: T.Type, _ json: String,
        ours: JSONValueDecoder = JSONValueDecoder(), foundation: JSONDecoder = JSONDecoder(),
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> Outcome<T> {
        expectAgreement(type, Data(json.utf8), ours: ours, foundation: foundation, sourceLocation: sourceLocation)
    }

    @discardableResult
    static func expectAgreement<T: Decodable & Equatable>(
        _ type: T.Type, _ data: Data,
        ours: JSONValueDecoder = JSONValueDecoder(), foundation: JSONDecoder = JSONDecoder(),
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> Outcome<T> {
        let expected = Self.foundation(type, data, foundation)
        let actual = Self.ours(type, data, ours)
        #expect(
            actual.agrees(with: expected),
            """
            \(T.self) from \(String(decoding: data.prefix(200), as: UTF8.self)): JSONDecoder gave \(expected), \
            JSONValueDecoder gave \(actual)
            """,
            sourceLocation: sourceLocation)
        return actual
    }

    /// Both decoders configured alike.
    static func pair(
        _ configure: (inout JSONValueDecoder, JSONDecoder) -> Void
    ) -> (ours: JSONValueDecoder, foundation: JSONDecoder) {
        var ours = JSONValueDecoder()
        let foundation = JSONDecoder()
        configure(&ours, foundation)
        return (ours, foundation)
    }
}

/// A coding key for any string or integer.
struct AnyKey: CodingKey, Hashable {
    var stringValue: String
    var intValue: Int?

    init(_ string: String) {
        stringValue = string
        intValue = nil
    }

    init?(stringValue: String) {
        self.stringValue = stringValue
        intValue = nil
    }

    init?(intValue: Int) {
        stringValue = String(intValue)
        self.intValue = intValue
    }
}

/// `{"v": ...}`.
struct Wrapper<Value: Codable & Equatable>: Codable, Equatable {
    var v: Value
}

extension Wrapper: Sendable where Value: Sendable {}

/// `{"v": ...}` with the member optional.
struct OptionalWrapper<Value: Codable & Equatable>: Codable, Equatable {
    var v: Value?
}

extension OptionalWrapper: Sendable where Value: Sendable {}

/// A `DecodingError` reduced to what both decoders must agree on: its case, type and coding path.
func summary(_ error: any Error) -> String {
    let path = { (context: DecodingError.Context) in
        context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
    }
    switch error {
    case DecodingError.typeMismatch(let type, let context): return "typeMismatch(\(type)) at \(path(context))"
    case DecodingError.valueNotFound(let type, let context): return "valueNotFound(\(type)) at \(path(context))"
    case DecodingError.keyNotFound(let key, let context):
        return "keyNotFound(\(key.stringValue)) at \(path(context))"
    case DecodingError.dataCorrupted(let context): return "dataCorrupted at \(path(context))"
    default: return "\(type(of: error))"
    }
}
