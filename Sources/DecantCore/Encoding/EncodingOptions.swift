#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// How values are encoded into bodies: the key, date, data and non-conforming float strategies, the output
/// formatting and the `userInfo` that `JSONEncoder` users know, in one format-neutral value.
///
/// Every format that encodes reads what applies to it (see ``BodyEncoder/encode(_:as:options:)``): JSON reads them
/// all; a format with no such choice (property lists carry real dates and data) ignores what does not apply. A field
/// left `nil` keeps the format's default (`JSONEncoder`'s for JSON). The levels, later ones winning field by field: the
/// registry's ``SerializerRegistry/encodingOptions``, then the options of one call.
///
/// ```swift
/// let options = EncodingOptions(keyEncodingStrategy: .convertToSnakeCase, outputFormatting: [.sortedKeys])
/// let body = try SerializerRegistry.standard.encode(user, as: "application/json", options: options)
/// ```
public struct EncodingOptions: Sendable {
    /// How the coding keys of the types being encoded become the body's keys (`JSONEncoder`'s strategies).
    public enum KeyEncodingStrategy: Sendable {
        /// Keys are written as they are. `JSONEncoder`'s default.
        case useDefaultKeys
        /// Keys are converted from `camelCase` to `snake_case` as `JSONEncoder` does: `oneTwoThree` becomes
        /// `one_two_three`, `myURLKey` becomes `my_url_key`. Keys of `[String: Value]` dictionaries are not converted.
        case convertToSnakeCase
        /// Keys are converted by a closure, given the coding path with the key as its last component.
        case custom(@Sendable (_ codingPath: [any CodingKey]) -> any CodingKey)
    }

    /// How `Date` values are encoded.
    public enum DateEncodingStrategy: Sendable {
        /// `Date`'s own `Encodable` implementation: a number of seconds since 2001-01-01T00:00:00Z. `JSONEncoder`'s
        /// default.
        case deferredToDate
        /// A number of seconds since 1970-01-01T00:00:00Z (a Unix timestamp).
        case secondsSince1970
        /// A number of milliseconds since 1970-01-01T00:00:00Z.
        case millisecondsSince1970
        /// An RFC 3339 internet date-time in UTC, such as `2024-05-01T12:00:00Z`, as `JSONEncoder`'s `.iso8601`.
        case iso8601
        /// An RFC 3339 internet date-time in UTC with milliseconds, such as `2024-05-01T12:00:00.250Z`.
        case iso8601WithFractionalSeconds
        /// A closure that encodes the date with the encoder it is given.
        case custom(@Sendable (_ date: Date, _ encoder: any Encoder) throws -> Void)
    }

    /// How `Data` values are encoded.
    public enum DataEncodingStrategy: Sendable {
        /// `Data`'s own `Encodable` implementation: an array of byte values.
        case deferredToData
        /// A Base64 string (RFC 4648 §4, padded). `JSONEncoder`'s default.
        case base64
        /// A closure that encodes the data with the encoder it is given.
        case custom(@Sendable (_ data: Data, _ encoder: any Encoder) throws -> Void)
    }

    /// How infinities and NaN, which JSON numbers cannot express (RFC 8259 §6), are written.
    public enum NonConformingFloatEncodingStrategy: Sendable {
        /// Encoding one throws. `JSONEncoder`'s default.
        case `throw`
        /// The given strings are written for positive infinity, negative infinity and NaN.
        case convertToString(positiveInfinity: String, negativeInfinity: String, nan: String)
    }

    /// How text formats lay out their output.
    public struct OutputFormatting: OptionSet, Sendable, Hashable {
        /// The option bits.
        public let rawValue: Int
        /// Creates formatting from its bits.
        public init(rawValue: Int) { self.rawValue = rawValue }

        /// One member or element per line, indented.
        public static let prettyPrinted = OutputFormatting(rawValue: 1 << 0)
        /// Keys in the order of their UTF-8 bytes instead of the order they were encoded in.
        public static let sortedKeys = OutputFormatting(rawValue: 1 << 1)
        /// `/` written as it is rather than as `\/` (Decant's JSON never escapes it; kept for `JSONEncoder` users).
        public static let withoutEscapingSlashes = OutputFormatting(rawValue: 1 << 2)
    }

    /// How keys are written; `nil` keeps the format's default.
    public var keyEncodingStrategy: KeyEncodingStrategy?
    /// How `Date` values are written; `nil` keeps the format's default.
    public var dateEncodingStrategy: DateEncodingStrategy?
    /// How `Data` values are written; `nil` keeps the format's default.
    public var dataEncodingStrategy: DataEncodingStrategy?
    /// How infinities and NaN are written; `nil` keeps the format's default.
    public var nonConformingFloatEncodingStrategy: NonConformingFloatEncodingStrategy?
    /// How the output is laid out; `nil` keeps the format's default (compact, keys in encoding order).
    public var outputFormatting: OutputFormatting?
    /// Contextual information passed to every `encode(to:)` as `Encoder.userInfo` (a key set here replaces the same
    /// key set earlier).
    public var userInfo: [CodingUserInfoKey: any Sendable]

    /// Options; every field left `nil` keeps the format's default.
    public init(
        keyEncodingStrategy: KeyEncodingStrategy? = nil,
        dateEncodingStrategy: DateEncodingStrategy? = nil,
        dataEncodingStrategy: DataEncodingStrategy? = nil,
        nonConformingFloatEncodingStrategy: NonConformingFloatEncodingStrategy? = nil,
        outputFormatting: OutputFormatting? = nil,
        userInfo: [CodingUserInfoKey: any Sendable] = [:]
    ) {
        self.keyEncodingStrategy = keyEncodingStrategy
        self.dateEncodingStrategy = dateEncodingStrategy
        self.dataEncodingStrategy = dataEncodingStrategy
        self.nonConformingFloatEncodingStrategy = nonConformingFloatEncodingStrategy
        self.outputFormatting = outputFormatting
        self.userInfo = userInfo
    }

    /// Whether nothing is set.
    public var isEmpty: Bool {
        keyEncodingStrategy == nil && dateEncodingStrategy == nil && dataEncodingStrategy == nil
            && nonConformingFloatEncodingStrategy == nil && outputFormatting == nil && userInfo.isEmpty
    }

    /// These options with every field `other` sets replacing this one's, and `other`'s `userInfo` added (its keys
    /// winning): how a call overrides a registry's default.
    public func overridden(by other: EncodingOptions) -> EncodingOptions {
        var result = self
        if let key = other.keyEncodingStrategy { result.keyEncodingStrategy = key }
        if let date = other.dateEncodingStrategy { result.dateEncodingStrategy = date }
        if let data = other.dataEncodingStrategy { result.dataEncodingStrategy = data }
        if let floats = other.nonConformingFloatEncodingStrategy { result.nonConformingFloatEncodingStrategy = floats }
        if let formatting = other.outputFormatting { result.outputFormatting = formatting }
        for (key, value) in other.userInfo { result.userInfo[key] = value }
        return result
    }
}

extension EncodingOptions.KeyEncodingStrategy {
    /// The key written for the coding key `key` under this strategy: `key` itself, its `snake_case` form
    /// (``convertToSnakeCase(_:)``), or the custom closure's key for `codingPath` followed by `key`.
    public func convert(_ key: any CodingKey, codingPath: [any CodingKey]) -> String {
        switch self {
        case .useDefaultKeys: return key.stringValue
        case .convertToSnakeCase: return Self.convertToSnakeCase(key.stringValue)
        case .custom(let converter): return converter(codingPath + [key]).stringValue
        }
    }

    /// `JSONEncoder`'s `.convertToSnakeCase`, reproduced exactly so that servers see the keys they would see from
    /// it: after the first character, a word ends before each uppercase letter (Unicode categories Lu and Lt); a run
    /// of uppercase letters followed by a lowercase one (Ll) is a word up to the last capital; the words are
    /// lowercased and joined by `_`. So `oneTwoThree` → `one_two_three`, `myURLKey` → `my_url_key`, and, as
    /// `JSONEncoder` gives them, `URL` → `u_rl` and `a_B` → `a__b`. Linear in the key.
    public static func convertToSnakeCase(_ key: String) -> String {
        let scalars = Array(key.unicodeScalars)
        guard scalars.count > 1 else { return key.lowercased() }
        func isUpper(_ index: Int) -> Bool {
            let category = scalars[index].properties.generalCategory
            return category == .uppercaseLetter || category == .titlecaseLetter
        }
        func isLower(_ index: Int) -> Bool { scalars[index].properties.generalCategory == .lowercaseLetter }
        var words: [Range<Int>] = []
        var wordStart = 0
        var search = 1
        while let upper = (search..<scalars.count).first(where: isUpper) {
            words.append(wordStart..<upper)
            guard let lower = (upper..<scalars.count).first(where: isLower) else {
                wordStart = upper
                break
            }
            if lower == upper + 1 {
                wordStart = upper
            } else {
                // A run of capitals is a word, up to the capital that starts the next one.
                words.append(upper..<(lower - 1))
                wordStart = lower - 1
            }
            search = lower + 1
        }
        words.append(wordStart..<scalars.count)
        return words.map { range in
            var word = String.UnicodeScalarView()
            word.append(contentsOf: scalars[range])
            return String(word).lowercased()
        }.joined(separator: "_")
    }
}
