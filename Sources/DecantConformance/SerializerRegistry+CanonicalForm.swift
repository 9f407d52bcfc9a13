public import DecantCore
public import DecantJSON

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A body written from a value given in its canonical form, with how the format and media type were chosen.
public struct CanonicalFormEncoding: Sendable {
    /// The body, its exact `Content-Type` and the format that wrote it.
    public var body: EncodedBody
    /// How the choice was made, a line each: the formats skipped and why, then the one that wrote (with an `Accept`
    /// header, the whole negotiation as `Negotiation` prints it). What `decant encode --explain` prints.
    public var explanation: [String]

    /// Creates an encoding.
    public init(body: EncodedBody, explanation: [String]) {
        self.body = body
        self.explanation = explanation
    }
}

extension SerializerRegistry {
    /// Writes the value whose canonical form is `form` as `mediaType`: what `decant encode --content-type` does.
    ///
    /// The formats that write `mediaType` are tried most specific range first, then in installation order (or only
    /// `serializer`, when given); the first whose value type (its serializer's output type, which must be
    /// `ConformanceInitializable`) builds a value from `form` that its encoder writes, writes it.
    ///
    /// ```swift
    /// let form = try JSONParser().parse(Data(#"{"text": "café", "encoding": "windows-1252"}"#.utf8))
    /// let written = try SerializerRegistry.standard.encode(canonicalForm: form, as: "text/plain")
    /// // written.body.contentType: text/plain;charset=windows-1252, body: 63 61 66 E9
    /// ```
    ///
    /// - Throws: `SerializationError` with code `noSerializer` when no format writes `mediaType` (it lists the
    ///   formats that write), `unsupportedValue` when `form` describes no value those formats write (it gives each
    ///   format's reason), or the encoder's own error.
    public func encode(
        canonicalForm form: JSONValue, as mediaType: MediaType, serializer: SerializerID? = nil
    ) throws(SerializationError) -> CanonicalFormEncoding {
        let values = CanonicalValues(registry: self, form: form)
        let entries = self.entries(writing: mediaType).filter { serializer == nil || $0.id == serializer }
        var reasons: [String] = []
        for entry in entries {
            guard let encoder = entry.bodyEncoder else { continue }
            switch values.value(for: entry) {
            case .failure(let error):
                let reason = error.message.hasSuffix(".") ? String(error.message.dropLast()) : error.message
                reasons.append("'\(entry.id)': \(reason)")
            case .success(let value) where !encoder.canEncode(value):
                reasons.append("'\(entry.id)': does not write \(type(of: value))")
            case .success(let value):
                let explanation =
                    reasons.map { "skipped \($0)" }
                    + ["written by '\(entry.id)' as \(mediaType) (from its \(type(of: value)) value)"]
                let body = try encoder.encode(value, as: mediaType, options: encodingOptions)
                return CanonicalFormEncoding(body: body, explanation: explanation)
            }
        }
        if entries.isEmpty {
            let writers = self.entries.filter { $0.bodyEncoder != nil }.map { entry in
                "'\(entry.id)' (\(entry.mediaRanges.map(\.description).joined(separator: ", ")))"
            }
            let which = serializer.map { "'\($0)' does not write" } ?? "No installed format writes"
            throw SerializationError(
                code: .noSerializer,
                message: "\(which) \(mediaType.essence). "
                    + (writers.isEmpty
                        ? "None of the installed formats writes bodies."
                        : "The formats that write are " + writers.joined(separator: "; ") + "."),
                mediaType: mediaType)
        }
        throw SerializationError(
            code: .unsupportedValue,
            message: "The JSON is not a value any format that writes \(mediaType.essence) can write: "
                + reasons.joined(separator: "; ") + ". Give the value in the canonical form `decant decode --json` "
                + "prints for that format.",
            mediaType: mediaType)
    }

    /// Writes the value whose canonical form is `form` in the media type `accept` prefers among the formats whose
    /// value `form` describes: what `decant encode --accept` does (a JSON object is no `text/html` body, so
    /// `text/html, application/json;q=0.1` gives JSON).
    ///
    /// - Throws: `SerializationError` with code `notAcceptable` listing the media types the value can be written as
    ///   (the 406 case), or the encoder's own error.
    public func encode(
        canonicalForm form: JSONValue, accepting accept: AcceptHeader
    ) throws(SerializationError) -> CanonicalFormEncoding {
        let values = CanonicalValues(registry: self, form: form)
        let negotiation = negotiate(accepting: accept, valueDescription: "canonical JSON") { values.value(for: $0) }
        guard let chosen = negotiation.chosen, let entry = entry(for: chosen.id),
            let encoder = entry.bodyEncoder, case .success(let value) = values.value(for: entry)
        else {
            var writable: [String] = []
            for entry in entries {
                guard let encoder = entry.bodyEncoder, case .success(let value) = values.value(for: entry),
                    encoder.canEncode(value)
                else { continue }
                let types = encoder.writtenTypes.map(\.description)
                writable += types.isEmpty ? encoder.mediaRanges.map(\.description) : types
            }
            var seen = Set<String>()
            writable = writable.filter { seen.insert($0).inserted }
            throw SerializationError(
                code: .notAcceptable,
                message: writable.isEmpty
                    ? "No installed format can write this value; give it in the canonical form `decant decode "
                        + "--json` prints."
                    : "Nothing this value can be written as is acceptable to 'Accept: \(accept)'. It can be written "
                        + "as \(writable.joined(separator: ", ")).")
        }
        let body = try encoder.encode(value, as: chosen.mediaType, options: encodingOptions)
        return CanonicalFormEncoding(body: body, explanation: [negotiation.description])
    }
}

/// Each format's value, built once from the canonical form by the output type of the format's serializer.
private final class CanonicalValues {
    let registry: SerializerRegistry
    let form: JSONValue
    private var built: [SerializerID: Result<any Sendable, SerializationError>] = [:]

    init(registry: SerializerRegistry, form: JSONValue) {
        self.registry = registry
        self.form = form
    }

    func value(for entry: SerializerRegistry.Entry) -> Result<any Sendable, SerializationError> {
        if let known = built[entry.id] { return known }
        let result: Result<any Sendable, SerializationError>
        do throws(SerializationError) {
            let serializer = try registry.serializer(id: entry.id)
            guard let type = serializer.outputType as? any ConformanceInitializable.Type else {
                throw SerializationError(
                    code: .unsupportedValue,
                    message: "its values (\(serializer.outputType)) cannot be built from their canonical form",
                    serializerID: entry.id)
            }
            result = .success(try build(type))
        } catch {
            result = .failure(error)
        }
        built[entry.id] = result
        return result
    }

    private func build<T: ConformanceInitializable>(_ type: T.Type) throws(SerializationError) -> any Sendable {
        try T(conformanceValue: form)
    }
}
