#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// How `Decodable` values are decoded: the key, date, data and non-conforming float strategies and the `userInfo`
/// that `JSONDecoder` users know, in one format-neutral value.
///
/// Every format that decodes `Decodable` types reads what applies to it (see ``ResponseDecoder/applying(_:)``): JSON
/// reads them all; a format that has no such choice (property lists carry real dates and data) ignores what does not
/// apply. A strategy left `nil` keeps the format's own default (`JSONDecoder`'s for JSON), so options set at one level
/// leave the others' choices alone. The levels, later ones winning field by field:
/// 1. the registry's ``SerializerRegistry/decodingOptions``, for every format;
/// 2. the options a format was installed with (``SerializerRegistry/install(_:decodingOptions:)``);
/// 3. a chain file's `decoding` object, for a configured chain;
/// 4. the options of one call (`registry.decode(User.self, from: response, options: ...)`).
///
/// ```swift
/// let options = DecodingOptions(keyDecodingStrategy: .convertFromSnakeCase, dateDecodingStrategy: .iso8601)
/// let user = try registry.decode(User.self, from: response, options: options)
/// ```
public struct DecodingOptions: Sendable {
    /// How object keys are matched to the coding keys of the types being decoded (`JSONDecoder`'s strategies).
    public enum KeyDecodingStrategy: Sendable {
        /// Keys are matched as they are. `JSONDecoder`'s default.
        case useDefaultKeys

        /// Keys are converted from `snake_case` to `camelCase` before matching, exactly as `JSONDecoder` does:
        /// each `_`-separated word after the first is capitalized and the `_`s removed (`one_two_three` becomes
        /// `oneTwoThree`); leading and trailing underscores are kept (`_one_two_` becomes `_oneTwo_`); a key without
        /// inner underscores is kept as it is; when two keys convert to the same name, the first wins.
        ///
        /// Keys of `[String: Value]` dictionaries are not converted.
        case convertFromSnakeCase

        /// Keys are converted by a closure, given the coding path with the body's key as its last component; the
        /// key it returns is matched instead. When two keys convert to the same name, the first wins.
        case custom(@Sendable (_ codingPath: [any CodingKey]) -> any CodingKey)
    }

    /// How `Date` values are decoded.
    public enum DateDecodingStrategy: Sendable {
        /// `Date`'s own `Decodable` implementation: a number of seconds since 2001-01-01T00:00:00Z. `JSONDecoder`'s
        /// default.
        case deferredToDate
        /// A number of seconds since 1970-01-01T00:00:00Z (a Unix timestamp).
        case secondsSince1970
        /// A number of milliseconds since 1970-01-01T00:00:00Z.
        case millisecondsSince1970
        /// An ISO 8601 string read by `Date.ISO8601FormatStyle()`, as `JSONDecoder`'s `.iso8601` does: an RFC 3339
        /// internet date-time such as `2024-05-01T12:00:00Z` or `2024-05-01T14:00:00+02:00`, with the same
        /// leniencies (optional fractional seconds, `GMT`, unpadded fields).
        case iso8601
        /// An ISO 8601 string read by `Date.ISO8601FormatStyle(includingFractionalSeconds: true)`:
        /// `2024-05-01T12:00:00.250Z`; strings without fractional seconds are accepted as well.
        case iso8601WithFractionalSeconds
        /// A closure that decodes the date with the decoder it is given (for example through
        /// `singleValueContainer()`).
        case custom(@Sendable (_ decoder: any Decoder) throws -> Date)
    }

    /// How `Data` values are decoded.
    public enum DataDecodingStrategy: Sendable {
        /// `Data`'s own `Decodable` implementation: an array of byte values.
        case deferredToData
        /// A Base64 string (RFC 4648 §4, padded, without whitespace). `JSONDecoder`'s default.
        case base64
        /// A closure that decodes the data with the decoder it is given.
        case custom(@Sendable (_ decoder: any Decoder) throws -> Data)
    }

    /// How infinities and NaN, which JSON numbers cannot express (RFC 8259 §6), are read for `Double` and `Float`.
    public enum NonConformingFloatDecodingStrategy: Sendable {
        /// A string where a number is expected is a type mismatch. `JSONDecoder`'s default.
        case `throw`
        /// The given strings, compared exactly, decode as positive infinity, negative infinity and NaN.
        case convertFromString(positiveInfinity: String, negativeInfinity: String, nan: String)
    }

    /// How keys are matched; `nil` keeps the format's default.
    public var keyDecodingStrategy: KeyDecodingStrategy?
    /// How `Date` values are decoded; `nil` keeps the format's default.
    public var dateDecodingStrategy: DateDecodingStrategy?
    /// How `Data` values are decoded; `nil` keeps the format's default.
    public var dataDecodingStrategy: DataDecodingStrategy?
    /// How infinities and NaN are read; `nil` keeps the format's default.
    public var nonConformingFloatDecodingStrategy: NonConformingFloatDecodingStrategy?
    /// Contextual information passed to every `init(from:)` as `Decoder.userInfo`, added to the format's own (a key
    /// set here replaces the same key set earlier).
    public var userInfo: [CodingUserInfoKey: any Sendable]

    /// Options; every strategy left `nil` keeps the format's default.
    public init(
        keyDecodingStrategy: KeyDecodingStrategy? = nil,
        dateDecodingStrategy: DateDecodingStrategy? = nil,
        dataDecodingStrategy: DataDecodingStrategy? = nil,
        nonConformingFloatDecodingStrategy: NonConformingFloatDecodingStrategy? = nil,
        userInfo: [CodingUserInfoKey: any Sendable] = [:]
    ) {
        self.keyDecodingStrategy = keyDecodingStrategy
        self.dateDecodingStrategy = dateDecodingStrategy
        self.dataDecodingStrategy = dataDecodingStrategy
        self.nonConformingFloatDecodingStrategy = nonConformingFloatDecodingStrategy
        self.userInfo = userInfo
    }

    /// Whether nothing is set: applying the options changes nothing.
    public var isEmpty: Bool {
        keyDecodingStrategy == nil && dateDecodingStrategy == nil && dataDecodingStrategy == nil
            && nonConformingFloatDecodingStrategy == nil && userInfo.isEmpty
    }

    /// These options with every field `other` sets replacing this one's, and `other`'s `userInfo` added (its keys
    /// winning): how a later level (a call) overrides an earlier one (a registry default).
    public func overridden(by other: DecodingOptions) -> DecodingOptions {
        var result = self
        if let key = other.keyDecodingStrategy { result.keyDecodingStrategy = key }
        if let date = other.dateDecodingStrategy { result.dateDecodingStrategy = date }
        if let data = other.dataDecodingStrategy { result.dataDecodingStrategy = data }
        if let floats = other.nonConformingFloatDecodingStrategy { result.nonConformingFloatDecodingStrategy = floats }
        for (key, value) in other.userInfo { result.userInfo[key] = value }
        return result
    }
}

// MARK: - Key conversion

extension DecodingOptions.KeyDecodingStrategy {
    /// The coding key that a body's `key` matches under this strategy, for a format that reads keys as strings:
    /// `key` itself, its `camelCase` form (``convertFromSnakeCase(_:)``), or the custom closure's key for
    /// `codingPath` (the path of the object) followed by `key`.
    public func convert(_ key: String, codingPath: [any CodingKey]) -> String {
        switch self {
        case .useDefaultKeys: return key
        case .convertFromSnakeCase: return Self.convertFromSnakeCase(key)
        case .custom(let converter): return converter(codingPath + [BodyKey(stringValue: key)]).stringValue
        }
    }

    /// `JSONDecoder`'s `.convertFromSnakeCase` key conversion: `one_two_three` → `oneTwoThree`, `_private_key_` →
    /// `_privateKey_`, `UPPER_CASE` → `upperCase`, `camelCase` unchanged. The first word is lowercased and the
    /// others capitalized (`String.capitalized`); leading and trailing underscores are kept.
    public static func convertFromSnakeCase(_ key: String) -> String {
        guard let firstWord = key.firstIndex(where: { $0 != "_" }) else { return key }
        var lastWord = key.index(before: key.endIndex)
        while lastWord > firstWord && key[lastWord] == "_" { key.formIndex(before: &lastWord) }
        let words = key[firstWord...lastWord].split(separator: "_")
        let joined: String
        if words.count == 1 {
            joined = String(key[firstWord...lastWord])
        } else {
            joined = ([words[0].lowercased()] + words.dropFirst().map { String($0).capitalized }).joined()
        }
        return String(key[..<firstWord]) + joined + String(key[key.index(after: lastWord)...])
    }
}

/// A key of the body, as a custom key strategy is given it.
private struct BodyKey: CodingKey {
    let stringValue: String
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
    var intValue: Int? { nil }
}

// MARK: - Configuration

extension DecodingOptions {
    /// The options a configuration document can set (a chain file's `decoding` object), each said once as an
    /// ``OptionKey``: `keyDecodingStrategy` (`useDefaultKeys`, `convertFromSnakeCase`), `dateDecodingStrategy`
    /// (`deferredToDate`, `secondsSince1970`, `millisecondsSince1970`, `iso8601`, `iso8601WithFractionalSeconds`),
    /// `dataDecodingStrategy` (`deferredToData`, `base64`) and `nonConformingFloatDecodingStrategy` (`"throw"`, or
    /// `{"positiveInfinity", "negativeInfinity", "nan"}` strings). Closures and `userInfo` are set in code.
    public static var optionKeys: [OptionKey<DecodingOptions>] {
        [
            named(
                "keyDecodingStrategy", \.keyDecodingStrategy, KeyDecodingStrategy.named,
                summary: "How object keys match coding keys; convertFromSnakeCase reads snake_case APIs."),
            named(
                "dateDecodingStrategy", \.dateDecodingStrategy, DateDecodingStrategy.named,
                summary: "How Date values are read: seconds since 2001 (deferredToDate), a Unix time or ISO 8601."),
            named(
                "dataDecodingStrategy", \.dataDecodingStrategy, DataDecodingStrategy.named,
                summary: "How Data values are read: Base64 strings, or arrays of bytes (deferredToData)."),
            OptionKey(
                "nonConformingFloatDecodingStrategy", .any,
                summary: "How infinities and NaN are read: \"throw\", or {\"positiveInfinity\", \"negativeInfinity\", "
                    + "\"nan\"} naming the strings that stand for them.",
                defaultValue: { $0.nonConformingFloatDecodingStrategy?.configurationValue }
            ) { value, options, id throws(SerializationError) in
                options.nonConformingFloatDecodingStrategy = try NonConformingFloatDecodingStrategy(
                    configuration: value, for: id)
            },
        ]
    }

    /// The schema of ``optionKeys``: what `decant config check` and error messages list.
    public static var optionSchema: [SerializerOption] {
        optionKeys.map { $0.schema(defaults: DecodingOptions()) }
    }

    /// The options of a configuration object, such as a chain file's `decoding`.
    ///
    /// - Parameters:
    ///   - configuration: The configuration object's values.
    ///   - id: What the options belong to, named in errors (`decoding` by default).
    /// - Throws: ``SerializationError/Code/unknownOption`` (naming the nearest option) or
    ///   ``SerializationError/Code/invalidOption`` (naming what is allowed), with the option name in
    ///   ``SerializationError/codingPath``.
    public init(configuration: ConfigurationOptions, for id: SerializerID = "decoding") throws(SerializationError) {
        let problems = SerializerOption.problems(configuration, against: Self.optionSchema, for: id, noun: "object")
        if let first = problems.first { throw first }
        var options = DecodingOptions()
        for key in Self.optionKeys {
            guard let value = configuration[key.name] else { continue }
            try key.apply(value, &options, id)
        }
        self = options
    }

    /// Every problem of `configuration` as decoding options, each with the option name in
    /// ``SerializationError/codingPath``; empty when it is valid.
    public static func problems(
        in configuration: ConfigurationOptions, for id: SerializerID = "decoding"
    ) -> [SerializationError] {
        let schemaProblems = SerializerOption.problems(configuration, against: optionSchema, for: id, noun: "object")
        guard schemaProblems.isEmpty else { return schemaProblems }
        do {
            _ = try DecodingOptions(configuration: configuration, for: id)
            return []
        } catch {
            return [error]
        }
    }

    /// A key naming one of `choices` (the strategies without closures).
    private static func named<Strategy: Sendable>(
        _ name: String, _ keyPath: any WritableKeyPath<DecodingOptions, Strategy?> & Sendable,
        _ choices: [(name: String, strategy: Strategy)], summary: String
    ) -> OptionKey<DecodingOptions> {
        OptionKey(
            name, .string(allowed: choices.map(\.name)), summary: summary + " Unset: the format's default.",
            defaultValue: { _ in nil }
        ) { value, options, _ in
            if case .string(let text) = value, let choice = choices.first(where: { $0.name == text }) {
                options[keyPath: keyPath] = choice.strategy
            }
        }
    }
}

extension DecodingOptions.KeyDecodingStrategy {
    /// The strategies a configuration document can name.
    static let named: [(name: String, strategy: Self)] = [
        ("useDefaultKeys", .useDefaultKeys), ("convertFromSnakeCase", .convertFromSnakeCase),
    ]
}

extension DecodingOptions.DateDecodingStrategy {
    /// The strategies a configuration document can name.
    static let named: [(name: String, strategy: Self)] = [
        ("deferredToDate", .deferredToDate), ("secondsSince1970", .secondsSince1970),
        ("millisecondsSince1970", .millisecondsSince1970), ("iso8601", .iso8601),
        ("iso8601WithFractionalSeconds", .iso8601WithFractionalSeconds),
    ]
}

extension DecodingOptions.DataDecodingStrategy {
    /// The strategies a configuration document can name.
    static let named: [(name: String, strategy: Self)] = [("deferredToData", .deferredToData), ("base64", .base64)]
}

extension DecodingOptions.NonConformingFloatDecodingStrategy {
    /// The strategy as a configuration value.
    var configurationValue: ConfigurationValue {
        switch self {
        case .throw:
            return .string("throw")
        case .convertFromString(let positiveInfinity, let negativeInfinity, let nan):
            return .object([
                "positiveInfinity": .string(positiveInfinity), "negativeInfinity": .string(negativeInfinity),
                "nan": .string(nan),
            ])
        }
    }

    /// The strategy of a configuration value: `"throw"`, or an object of the three strings.
    init(configuration value: ConfigurationValue, for id: SerializerID) throws(SerializationError) {
        let name = "nonConformingFloatDecodingStrategy"
        let expected =
            "must be \"throw\" or an object of three strings, {\"positiveInfinity\": \"inf\", "
            + "\"negativeInfinity\": \"-inf\", \"nan\": \"nan\"}"
        switch value {
        case .string("throw"):
            self = .throw
        case .object(let members):
            var strings: [String: String] = [:]
            for (key, member) in members {
                guard ["positiveInfinity", "negativeInfinity", "nan"].contains(key), case .string(let text) = member
                else {
                    throw SerializationError(
                        code: .invalidOption,
                        message: "The option '\(name)' of '\(id)' \(expected); '\(key)' is not one of them or not a "
                            + "string.",
                        serializerID: id, codingPath: [name, key])
                }
                strings[key] = text
            }
            guard let positive = strings["positiveInfinity"], let negative = strings["negativeInfinity"],
                let nan = strings["nan"]
            else {
                throw SerializationError(
                    code: .invalidOption, message: "The option '\(name)' of '\(id)' \(expected); a string is missing.",
                    serializerID: id, codingPath: [name])
            }
            self = .convertFromString(positiveInfinity: positive, negativeInfinity: negative, nan: nan)
        default:
            throw SerializationError(
                code: .invalidOption, message: "The option '\(name)' of '\(id)' \(expected), not \(value).",
                serializerID: id, codingPath: [name])
        }
    }
}
