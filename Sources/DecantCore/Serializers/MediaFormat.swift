/// A format's identity, stated once: the id configuration files and errors use, the media ranges it claims and one
/// sentence saying what it is.
///
/// A format module declares its format once, as a static property, and every part of the format takes its id and
/// ranges from there: the serializer and the `Decodable` decoder by conforming to ``FormatComponent``, the factory by
/// default from its serializer. Nothing repeats the id or the ranges, so nothing can disagree.
///
/// ```swift
/// extension MediaFormat {
///     static let lines = MediaFormat(
///         id: "acme.lines", mediaRanges: ["text/plain"], summary: "Splits text/plain bodies into lines.")
/// }
///
/// struct LinesSerializer: ResponseSerializer, FormatComponent {
///     static var format: MediaFormat { .lines }
///     func serialize(_ response: Response) throws -> [Substring] {
///         String(decoding: response.body, as: UTF8.self).split(separator: "\n")
///     }
/// }
/// ```
public struct MediaFormat: Sendable, Hashable, CustomStringConvertible {
    /// The stable id configuration files use, such as `json` or `acme.yaml` (see ``SerializerID``).
    public var id: SerializerID
    /// The media ranges the format claims, most specific first (`*/*` for any).
    public var mediaRanges: [MediaRange]
    /// One sentence describing the format, shown by `decant registry`.
    public var summary: String

    /// Creates a format.
    ///
    /// - Parameters:
    ///   - id: The stable id, such as `acme.yaml`: a prefix for third-party formats keeps ids apart.
    ///   - mediaRanges: The media ranges claimed, most specific first.
    ///   - summary: One sentence describing the format.
    public init(id: SerializerID, mediaRanges: [MediaRange], summary: String) {
        self.id = id
        self.mediaRanges = mediaRanges
        self.summary = summary
    }

    /// The same format claiming `mediaRanges` instead: what a factory whose default options change the ranges
    /// returns as its ``SerializerFactory/format``.
    public func claiming(_ mediaRanges: [MediaRange]) -> MediaFormat {
        var copy = self
        copy.mediaRanges = mediaRanges
        return copy
    }

    /// The id and the ranges, such as `json (application/json, */*+json)`.
    public var description: String {
        "\(id) (\(mediaRanges.map(\.description).joined(separator: ", ")))"
    }
}

/// A part of one ``MediaFormat``, a serializer or a `Decodable` decoder, whose id and default media ranges are the
/// format's.
///
/// Conforming gives ``ResponseSerializer/id`` and ``ResponseSerializer/mediaRanges`` (and the same of a
/// ``ResponseDecoder``) from ``format``, and lets a ``SerializerFactory`` of the serializer take its
/// ``SerializerFactory/format`` from it. A serializer whose ranges can be configured stores its own `mediaRanges`,
/// which defaults to the format's.
public protocol FormatComponent {
    /// The format this type belongs to.
    static var format: MediaFormat { get }
}

extension ResponseSerializer where Self: FormatComponent {
    /// The format's id.
    public var id: SerializerID { Self.format.id }
    /// The format's media ranges.
    public var mediaRanges: [MediaRange] { Self.format.mediaRanges }
}

extension ResponseDecoder where Self: FormatComponent {
    /// The format's id.
    public var id: SerializerID { Self.format.id }
    /// The format's media ranges.
    public var mediaRanges: [MediaRange] { Self.format.mediaRanges }
}
