extension SerializerRegistry {
    /// Encodes `value` as a body of `mediaType` with the format that writes it.
    ///
    /// The candidates are the installed formats whose encoder writes `mediaType` (``BodyEncoder/writes(_:)``),
    /// most specific range first, then in installation order, as reading resolves; the first that writes values of
    /// `value`'s type (``BodyEncoder/canEncode(_:)``) encodes. The parameters of `mediaType` (such as `charset`) are
    /// passed to it; the body's ``EncodedBody/contentType`` says what was written.
    ///
    /// ```swift
    /// let body = try SerializerRegistry.standard.encode(JSONValue.object(["id": 1]), as: "application/json")
    /// body.contentType   // application/json
    /// ```
    ///
    /// - Parameters:
    ///   - value: The value: a format's own value type (`JSONValue`, `String`, `Data`) or an `Encodable` value for
    ///     formats that encode them.
    ///   - mediaType: The media type to write.
    ///   - options: The options of this call, each one set overriding the registry's ``encodingOptions``.
    /// - Throws: ``SerializationError``: ``SerializationError/Code/noSerializer`` when no installed format writes
    ///   `mediaType`; ``SerializationError/Code/unsupportedValue`` when those that do cannot write `value`'s type; the
    ///   encoder's own errors otherwise.
    public func encode(
        _ value: some Sendable, as mediaType: MediaType, options: EncodingOptions = EncodingOptions()
    ) throws(SerializationError) -> EncodedBody {
        let writers = encoders(writing: mediaType)
        guard let chosen = writers.first(where: { $0.encoder.canEncode(value) }) else {
            throw cannotWrite(value, as: mediaType, writers: writers.map(\.encoder))
        }
        return try chosen.encoder.encode(value, as: mediaType, options: encodingOptions.overridden(by: options))
    }

    /// Encodes `value` in the media type `accept` prefers among those the registry can write it in (content
    /// negotiation, RFC 9110 §12.5.1; see ``Negotiation`` for the order).
    ///
    /// ```swift
    /// let accept = AcceptHeader(parsing: "text/html, application/json;q=0.1")
    /// let body = try SerializerRegistry.standard.encode(JSONValue.object(["id": 1]), accepting: accept)
    /// body.contentType   // application/json: a JSON object is no text/html body
    /// ```
    ///
    /// - Parameters:
    ///   - value: The value.
    ///   - accept: The request's `Accept` header; `nil` (no header) accepts anything.
    ///   - options: The options of this call, each one set overriding the registry's ``encodingOptions``.
    /// - Throws: ``SerializationError`` with code ``SerializationError/Code/notAcceptable`` listing the media types
    ///   the registry can write the value in when the header accepts none of them (a server answers 406); the
    ///   encoder's own errors otherwise.
    public func encode(
        _ value: some Sendable, accepting accept: AcceptHeader?, options: EncodingOptions = EncodingOptions()
    ) throws(SerializationError) -> EncodedBody {
        let negotiation = negotiate(value, accepting: accept)
        guard let chosen = negotiation.chosen, let encoder = entry(for: chosen.id)?.encoder else {
            throw notAcceptable(value, negotiation: negotiation)
        }
        return try encoder.encode(value, as: chosen.mediaType, options: encodingOptions.overridden(by: options))
    }

    /// How ``encode(_:accepting:options:)`` chooses the media type for `value`: the acceptable candidates in order,
    /// the formats passed over and why, and the choice. Printing it gives a trace.
    public func negotiate(_ value: some Sendable, accepting accept: AcceptHeader?) -> Negotiation {
        negotiate(accepting: accept, valueDescription: String(describing: type(of: value))) { _ in .success(value) }
    }

    /// Negotiates among formats that each write a value of their own, such as a tool that builds each format's value
    /// from one description of it (`decant encode --accept` builds them from canonical JSON): `value` gives the
    /// entry's value, or the error that says why the format cannot have one (the format is skipped with it).
    ///
    /// - Parameters:
    ///   - accept: The `Accept` header; `nil` accepts anything.
    ///   - valueDescription: What the trace calls the value.
    ///   - value: The value for an entry that writes.
    public func negotiate(
        accepting accept: AcceptHeader?, valueDescription: String,
        value: (Entry) -> Result<any Sendable, SerializationError>
    ) -> Negotiation {
        var offers: [Negotiation.Offer] = []
        for entry in entries {
            if let encoder = entry.encoder {
                offers.append(Negotiation.Offer(encoder: encoder, order: entry.order, value: value(entry)))
            } else if let error = entry.encoderBuildError {
                offers.append(
                    Negotiation.Offer(
                        encoder: nil, id: entry.id, order: entry.order,
                        value: .failure(
                            SerializationError(
                                code: error.code, message: "its encoder failed to build: \(error.message)",
                                serializerID: entry.id))))
            }
        }
        return Negotiation(accept: accept, valueDescription: valueDescription, offers: offers)
    }

    /// The installed formats that write `mediaType` (``BodyEncoder/writes(_:)``), the most specific matching range
    /// first, then in installation order: the candidates of ``encode(_:as:options:)``, for a caller that builds each
    /// format's value itself.
    public func entries(writing mediaType: MediaType) -> [Entry] {
        encoders(writing: mediaType).compactMap { entry(for: $0.encoder.id) }
    }

    /// The media types the registry can write `value` in, in installation order: the exact types of every format
    /// that writes values of its type (what a 406 response lists).
    public func writableMediaTypes(for value: some Sendable) -> [MediaType] {
        var seen = Set<MediaType>()
        return entries.lazy.compactMap(\.encoder).filter { $0.canEncode(value) }.flatMap(\.writtenTypes)
            .filter { seen.insert($0).inserted }
    }

    /// The encoders of installed formats that write `mediaType`, the most specific matching range first, then in
    /// installation order.
    func encoders(writing mediaType: MediaType) -> [(encoder: FormatEncoder, specificity: MediaRange.Specificity)] {
        var found: [(encoder: FormatEncoder, specificity: MediaRange.Specificity, order: Int)] = []
        for entry in entries {
            guard let encoder = entry.encoder,
                let best = MediaRange.mostSpecific(of: encoder.mediaRanges, writing: mediaType)
            else { continue }
            found.append((encoder, best.specificity, entry.order))
        }
        return found.sorted { $0.specificity != $1.specificity ? $0.specificity > $1.specificity : $0.order < $1.order }
            .map { ($0.encoder, $0.specificity) }
    }

    /// The error when no candidate for `mediaType` writes `value`.
    func cannotWrite(_ value: some Sendable, as mediaType: MediaType, writers: [FormatEncoder]) -> SerializationError {
        let type = String(describing: Swift.type(of: value))
        let writable = writableMediaTypes(for: value).map(\.description)
        let alternatives =
            writable.isEmpty
            ? " No installed format writes a \(type): install one that does, or pass an Encodable value."
            : " A \(type) can be written as \(writable.joined(separator: ", "))."
        // A format for this type whose encoder failed to build: its error, not "cannot write".
        let broken = entries.first { entry in
            entry.encoderBuildError != nil && MediaRange.mostSpecific(of: entry.mediaRanges, writing: mediaType) != nil
        }
        if let broken, let error = broken.encoderBuildError {
            return SerializationError(
                code: error.code,
                message: "The format '\(broken.id)' would write \(mediaType.essence), but its encoder could not be "
                    + "built: \(error.message)",
                mediaType: mediaType, serializerID: broken.id, underlying: error)
        }
        if writers.isEmpty {
            // A format that reads the type but writes others (images read JPEG, write PNG): say so.
            let readers = entries.compactMap { entry -> String? in
                guard let encoder = entry.encoder,
                    MediaRange.mostSpecific(of: entry.mediaRanges, writing: mediaType) != nil
                else { return nil }
                return "'\(entry.id)' reads it but writes only "
                    + encoder.mediaRanges.map(\.description).joined(separator: ", ")
            }
            let readersNote = readers.isEmpty ? "." : ": " + readers.joined(separator: "; ") + "."
            return SerializationError(
                code: .noSerializer,
                message: "No installed format writes \(mediaType.essence)" + readersNote + alternatives,
                mediaType: mediaType)
        }
        let names = writers.map { "'\($0.id)'" }.joined(separator: ", ")
        return SerializationError(
            code: .unsupportedValue,
            message: "The formats that write \(mediaType.essence) (\(names)) cannot write a \(type)." + alternatives,
            mediaType: mediaType, serializerID: writers.first?.id)
    }

    /// The error when nothing acceptable can be written.
    func notAcceptable(_ value: some Sendable, negotiation: Negotiation) -> SerializationError {
        let type = String(describing: Swift.type(of: value))
        let writable = writableMediaTypes(for: value).map(\.description)
        let header = negotiation.accept.map(\.description) ?? ""
        let message: String
        if writable.isEmpty {
            message =
                "No installed format writes a \(type), whatever the Accept header (\(header)) asks for. "
                + "Install a format that does, or pass an Encodable value."
        } else {
            message =
                "Nothing the registry can write a \(type) in is acceptable to 'Accept: \(header)'. It can write "
                + "\(writable.joined(separator: ", ")); a server answers 406 Not Acceptable."
        }
        return SerializationError(code: .notAcceptable, message: message)
    }
}

/// A format's encoder under the format's id and ranges, whatever the encoder reports itself: what the registry
/// installs, so that negotiation and encoding cannot disagree.
struct FormatEncoder: BodyEncoder {
    let base: any BodyEncoder
    let format: MediaFormat
    /// The ranges the encoder writes, within the format's: a format may write fewer types than it reads (images
    /// write only `image/png`), never others.
    let mediaRanges: [MediaRange]

    init(_ base: any BodyEncoder, format: MediaFormat) {
        self.base = base
        self.format = format
        let own = base.mediaRanges.filter { range in format.mediaRanges.contains { $0.covers(range) } }
        mediaRanges = own.isEmpty ? format.mediaRanges : own
    }

    var id: SerializerID { format.id }

    var defaultMediaType: MediaType? { base.defaultMediaType }

    func canEncode(_ value: any Sendable) -> Bool { base.canEncode(value) }

    func writesAsOwnType(_ value: any Sendable) -> Bool { base.writesAsOwnType(value) }

    func encode(
        _ value: any Sendable, as mediaType: MediaType, options: EncodingOptions
    ) throws(SerializationError)
        -> EncodedBody
    {
        do {
            var body = try base.encode(value, as: mediaType, options: options)
            body.serializerID = id
            return body
        } catch {
            var error = error
            error.serializerID = error.serializerID ?? id
            error.mediaType = error.mediaType ?? mediaType
            throw error
        }
    }
}
