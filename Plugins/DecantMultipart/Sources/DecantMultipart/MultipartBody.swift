public import DecantCore

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// A decoded multipart body (RFC 2046 §5.1): its parts in order, each with its own value, and the preamble and
/// epilogue around them.
///
/// ```swift
/// let form = try registry.serialize(response, as: MultipartBody.self)
/// let title = form.firstPart(named: "title")?.text
/// for photo in form.parts(named: "photos") { print(photo.filename ?? "?", photo.body.count) }
/// ```
public struct MultipartBody: Sendable {
    /// The media type of the body, such as `multipart/form-data; boundary=...`.
    public var mediaType: MediaType
    /// The boundary the parts are delimited by (without the leading `--`).
    public var boundary: String
    /// The bytes before the first delimiter, or `nil` when there are none. Senders put a note for non-MIME readers
    /// here; it carries no meaning.
    public var preamble: Data?
    /// The bytes after the line that holds the close delimiter, or `nil` when there are none.
    public var epilogue: Data?
    /// The parts, in order.
    public var parts: [MultipartPart]

    /// Creates a body.
    public init(
        mediaType: MediaType, boundary: String, preamble: Data? = nil, epilogue: Data? = nil,
        parts: [MultipartPart]
    ) {
        self.mediaType = mediaType
        self.boundary = boundary
        self.preamble = preamble
        self.epilogue = epilogue
        self.parts = parts
    }

    /// The parts whose `Content-Disposition` `name` is `name` (form fields can repeat), in order.
    public func parts(named name: String) -> [MultipartPart] { parts.filter { $0.name == name } }

    /// The first part whose `Content-Disposition` `name` is `name`, or `nil`.
    public func firstPart(named name: String) -> MultipartPart? { parts.first { $0.name == name } }

    /// The errors of the parts that could not be decoded, in order (nested bodies' parts not included).
    public var partErrors: [SerializationError] { parts.compactMap(\.error) }
}

extension MultipartBody: PartFailureReporting {
    /// The error of every part that failed, in document order, a nested multipart part's failures in its place.
    public var partFailures: [SerializationError] {
        parts.flatMap { part -> [SerializationError] in
            if let nested = part.value as? MultipartBody { return nested.partFailures }
            return part.error.map { [$0] } ?? []
        }
    }
}
