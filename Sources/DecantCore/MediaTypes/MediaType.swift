/// A parsed media type (MIME type) such as `application/problem+json;charset=utf-8`.
///
/// Parsing follows the WHATWG MIME Sniffing Standard's "parse a MIME type" by default (lenient, what browsers do
/// with `Content-Type`), or RFC 9110 §8.3.1 in ``ParsingMode/strict`` mode. The type, subtype and parameter names
/// are ASCII-lowercased; parameter values are kept as written; the first of duplicate parameters wins.
///
/// Equality and hashing are strict and lawful: `*` is an ordinary character here, never a wildcard (matching lives
/// in ``MediaRange``), and the order of parameters does not matter. The `charset` value compares
/// case-insensitively (RFC 9110 §8.3.2); all other values compare exactly.
///
/// ```swift
/// let type = try MediaType(parsing: "Application/Problem+JSON; Charset=UTF-8")
/// type.essence      // "application/problem+json"
/// type.suffix       // "json"
/// type.charset      // "UTF-8"
/// type.description  // "application/problem+json;charset=UTF-8"
/// ```
public struct MediaType: Sendable, Hashable {
    /// The lowercased top-level type, such as `application`.
    public let type: String
    /// The lowercased subtype, such as `problem+json`.
    public let subtype: String
    /// The parameters in the order they were written.
    public var parameters: MediaTypeParameters
    /// The type, subtype and suffix as tokens that compare as words, derived from them once, so that
    /// ``MediaRange/matches(_:)`` compares integers.
    let key: MediaTypeKey

    /// How strictly ``MediaType/init(parsing:mode:)`` reads its input.
    public enum ParsingMode: Sendable, Hashable {
        /// WHATWG "parse a MIME type": tolerant of stray spaces and bad parameters, which are dropped.
        case lenient
        /// RFC 9110 §8.3.1 `media-type` grammar: any deviation is an error.
        case strict
    }

    /// Creates a media type from already-valid parts. The parts are ASCII-lowercased.
    ///
    /// - Precondition: `type` and `subtype` are RFC 9110 tokens.
    public init(type: String, subtype: String, parameters: MediaTypeParameters = MediaTypeParameters()) {
        precondition(HTTPBytes.isToken(type.utf8) && HTTPBytes.isToken(subtype.utf8), "type and subtype must be tokens")
        self.type = HTTPBytes.lowercasedString(type.utf8)
        self.subtype = HTTPBytes.lowercasedString(subtype.utf8)
        self.parameters = parameters
        self.key = MediaTypeKey(type: self.type, subtype: self.subtype)
    }

    init(uncheckedType type: String, subtype: String, parameters: MediaTypeParameters) {
        self.type = type
        self.subtype = subtype
        self.parameters = parameters
        self.key = MediaTypeKey(type: type, subtype: subtype)
    }

    /// Parses `string` as a media type.
    ///
    /// - Parameters:
    ///   - string: A `Content-Type` value or any other media type text.
    ///   - mode: ``ParsingMode/lenient`` (WHATWG, the default) or ``ParsingMode/strict`` (RFC 9110).
    /// - Throws: ``MediaTypeParsingError`` saying where and why the text is not a media type.
    public init(parsing string: String, mode: ParsingMode = .lenient) throws(MediaTypeParsingError) {
        switch mode {
        case .lenient: self = try MediaTypeParser.parseLenient(string)
        case .strict: self = try MediaTypeParser.parseStrict(string)
        }
    }

    /// The type and subtype without parameters, such as `application/json`.
    public var essence: String { type + "/" + subtype }

    /// The structured syntax suffix (RFC 6838 §4.2.8) without the `+`, such as `json` for `application/ld+json`.
    ///
    /// `nil` when the subtype has no `+` or nothing follows the last one.
    public var suffix: String? {
        guard let plus = subtype.utf8.lastIndex(of: UInt8(ascii: "+")) else { return nil }
        let rest = subtype.utf8[subtype.utf8.index(after: plus)...]
        return rest.isEmpty ? nil : String(Substring(rest))
    }

    /// The value of the `charset` parameter as written, or `nil`.
    public var charset: String? { parameters["charset"] }

    /// A copy with the parameter `name` set to `value` (or removed when `value` is `nil`).
    public func settingParameter(_ name: String, to value: String?) -> MediaType {
        var copy = self
        copy.parameters.set(value, forName: name)
        return copy
    }

    /// A copy without any parameters.
    public var withoutParameters: MediaType {
        MediaType(uncheckedType: type, subtype: subtype, parameters: MediaTypeParameters())
    }
}

extension MediaType: CustomStringConvertible, LosslessStringConvertible {
    /// The WHATWG serialization: `type/subtype;name=value`, values quoted only when they are not tokens.
    public var description: String { essence + parameters.description }

    /// Parses `description` leniently (WHATWG); `nil` when it is not a media type.
    public init?(_ description: String) {
        guard let parsed = try? MediaType(parsing: description) else { return nil }
        self = parsed
    }
}

extension MediaType: Codable {
    /// Decodes a media type from its string form (lenient parsing).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let string = try container.decode(String.self)
        do {
            self = try MediaType(parsing: string)
        } catch {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: error.description)
        }
    }

    /// Encodes the WHATWG serialization as a string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
