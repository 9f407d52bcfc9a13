public import DecantCore

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// One body part of a multipart body: its header fields, its bytes, and the value its own `Content-Type` decoded to.
///
/// A part whose media type no serializer of the parts registry accepts is not an error: its ``value``,
/// ``serializerID`` and ``error`` are `nil` and its bytes are in ``body``. A part its serializer rejects keeps that
/// ``error``, whose message starts with the part's position and name (`Part 3 (index 2, name "photo"): ...`).
public struct MultipartPart: Sendable {
    /// The position of the part in its multipart body, from 0.
    public var index: Int
    /// The part's header fields in the order sent, duplicates kept; folded lines are unfolded.
    public var headers: HTTPHeaderFields
    /// The media type the part was decoded as: its `Content-Type`, or `text/plain` when it has none (with the
    /// charset of a form's `_charset_` field, for `multipart/form-data`).
    public var contentType: MediaType
    /// The part's bytes after its `Content-Transfer-Encoding` was undone. For `7bit`, `8bit`, `binary` or no
    /// encoding this is a slice of the response body (it shares its storage, and its `startIndex` is not 0).
    public var body: Data
    /// The byte offset of the part's body in the response body (the offset of the encoded bytes, for a part with a
    /// `base64` or `quoted-printable` transfer encoding).
    public var bodyOffset: Int
    /// The id of the serializer that decoded ``value``: `multipart` for a nested multipart part; `nil` when no
    /// serializer accepts the part's media type or decoding failed.
    public var serializerID: SerializerID?
    /// The decoded value (for a nested multipart part, a ``MultipartBody``), or `nil`.
    public var value: (any Sendable)?
    /// Why the part could not be decoded, or `nil`.
    public var error: SerializationError?
    /// The `name` parameter of the part's `Content-Disposition` (the form field name of `multipart/form-data`).
    public var name: String?
    /// The file name of the part's `Content-Disposition`: `filename*` (RFC 8187) when present and readable, else
    /// `filename`.
    public var filename: String?
    /// The part's `Content-Range`, when it has a valid one (every part of `multipart/byteranges` must).
    public var contentRange: MultipartContentRange?

    /// Creates a part.
    public init(
        index: Int,
        headers: HTTPHeaderFields,
        contentType: MediaType,
        body: Data,
        bodyOffset: Int = 0,
        serializerID: SerializerID? = nil,
        value: (any Sendable)? = nil,
        error: SerializationError? = nil,
        name: String? = nil,
        filename: String? = nil,
        contentRange: MultipartContentRange? = nil
    ) {
        self.index = index
        self.headers = headers
        self.contentType = contentType
        self.body = body
        self.bodyOffset = bodyOffset
        self.serializerID = serializerID
        self.value = value
        self.error = error
        self.name = name
        self.filename = filename
        self.contentRange = contentRange
    }

    /// The decoded value as a `T`, or `nil` when there is none or it has another type.
    public func value<T>(as type: T.Type) -> T? { value as? T }

    /// The body decoded as UTF-8 text (invalid sequences replaced by U+FFFD), for simple form fields.
    public var text: String { String(decoding: body, as: UTF8.self) }
}
