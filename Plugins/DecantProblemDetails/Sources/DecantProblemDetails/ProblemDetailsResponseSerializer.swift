public import DecantCore
import DecantJSON
import DecantXMLParser

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// Parses `application/problem+json` and `application/problem+xml` bodies into ``ProblemDetails`` (RFC 9457).
///
/// Its id is `problemDetails`. It claims the two exact media types, so a registry that also has the JSON module
/// chooses it over the JSON serializer's `*/*+json` range (an exact range is more specific than a suffix range), and
/// falls back to the JSON serializer when a `problem+json` body is not an object. Relative `type` and `instance`
/// references are resolved against the response's `Response.url`.
///
/// Installed in a registry, it also decodes error bodies: a 4xx or 5xx response with a problem document fails with
/// `SerializationError.Code.unacceptableStatusCode` whose `errorValue` is the ``ProblemDetails`` (see
/// `SerializationError.problemDetails`).
///
/// ```swift
/// let registry = SerializerRegistry.standard.installing(.problemDetails)
/// do {
///     let value = try registry.serialize(response)
/// } catch let error as SerializationError {
///     print(error.problemDetails?.title ?? error.message)
/// }
/// ```
public struct ProblemDetailsResponseSerializer: ResponseSerializer, FormatComponent {
    /// The `problemDetails` format.
    public static var format: MediaFormat { .problemDetails }

    /// How bodies are parsed and the limits.
    public var options: ProblemDetailsOptions
    /// The media ranges accepted; the format's media ranges unless set.
    public var mediaRanges: [MediaRange]

    /// Creates the serializer.
    public init(
        options: ProblemDetailsOptions = ProblemDetailsOptions(),
        mediaRanges: [MediaRange] = MediaFormat.problemDetails.mediaRanges
    ) {
        self.options = options
        self.mediaRanges = mediaRanges
    }

    /// `true`: problem details are JSON or XML, which allow whitespace around their value, so a body of only whitespace
    /// is an empty body.
    public func countsWhitespaceAsEmpty(for response: Response) -> Bool { true }

    /// Parses the body as JSON or XML, chosen by ``ProblemDetails/Format/init(mediaType:body:)``, resolving relative
    /// references against the response's URL.
    ///
    /// - Throws: `SerializationError`, as ``ProblemDetails/init(parsing:format:mediaType:baseURL:options:)`` does,
    ///   with the response attached.
    public func serialize(_ response: Response) throws(SerializationError) -> ProblemDetails {
        let mediaType = response.contentType
        do {
            return try ProblemDetails(
                parsing: response.body, format: ProblemDetails.Format(mediaType: mediaType, body: response.body),
                mediaType: mediaType, baseURL: response.url, options: options)
        } catch {
            throw error.filling(response: response, mediaType: mediaType, serializerID: id)
        }
    }
}

extension ProblemDetails {
    /// The two forms RFC 9457 defines.
    public enum Format: String, Sendable, Hashable, CaseIterable {
        /// `application/problem+json` (RFC 9457 §3).
        case json
        /// `application/problem+xml` (RFC 9457 Appendix B).
        case xml

        /// The form of a body: XML for an `xml` media type or `+xml` suffix, JSON for a `json` one or `+json`
        /// suffix; otherwise (no or another media type) XML when the first byte that is not whitespace or a byte
        /// order mark is `<`, else JSON.
        public init(mediaType: MediaType?, body: Data) {
            if let mediaType {
                if mediaType.subtype == "xml" || mediaType.suffix == "xml" {
                    self = .xml
                    return
                }
                if mediaType.subtype == "json" || mediaType.suffix == "json" {
                    self = .json
                    return
                }
            }
            var index = body.startIndex
            if body.starts(with: [0xEF, 0xBB, 0xBF]) { index += 3 }
            while index < body.endIndex, [0x20, 0x09, 0x0A, 0x0D].contains(body[index]) { index += 1 }
            self = index < body.endIndex && body[index] == UInt8(ascii: "<") ? .xml : .json
        }
    }

    /// The problem a body describes, in either form.
    ///
    /// JSON (RFC 9457 §3) is parsed with DecantJSON's `JSONParser`; see ``init(json:baseURL:)`` for how members are
    /// read. XML (RFC 9457 Appendix B) is parsed with DecantXMLParser's `XMLStreamParser`. The root must be `problem`
    /// in the namespace `urn:ietf:rfc:7807`; its child elements in that namespace are the members:
    /// - `type`, `title`, `status`, `detail`, `instance` with text only become the typed properties (`type`,
    ///   `instance` and `status` with surrounding XML whitespace removed, as for `xsd:anyURI` and
    ///   `xsd:positiveInteger`; `status` must be a positive integer, digits with an optional `+`); with child
    ///   elements, or a `status` that is not a positive integer, they are ignored (§3.1);
    /// - every other element becomes an extension member named after its local name, whose value is
    ///   - a string, the element's text (character data and CDATA, as written), when it has no child elements
    ///     (`<balance>30</balance>` is `"30"`, `<empty/>` is `""`);
    ///   - an array, when every child element is named `i` (the notation of Appendix B's example: `<accounts><i>a</i>
    ///     <i>b</i></accounts>` is `["a", "b"]`), each item mapped by the same rules;
    ///   - else an object, one member per child element in order, mapped by the same rules (a repeated name keeps
    ///     its last value at its first position); text between child elements is ignored.
    ///
    /// Attributes, comments, processing instructions and elements in other namespaces (with their content) are
    /// ignored. When a member element occurs twice, the last one wins.
    ///
    /// - Parameters:
    ///   - data: The body.
    ///   - format: The form to parse.
    ///   - mediaType: The body's media type, for the XML form's `charset`.
    ///   - baseURL: The URL relative `type` and `instance` references are resolved against (the response's URL).
    ///   - options: Limits.
    /// - Throws: `SerializationError`: `bodyTooLarge` beyond ``ProblemDetailsOptions/maxBytes``, `limitExceeded`
    ///   beyond ``ProblemDetailsOptions/maxDepth`` or an XML limit, the parsers' `invalidBody` and `invalidEncoding`
    ///   errors (with `offset`), and `SerializationError.Code.notAProblemDocument` for a JSON body that
    ///   is not an object or an XML root other than `problem` in `urn:ietf:rfc:7807`.
    public init(
        parsing data: Data, format: Format, mediaType: MediaType? = nil, baseURL: URL? = nil,
        options: ProblemDetailsOptions = ProblemDetailsOptions()
    ) throws(SerializationError) {
        guard data.count <= options.maxBytes else {
            throw SerializationError(
                code: .bodyTooLarge,
                message: "The problem details body has \(data.count) bytes, more than the limit of "
                    + "\(options.maxBytes). Raise ProblemDetailsOptions.maxBytes (the problemDetails option "
                    + "'maxBytes') if such documents are expected.",
                serializerID: MediaFormat.problemDetails.id)
        }
        do {
            switch format {
            case .json:
                let value = try JSONParser(options: options.jsonParsing).parse(data)
                try self.init(json: value, baseURL: baseURL)
            case .xml:
                let handler = ProblemXMLHandler(baseURL: baseURL, maxDepth: options.xmlParsing.maxDepth)
                self = try XMLStreamParser(data: data, mediaType: mediaType, options: options.xmlParsing)
                    .parse(with: handler)
            }
        } catch {
            throw Self.rephrase(error, options: options)
        }
    }

    /// `error` with this plugin's id, and the depth limit named by this plugin's option.
    static func rephrase(_ error: SerializationError, options: ProblemDetailsOptions) -> SerializationError {
        var error = error
        error.serializerID = MediaFormat.problemDetails.id
        guard error.code == .limitExceeded else { return error }
        let isDepth =
            (error.underlying as? XMLParsingError)?.limitName == "maxDepth"
            || error.message.contains("JSONParsingOptions.maxDepth")
        if isDepth {
            error.message =
                "The problem details document nests deeper than \(options.maxDepth) levels. Raise "
                + "ProblemDetailsOptions.maxDepth (the problemDetails option 'maxDepth') if such documents are "
                + "expected. (\(error.message))"
        } else if error.underlying is XMLParsingError {
            error.message += " For problem+xml bodies, set it in ProblemDetailsOptions.xml."
        }
        return error
    }
}

extension MediaFormat {
    /// RFC 9457 problem details: id `problemDetails`; `application/problem+json` and `application/problem+xml`.
    public static let problemDetails = MediaFormat(
        id: "problemDetails", mediaRanges: ["application/problem+json", "application/problem+xml"],
        summary:
            "Parses RFC 9457 problem details (application/problem+json and application/problem+xml) into ProblemDetails."
    )
}
