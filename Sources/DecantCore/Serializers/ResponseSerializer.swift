/// Turns a ``Response`` into a value.
///
/// The one essential requirement is ``serialize(_:)``. Serializers are `Sendable` values; build them once and use
/// them from any task. Validation (status codes, empty bodies, size limits) is not the serializer's job: compose it
/// in front with ``ResponseChain``.
///
/// ```swift
/// struct LinesSerializer: ResponseSerializer {
///     var id: SerializerID { "acme.lines" }
///     var mediaRanges: [MediaRange] { ["text/plain"] }
///     func serialize(_ response: Response) throws -> [Substring] {
///         String(decoding: response.body, as: UTF8.self).split(separator: "\n")
///     }
/// }
/// ```
public protocol ResponseSerializer<Output>: Sendable {
    /// The value this serializer produces.
    associatedtype Output: Sendable

    /// The serializer's stable id, used in errors and traces, such as `json` or `acme.lines`.
    ///
    /// A serializer of a format says it once, in the format's ``MediaFormat``, and takes it from there by conforming
    /// to ``FormatComponent``; a registry runs the serializer under its factory's format whatever it reports here.
    /// There is no other default: an id derived from a type name would change when the type is renamed.
    var id: SerializerID { get }

    /// The media ranges this serializer accepts, most specific first (`*/*` for any).
    var mediaRanges: [MediaRange] { get }

    /// Whether ``serialize(_:)`` returns without parsing the body, leaving that to the caller (a ready-to-run
    /// parser, as the `xmlParser` serializer returns by default). Defaults to `false`.
    ///
    /// Such a serializer succeeds on any body, so it cannot confirm a body another serializer rejected: a
    /// ``CompoundSerializer`` (and so a registry) never tries it after an earlier attempt failed on the same
    /// response, because that would turn the failure into a success.
    var defersParsing: Bool { get }

    /// Turns `response` into an ``Output``.
    ///
    /// - Throws: A ``SerializationError`` saying what failed and how to fix it. Other errors are wrapped by the
    ///   chains and registries that call this (as ``SerializationError/Code/serializerFailed``).
    func serialize(_ response: Response) throws -> Output

    /// The value for a response whose body is empty (204, `HEAD`, `Content-Length: 0`, ...), when the empty-body
    /// policy asks for one.
    ///
    /// Defaults to throwing ``SerializationError/Code/emptyBody``: a serializer opts in by returning its format's
    /// empty value (JSON `null`, an empty string, ...).
    func emptyValue(for response: Response) throws -> Output

    /// Whether a body of only spaces, tabs, carriage returns and line feeds counts as an empty body for this format,
    /// so that the empty-body policy applies to it (``EmptyBodyPolicy/treatsWhitespaceAsEmpty`` must allow it too).
    ///
    /// Defaults to `false`: in a binary format, in plain text, CSV or a form, whitespace is content (CBOR `0x20` is
    /// the integer -1; a form body of two spaces is one field). Formats whose grammar allows whitespace around the
    /// value and nothing else in an empty document (JSON, XML, property lists) return `true`. A serializer that
    /// chooses among others by media type (a compound, a chain) answers for the one it would choose for `response`.
    func countsWhitespaceAsEmpty(for response: Response) -> Bool
}

extension ResponseSerializer {
    /// `false`: the body is parsed in ``serialize(_:)``.
    public var defersParsing: Bool { false }

    /// `false`: whitespace is content unless the format says otherwise.
    public func countsWhitespaceAsEmpty(for response: Response) -> Bool { false }

    /// Throws ``SerializationError/Code/emptyBody``.
    public func emptyValue(for response: Response) throws -> Output {
        throw SerializationError.noEmptyValue(serializerID: id, response: response)
    }

    /// Whether any of ``mediaRanges`` matches `mediaType`.
    public func accepts(_ mediaType: MediaType) -> Bool {
        mediaRanges.contains { $0.matches(mediaType) }
    }

    /// The specificity of the best range matching `mediaType`, or `nil` when none does.
    public func bestMatch(for mediaType: MediaType) -> MediaRange? {
        mediaRanges.filter { $0.matches(mediaType) }.max { $0.specificity < $1.specificity }
    }

    /// Calls ``serialize(_:)`` and turns any error into a ``SerializationError`` carrying this serializer's id,
    /// the response and its media type.
    public func serializeReportingErrors(_ response: Response) throws(SerializationError) -> Output {
        do {
            return try serialize(response)
        } catch {
            throw SerializationError(
                wrapping: error, serializerID: id, mediaType: response.contentType, response: response)
        }
    }
}

extension SerializationError {
    /// The error of a serializer that has no empty value for an empty response.
    static func noEmptyValue(serializerID: SerializerID, response: Response) -> SerializationError {
        SerializationError(
            code: .emptyBody,
            message: "The response body is empty and the serializer '\(serializerID)' has no empty value. Send a "
                + "body, or choose an empty-body policy whose outcome is an error you handle.",
            mediaType: response.contentType,
            serializerID: serializerID,
            response: response
        )
    }
}
