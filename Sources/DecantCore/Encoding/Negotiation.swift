/// How a registry chose the media type to write a value in for an `Accept` header (RFC 9110 §12.5.1): every
/// acceptable candidate in order of preference, the formats that were passed over and why, and the choice.
///
/// Candidates are ordered by the quality the header gives their media type (the quality of the most specific range
/// matching it, so `*/*, application/json;q=0` excludes JSON), then by the specificity of that range (a type named
/// outright beats one a wildcard allowed), then formats whose own value type the value is
/// (``BodyEncoder/writesAsOwnType(_:)``: a `String` is text before it is a JSON string), then by the registry's
/// installation order. A header with no usable
/// element accepts anything.
///
/// ```swift
/// let negotiation = registry.negotiate(value, accepting: AcceptHeader(parsing: "text/html, application/json;q=0.1"))
/// print(negotiation)   // candidates with qualities, skipped formats, the choice
/// ```
public struct Negotiation: Sendable, CustomStringConvertible {
    /// One media type a format could write the value in, with what ranks it.
    public struct Candidate: Sendable, Hashable, CustomStringConvertible {
        /// The format.
        public let id: SerializerID
        /// The media type it would write (before the format adds parameters such as `charset`).
        public let mediaType: MediaType
        /// The quality the `Accept` header gives ``mediaType`` (1 without a header).
        public let quality: Double
        /// The `Accept` range that gave the quality, or `nil` without a header.
        public let acceptedBy: MediaRange?
        /// The format's position in installation order.
        public let order: Int

        /// `json → application/json (q=1, by */*)`.
        public var description: String {
            "\(id) → \(mediaType) (q=\(Negotiation.format(quality))\(acceptedBy.map { ", by \($0)" } ?? ""))"
        }
    }

    /// A format passed over, and why.
    public struct Skipped: Sendable, Hashable, CustomStringConvertible {
        /// The format.
        public let id: SerializerID
        /// Why it was not a candidate, as a sentence fragment (`does not write Int`).
        public let reason: String

        /// `string: does not write JSONValue`.
        public var description: String { "\(id): \(reason)" }
    }

    /// The header negotiated against; `nil` when the request had none (anything is acceptable).
    public let accept: AcceptHeader?
    /// The type of the value being written.
    public let valueType: String
    /// The acceptable candidates, preferred first.
    public let candidates: [Candidate]
    /// The formats that were not candidates, in installation order.
    public let skipped: [Skipped]

    /// The preferred candidate, or `nil` when nothing acceptable can be written (a server answers 406).
    public var chosen: Candidate? { candidates.first }

    /// A printable trace: the header, every candidate, every skipped format and the choice.
    public var description: String {
        var lines = ["Accept: \(accept.map(\.description) ?? "(none: anything is acceptable)")"]
        lines.append("value: \(valueType)")
        for (index, candidate) in candidates.enumerated() {
            lines.append("  \(index + 1). \(candidate)")
        }
        for skipped in skipped {
            lines.append("  skipped \(skipped)")
        }
        lines.append(chosen.map { "chosen: \($0.id) → \($0.mediaType)" } ?? "chosen: none (not acceptable)")
        return lines.joined(separator: "\n")
    }

    /// A quality as the header would write it: `1`, `0.5`, `0.001`.
    static func format(_ quality: Double) -> String {
        if quality == 1 { return "1" }
        if quality == 0 { return "0" }
        var text = String(Int((quality * 1000).rounded()))
        while text.count < 3 { text = "0" + text }
        while text.hasSuffix("0") { text.removeLast() }
        return "0." + text
    }

    /// A format taking part in a negotiation: its encoder and the value it would write, or why it has none.
    struct Offer {
        let encoder: (any BodyEncoder)?
        let id: SerializerID
        let order: Int
        let value: Result<any Sendable, SerializationError>

        init(encoder: any BodyEncoder, order: Int, value: Result<any Sendable, SerializationError>) {
            self.init(encoder: encoder, id: encoder.id, order: order, value: value)
        }

        init(encoder: (any BodyEncoder)?, id: SerializerID, order: Int, value: Result<any Sendable, SerializationError>)
        {
            self.encoder = encoder
            self.id = id
            self.order = order
            self.value = value
        }
    }

    /// Negotiates among `offers`, in installation order.
    init(accept: AcceptHeader?, valueDescription: String, offers: [Offer]) {
        self.accept = accept
        self.valueType = valueDescription
        let header = accept.flatMap { $0.elements.isEmpty ? nil : $0 }
        var candidates: [(candidate: Candidate, specificity: MediaRange.Specificity, ownType: Bool, index: Int)] = []
        var skipped: [Skipped] = []
        for offer in offers {
            let value: any Sendable
            switch offer.value {
            case .success(let offered): value = offered
            case .failure(let error):
                skipped.append(Skipped(id: offer.id, reason: error.message))
                continue
            }
            guard let encoder = offer.encoder, encoder.canEncode(value) else {
                skipped.append(Skipped(id: offer.id, reason: "does not write \(type(of: value))"))
                continue
            }
            var offered: [MediaType] = []
            if let header {
                for element in header.elements where element.quality > 0 {
                    if case .exact(let type, let subtype) = element.range.pattern {
                        let named = MediaType(type: type, subtype: subtype, parameters: element.range.parameters)
                        if encoder.writes(named) { offered.append(named) }
                    } else {
                        offered += encoder.writtenTypes.filter { element.range.matches($0) }
                    }
                }
            } else if let preferred = encoder.defaultMediaType {
                offered = [preferred]
            }
            var seen = Set<MediaType>()
            var accepted = 0
            for mediaType in offered where seen.insert(mediaType).inserted {
                let (quality, range) = Self.quality(of: mediaType, in: header)
                guard quality > 0 else { continue }
                let candidate = Candidate(
                    id: offer.id, mediaType: mediaType, quality: quality, acceptedBy: range, order: offer.order)
                candidates.append(
                    (
                        candidate, range?.specificity ?? MediaRange.any.specificity, encoder.writesAsOwnType(value),
                        candidates.count
                    ))
                accepted += 1
            }
            if accepted == 0 {
                let writes = encoder.mediaRanges.map(\.description).joined(separator: ", ")
                skipped.append(
                    Skipped(
                        id: offer.id,
                        reason: offered.isEmpty
                            ? "writes \(writes), none of which the header accepts"
                            : "writes \(writes), but the header gives those types q=0"))
            }
        }
        candidates.sort {
            if $0.candidate.quality != $1.candidate.quality { return $0.candidate.quality > $1.candidate.quality }
            if $0.specificity != $1.specificity { return $0.specificity > $1.specificity }
            if $0.ownType != $1.ownType { return $0.ownType }
            if $0.candidate.order != $1.candidate.order { return $0.candidate.order < $1.candidate.order }
            return $0.index < $1.index
        }
        self.candidates = candidates.map(\.candidate)
        self.skipped = skipped
    }

    /// The quality `header` gives `mediaType` and the range that gives it (``AcceptHeader/element(for:)``); 1 and
    /// `nil` without a header.
    static func quality(of mediaType: MediaType, in header: AcceptHeader?) -> (Double, MediaRange?) {
        guard let header else { return (1, nil) }
        let element = header.element(for: mediaType)
        return (element?.quality ?? 0, element?.range)
    }
}
