public import DecantCore
public import DecantJSON

/// The records of a whole NDJSON, JSON Lines or JSON text sequence body: what ``NDJSONResponseSerializer`` makes when the
/// body is not streamed, the same records the stream would hand out.
///
/// Its canonical form (`decant decode --json`, the `Fixtures/ndjson` expectations) is `{"records": [...]}`.
public struct JSONRecords: Sendable, Hashable, ConformanceRepresentable {
    /// The records, in the order of the body.
    public var records: [JSONValue]

    /// Creates the value.
    public init(records: [JSONValue]) { self.records = records }

    /// Decodes every record as a `T`.
    ///
    /// - Throws: `SerializationError` with code `decodingFailed`, whose coding path starts with the record's index.
    public func decode<T: Decodable>(
        _ type: T.Type, using decoder: JSONValueDecoder = JSONValueDecoder()
    )
        throws(SerializationError) -> [T]
    {
        try decoder.decode([T].self, from: .array(records))
    }

    /// `{"records": [...]}`.
    public func conformanceValue() throws -> JSONValue {
        .object([("records", .array(records))])
    }
}

extension JSONRecords: ConformanceInitializable {
    /// The records of `{"records": [...]}`: what `decant encode --content-type application/x-ndjson` reads.
    ///
    /// - Throws: `SerializationError.Code.unsupportedValue` naming the expected form when `form` is not one.
    public init(conformanceValue form: JSONValue) throws(SerializationError) {
        guard form.objectEntries?.count == 1, let records = form["records"]?.arrayValue else {
            throw .canonicalForm(expected: #"{"records": [...]}"#, for: JSONRecords.self)
        }
        self.init(records: records)
    }
}

extension AsyncSequence where Element == JSONValue {
    /// The records decoded as `T`s as they arrive, with `decoder`'s strategies.
    ///
    /// ```swift
    /// for try await event in try await registry.records(head, body: chunks, as: JSONValue.self).decoding(Event.self) {
    ///     print(event)
    /// }
    /// ```
    public func decoding<T: Decodable & Sendable>(
        _ type: T.Type, using decoder: JSONValueDecoder = JSONValueDecoder()
    ) -> AsyncThrowingMapSequence<Self, T> {
        map { value in try decoder.decode(type, from: value) }
    }
}
