/// A pattern of media types that a serializer accepts or a client asks for: `*/*`, `image/*`, `application/json`,
/// `application/*+json`, `*/*+xml`, optionally with parameter constraints (`text/plain;charset=utf-8`).
///
/// Ranges order by ``specificity``: an exact type with parameters beats an exact type, which beats a suffix range,
/// which beats `type/*`, which beats `*/*`. ``SerializerRegistry`` resolves a response's media type to the most
/// specific matching range (RFC 9110 §12.5.1 uses the same precedence for `Accept`).
public struct MediaRange: Sendable, Hashable {
    /// The shape of a range, without its parameters.
    public enum Pattern: Sendable, Hashable {
        /// `*/*`: every media type.
        case any
        /// `type/*`: every subtype of one type.
        case type(String)
        /// `type/*+suffix` (or `*/*+suffix` when `type` is `nil`): every subtype with a structured syntax suffix.
        case suffix(type: String?, suffix: String)
        /// `type/subtype`: exactly one media type.
        case exact(type: String, subtype: String)
    }

    /// What the range matches, ignoring parameters.
    public let pattern: Pattern
    /// Parameters a media type must carry, with equal values (`charset` case-insensitively), to match.
    public let parameters: MediaTypeParameters
    /// ``pattern`` in the form ``matches(_:)`` compares, derived from it once.
    let key: PatternKey

    /// Creates a range from a pattern and parameter constraints. Names in `pattern` should be lowercase.
    public init(_ pattern: Pattern, parameters: MediaTypeParameters = MediaTypeParameters()) {
        self.pattern = pattern
        self.parameters = parameters
        self.key = PatternKey(pattern)
    }

    /// A range matching exactly `mediaType`'s essence and requiring each of its parameters.
    public init(_ mediaType: MediaType) {
        self.init(.exact(type: mediaType.type, subtype: mediaType.subtype), parameters: mediaType.parameters)
    }

    /// Parses a range such as `application/*+json` or `text/html;level=1`.
    ///
    /// - Throws: ``MediaTypeParsingError`` when the text is not a media type, or puts a `*` where a range cannot
    ///   have one (`*/json`, `application/js*n`).
    public init(parsing string: String) throws(MediaTypeParsingError) {
        let parsed = try MediaType(parsing: string)
        let type = parsed.type
        let subtype = parsed.subtype
        func failure(_ reason: String) -> MediaTypeParsingError {
            MediaTypeParsingError(input: string, offset: 0, reason: reason)
        }
        let pattern: Pattern
        if subtype == "*" {
            pattern = type == "*" ? .any : .type(type)
        } else if subtype.hasPrefix("*+") {
            let suffix = String(subtype.dropFirst(2))
            if suffix.isEmpty || suffix.contains("*") || suffix.contains("+") {
                throw failure("a suffix range needs one suffix after \"*+\", such as application/*+json")
            }
            pattern = .suffix(type: type == "*" ? nil : type, suffix: suffix)
        } else if type == "*" {
            throw failure("a wildcard type needs a wildcard subtype (\"*/*\" or \"*/*+suffix\")")
        } else if subtype.contains("*") {
            throw failure("\"*\" is only allowed as the whole subtype or before \"+suffix\"")
        } else {
            pattern = .exact(type: type, subtype: subtype)
        }
        self.init(pattern, parameters: parsed.parameters)
    }

    /// `*/*`.
    public static let any = MediaRange(.any)

    /// Whether `mediaType` falls within this range, including its parameter constraints.
    ///
    /// This is the one statement of the matching rule: a registry's resolution, ``MediaTypeValidation`` and
    /// ``CompoundSerializer`` all call it.
    @inline(__always)
    public func matches(_ mediaType: MediaType) -> Bool {
        key.matches(mediaType.key) && (parameters.storage.isEmpty || constrains(mediaType.parameters))
    }

    /// Whether `parameters` carry every parameter constraint of this range with an equal value (`charset`
    /// case-insensitively).
    private func constrains(_ parameters: MediaTypeParameters) -> Bool {
        for constraint in self.parameters {
            guard let value = parameters[constraint.name] else { return false }
            let equal =
                constraint.name == "charset"
                ? HTTPBytes.equalsIgnoringASCIICase(value, constraint.value) : value == constraint.value
            if !equal { return false }
        }
        return true
    }

    /// Whether every media type `other` matches is also matched by this range (this range is at least as wide).
    ///
    /// `*/*` covers everything; `text/*` covers `text/plain` and `text/*+xml`; `*/*+json` covers
    /// `application/*+json` and `application/problem+json`; parameter constraints must be a subset of `other`'s.
    public func covers(_ other: MediaRange) -> Bool {
        guard constrains(other.parameters) else { return false }
        switch (pattern, other.pattern) {
        case (.any, _):
            return true
        case (.type(let type), .type(let otherType)):
            return type == otherType
        case (.type(let type), .suffix(let otherType?, _)):
            return type == otherType
        case (.type(let type), .exact(let otherType, _)):
            return type == otherType
        case (.suffix(let type, let suffix), .suffix(let otherType, let otherSuffix)):
            return suffix == otherSuffix && (type == nil || type == otherType)
        case (.suffix(let type, let suffix), .exact(let otherType, let subtype)):
            return subtype.hasSuffix("+" + suffix) && (type == nil || type == otherType)
        case (.exact(let type, let subtype), .exact(let otherType, let otherSubtype)):
            return type == otherType && subtype == otherSubtype
        default:
            return false
        }
    }

    /// How specific this range is; higher wins. See ``Specificity``.
    public var specificity: Specificity {
        let rank: Specificity.Rank
        switch pattern {
        case .any: rank = .any
        case .type: rank = .type
        case .suffix(nil, _): rank = .anySuffix
        case .suffix: rank = .suffix
        case .exact: rank = .exact
        }
        return Specificity(rank: rank, parameterCount: parameters.count)
    }

    /// The specificity of a ``MediaRange``: its rank, then how many parameters it constrains.
    public struct Specificity: Sendable, Hashable, Comparable, CustomStringConvertible {
        /// The pattern's rank, least specific first.
        public enum Rank: Int, Sendable, Hashable, Comparable {
            /// `*/*`
            case any = 0
            /// `type/*`
            case type = 1
            /// `*/*+suffix`
            case anySuffix = 2
            /// `type/*+suffix`
            case suffix = 3
            /// `type/subtype`
            case exact = 4

            /// Orders ranks from least to most specific.
            public static func < (lhs: Rank, rhs: Rank) -> Bool { lhs.rawValue < rhs.rawValue }
        }

        /// The pattern's rank.
        public let rank: Rank
        /// How many parameters the range constrains.
        public let parameterCount: Int

        /// A single number for traces: `rank × 100 + parameters` (`*/*` = 0, `application/json` = 400).
        public var score: Int { rank.rawValue * 100 + min(parameterCount, 99) }

        /// Orders by rank, then by parameter count.
        public static func < (lhs: Specificity, rhs: Specificity) -> Bool {
            (lhs.rank, lhs.parameterCount) < (rhs.rank, rhs.parameterCount)
        }

        /// The ``score`` as text.
        public var description: String { String(score) }
    }
}

extension MediaRange {
    /// A range's pattern as ``MediaToken``s: what ``MediaRange/matches(_:)`` compares with a ``MediaTypeKey``.
    struct PatternKey: Sendable, Hashable {
        /// The pattern's shape.
        enum Kind: UInt8, Sendable {
            case any, type, anySuffix, typedSuffix, exact
        }

        /// The shape.
        let kind: Kind
        /// The type (`.type`, `.typedSuffix`, `.exact`); ``MediaToken/absent`` otherwise.
        let type: MediaToken
        /// The subtype (`.exact`) or suffix (`.anySuffix`, `.typedSuffix`); ``MediaToken/absent`` otherwise.
        let name: MediaToken

        init(_ pattern: Pattern) {
            switch pattern {
            case .any: (kind, type, name) = (.any, .absent, .absent)
            case .type(let type): (kind, self.type, name) = (.type, MediaToken(type), .absent)
            case .suffix(nil, let suffix): (kind, type, name) = (.anySuffix, .absent, MediaToken(suffix))
            case .suffix(let type?, let suffix):
                (kind, self.type, name) = (.typedSuffix, MediaToken(type), MediaToken(suffix))
            case .exact(let type, let subtype):
                (kind, self.type, name) = (.exact, MediaToken(type), MediaToken(subtype))
            }
        }

        /// Whether the pattern matches the media type whose key is `key`.
        @inline(__always)
        func matches(_ key: MediaTypeKey) -> Bool {
            switch kind {
            case .any: true
            case .type: key.type == type
            case .anySuffix: key.suffix == name
            case .typedSuffix: key.type == type && key.suffix == name
            case .exact: key.type == type && key.subtype == name
            }
        }
    }
}

extension MediaRange: CustomStringConvertible, LosslessStringConvertible {
    /// The range as it would be written in an `Accept` header.
    public var description: String {
        let head: String
        switch pattern {
        case .any: head = "*/*"
        case .type(let type): head = type + "/*"
        case .suffix(let type, let suffix): head = (type ?? "*") + "/*+" + suffix
        case .exact(let type, let subtype): head = type + "/" + subtype
        }
        return head + parameters.description
    }

    /// Parses `description`; `nil` when it is not a media range.
    public init?(_ description: String) {
        guard let parsed = try? MediaRange(parsing: description) else { return nil }
        self = parsed
    }
}

extension MediaRange: Codable {
    /// Decodes a range from its string form.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let string = try container.decode(String.self)
        do {
            self = try MediaRange(parsing: string)
        } catch {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: error.description)
        }
    }

    /// Encodes the range as its string form.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

extension MediaRange: ExpressibleByStringLiteral {
    /// A range written in code, such as `"application/json"`, `"image/*"` or `"*/*+xml"`:
    /// `let ranges: [MediaRange] = ["application/json", "text/*"]`.
    ///
    /// The literal is source code, never input: one that is not a valid range (see ``init(parsing:)``) stops the program
    /// with a message naming it. Parse ranges that come from input or configuration with that initializer.
    public init(stringLiteral value: String) {
        guard let range = MediaRange(value as String) else {
            preconditionFailure("'\(value)' is not a media range: write type/subtype, type/*, */*+suffix or */*.")
        }
        self = range
    }
}

extension MediaType: ExpressibleByStringLiteral {
    /// A media type written in code, such as `"application/json"` or `"text/plain;charset=utf-8"`.
    ///
    /// The literal is source code, never input: one that is not a media type stops the program with a message naming
    /// it. Parse media types that come from input with ``init(parsing:mode:)``.
    public init(stringLiteral value: String) {
        guard let mediaType = MediaType(value as String) else {
            preconditionFailure("'\(value)' is not a media type: write type/subtype, optionally with ;parameters.")
        }
        self = mediaType
    }
}
