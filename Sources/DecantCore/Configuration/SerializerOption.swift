/// The declaration of one option a serializer factory understands: name, type, default and a summary.
///
/// Factories list these in ``SerializerFactory/optionSchema``; ``SerializerOption/validate(_:against:for:)`` checks
/// configuration options against them before a factory sees them, so every factory rejects unknown and ill-typed
/// options with the same precise messages.
public struct SerializerOption: Sendable, Hashable {
    /// The type an option's value must have.
    public enum Kind: Sendable, Hashable, CustomStringConvertible {
        /// `true` or `false`.
        case bool
        /// An integer, optionally within a closed range.
        case integer(ClosedRange<Int>?)
        /// Any number (integers are accepted too), optionally within a closed range.
        case number(ClosedRange<Double>?)
        /// A string, optionally one of a fixed set.
        case string(allowed: [String]?)
        /// An array of strings.
        case stringArray
        /// A media range such as `application/*+json`.
        case mediaRange
        /// An array of media ranges.
        case mediaRangeArray
        /// Any configuration value (the factory checks it).
        case any

        /// How an error message names the expected type.
        public var description: String {
            switch self {
            case .bool: return "a boolean"
            case .integer(nil): return "an integer"
            case .integer(let range?): return "an integer from \(range.lowerBound) to \(range.upperBound)"
            case .number(nil): return "a number"
            case .number(let range?): return "a number from \(range.lowerBound) to \(range.upperBound)"
            case .string(nil): return "a string"
            case .string(let allowed?): return "one of " + allowed.map { "\"\($0)\"" }.joined(separator: ", ")
            case .stringArray: return "an array of strings"
            case .mediaRange: return "a media range such as \"application/*+json\""
            case .mediaRangeArray: return "an array of media ranges such as [\"application/json\"]"
            case .any: return "any value"
            }
        }
    }

    /// The option's name in configuration documents, such as `maxDepth`.
    public let name: String
    /// The value's type.
    public let kind: Kind
    /// The value used when the option is absent, shown in `decant registry`.
    public let defaultValue: ConfigurationValue?
    /// One sentence on what the option does.
    public let summary: String

    /// Declares an option.
    public init(_ name: String, _ kind: Kind, default defaultValue: ConfigurationValue? = nil, summary: String) {
        self.name = name
        self.kind = kind
        self.defaultValue = defaultValue
        self.summary = summary
    }

    /// Whether `value` has this option's type and range; `nil` when it does, else what is wrong.
    public func problem(with value: ConfigurationValue) -> String? {
        let fits: Bool
        switch (kind, value) {
        case (.any, _): fits = true
        case (.bool, .bool): fits = true
        case (.integer(let range), .integer(let number)): fits = range?.contains(number) ?? true
        case (.integer(let range), .number(let number)) where number.rounded() == number && abs(number) < 1e15:
            fits = range?.contains(Int(number)) ?? true
        case (.number(let range), .number(let number)): fits = range?.contains(number) ?? true
        case (.number(let range), .integer(let number)): fits = range?.contains(Double(number)) ?? true
        case (.string(let allowed), .string(let text)): fits = allowed?.contains(text) ?? true
        case (.stringArray, .array(let values)):
            fits = values.allSatisfy { if case .string = $0 { true } else { false } }
        case (.mediaRange, .string(let text)): fits = MediaRange(text) != nil
        case (.mediaRangeArray, .array(let values)):
            fits = values.allSatisfy { if case .string(let text) = $0 { MediaRange(text) != nil } else { false } }
        default: fits = false
        }
        guard !fits else { return nil }
        // A number outside the range has the right type: name the value alone.
        switch (kind, value) {
        case (.integer, .integer), (.number, .number), (.number, .integer): return "must be \(kind), not \(value)"
        default: return "must be \(kind), not \(value.kindDescription) (\(value))"
        }
    }

    /// Checks `options` against `schema`: every name known, every value of the declared type.
    ///
    /// - Throws: ``SerializationError/Code/unknownOption`` naming the nearest known option and listing them all, or
    ///   ``SerializationError/Code/invalidOption`` naming the expected type; ``SerializationError/codingPath`` holds
    ///   the option name.
    public static func validate(
        _ options: ConfigurationOptions, against schema: [SerializerOption], for id: SerializerID
    ) throws(SerializationError) {
        if let first = problems(options, against: schema, for: id).first { throw first }
    }

    /// Every problem of `options` against `schema`, in option-name order: one ``SerializationError`` per unknown
    /// option (``SerializationError/Code/unknownOption``, with a "did you mean") or wrongly typed value
    /// (``SerializationError/Code/invalidOption``), each with the option name in ``SerializationError/codingPath``.
    /// Empty when the options are valid. `decant config check` reports them all at once. `noun` names what `id` is
    /// in the messages (`serializer`, or `stage` for a ``StageFactory``).
    public static func problems(
        _ options: ConfigurationOptions, against schema: [SerializerOption], for id: SerializerID,
        noun: String = "serializer"
    ) -> [SerializationError] {
        var found: [SerializationError] = []
        for name in options.keys.sorted() {
            guard let value = options[name] else { continue }
            guard let option = schema.first(where: { $0.name == name }) else {
                let known = schema.map(\.name)
                var message = "The \(noun) '\(id)' has no option '\(name)'."
                if let nearest = EditDistance.nearest(to: name, in: known) {
                    message += " Did you mean '\(nearest)'?"
                }
                message +=
                    known.isEmpty
                    ? " It takes no options." : " Its options are: " + known.sorted().joined(separator: ", ") + "."
                found.append(
                    SerializationError(code: .unknownOption, message: message, serializerID: id, codingPath: [name]))
                continue
            }
            if let problem = option.problem(with: value) {
                found.append(
                    SerializationError(
                        code: .invalidOption,
                        message: "The option '\(name)' of the \(noun) '\(id)' \(problem).",
                        serializerID: id,
                        codingPath: [name]
                    ))
            }
        }
        return found
    }
}
