public import DecantCharset
public import DecantCore

/// Decodes `Decodable` types made of one string from text bodies: `String` itself, and types whose `init(from:)`
/// reads one string value (a `RawRepresentable` enum with `String` raw values, a wrapper around a `String`). The
/// `string` format's `ResponseDecoder`, so that `registry.decode(String.self, from: response)` (and
/// `URLSession.decant(String.self, ...)`) reads a `text/plain` body.
///
/// The body becomes text as ``StringResponseSerializer`` makes it (byte order mark, `charset`, default encoding). A
/// type that asks for an object, an array or a number fails with `decodingFailed`: a text body holds one string.
public struct StringResponseDecoder: ResponseDecoder, FormatComponent {
    /// The `string` format.
    public static var format: MediaFormat { .string }

    /// How the body becomes text.
    public var pipeline: CharsetPipeline
    /// The media ranges accepted; `text/*` by default.
    public var mediaRanges: [MediaRange]
    /// Contextual information passed to `init(from:)` as `Decoder.userInfo` (set by `DecodingOptions.userInfo`).
    public var userInfo: [CodingUserInfoKey: any Sendable]

    /// Creates the decoder.
    public init(
        pipeline: CharsetPipeline = CharsetPipeline(),
        mediaRanges: [MediaRange] = MediaFormat.string.mediaRanges,
        userInfo: [CodingUserInfoKey: any Sendable] = [:]
    ) {
        self.pipeline = pipeline
        self.mediaRanges = mediaRanges
        self.userInfo = userInfo
    }

    /// Decodes the body's text as a `T`.
    ///
    /// - Throws: `SerializationError`: the charset pipeline's `invalidEncoding`, or `decodingFailed` when `T` is not
    ///   made of one string.
    public func decode<T: Decodable>(_ type: T.Type, from response: Response) throws -> T {
        let text = try StringResponseSerializer(pipeline: pipeline, mediaRanges: mediaRanges).serialize(response).text
        if let text = text as? T { return text }
        do {
            return try T(from: TextValueDecoder(text: text, userInfo: userInfo))
        } catch {
            throw SerializationError(decoding: T.self, from: "the text body", failure: error, serializerID: id)
                .filling(response: response, mediaType: response.contentType)
        }
    }

    /// A copy with the `userInfo` of `options` added; the strategies do not apply to text.
    public func applying(_ options: DecodingOptions) -> any ResponseDecoder {
        var copy = self
        for (key, value) in options.userInfo { copy.userInfo[key] = value }
        return copy
    }
}

/// A decoder over one string: its single-value container decodes `String`; every other request is a type mismatch
/// that says the body is text.
private struct TextValueDecoder: Decoder, SingleValueDecodingContainer {
    let text: String
    let userInfo: [CodingUserInfoKey: Any]
    var codingPath: [any CodingKey] { [] }

    init(text: String, userInfo: [CodingUserInfoKey: any Sendable]) {
        self.text = text
        var info: [CodingUserInfoKey: Any] = [:]
        for (key, value) in userInfo { info[key] = value }
        self.userInfo = info
    }

    func mismatch(_ type: Any.Type, _ what: String) -> DecodingError {
        DecodingError.typeMismatch(
            type,
            DecodingError.Context(
                codingPath: [],
                debugDescription: "Expected \(what), but a text body holds one string. Decode String (or a type "
                    + "decoded from one string), or ask the server for JSON."))
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        throw mismatch([String: Any].self, "an object")
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw mismatch([Any].self, "an array") }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    func decodeNil() -> Bool { false }
    func decode(_ type: String.Type) throws -> String { text }
    func decode(_ type: Bool.Type) throws -> Bool { throw mismatch(type, "a Bool") }
    func decode(_ type: Double.Type) throws -> Double { throw mismatch(type, "a number") }
    func decode(_ type: Float.Type) throws -> Float { throw mismatch(type, "a number") }
    func decode(_ type: Int.Type) throws -> Int { throw mismatch(type, "a number") }
    func decode(_ type: Int8.Type) throws -> Int8 { throw mismatch(type, "a number") }
    func decode(_ type: Int16.Type) throws -> Int16 { throw mismatch(type, "a number") }
    func decode(_ type: Int32.Type) throws -> Int32 { throw mismatch(type, "a number") }
    func decode(_ type: Int64.Type) throws -> Int64 { throw mismatch(type, "a number") }
    func decode(_ type: UInt.Type) throws -> UInt { throw mismatch(type, "a number") }
    func decode(_ type: UInt8.Type) throws -> UInt8 { throw mismatch(type, "a number") }
    func decode(_ type: UInt16.Type) throws -> UInt16 { throw mismatch(type, "a number") }
    func decode(_ type: UInt32.Type) throws -> UInt32 { throw mismatch(type, "a number") }
    func decode(_ type: UInt64.Type) throws -> UInt64 { throw mismatch(type, "a number") }
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        if let text = text as? T { return text }
        return try T(from: self)
    }
}
