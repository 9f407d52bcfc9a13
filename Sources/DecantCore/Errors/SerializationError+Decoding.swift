extension SerializationError {
    /// The error of a failed `Decodable` decoding from a format's value, stated once for every format: a
    /// `DecodingError` becomes ``Code/decodingFailed`` with the coding path (the missing key included, for
    /// `keyNotFound`), a message saying where, what and how to fix it, and the original as ``underlying``; a
    /// ``SerializationError`` is kept as it is (with `serializerID` filled in where missing); any other error (thrown
    /// by a type's own `init(from:)`) becomes ``Code/decodingFailed`` too, with the original as ``underlying``.
    ///
    /// ```swift
    /// do {
    ///     return try T(from: CalendarValueDecoder(value))
    /// } catch {
    ///     throw SerializationError(decoding: T.self, from: "the calendar", failure: error)
    /// }
    /// ```
    ///
    /// The message reads `Decoding Event from the calendar failed at 'events.1.start': expected a date, found
    /// "soon". Change the type or the data so that they agree.`
    ///
    /// - Parameters:
    ///   - type: The type that was being decoded.
    ///   - source: What it was decoded from, as a noun phrase: `the CBOR value`, `the form`, `CSV rows`.
    ///   - failure: The error the decoding threw.
    ///   - serializerID: The format's id, when the error should carry it.
    ///   - location: Says where the failure is from its coding path, for a format with words of its own (`in row 2
    ///     at column 'age'`); by default `at 'a.0.b'`, or `at the top level` for an empty path.
    public init(
        decoding type: Any.Type,
        from source: String,
        failure: any Error,
        serializerID: SerializerID? = nil,
        location: ([any CodingKey]) -> String = SerializationError.location(of:)
    ) {
        if let existing = failure as? SerializationError {
            self = existing.filling(serializerID: serializerID)
            return
        }
        guard let decodingError = failure as? DecodingError else {
            self.init(
                code: .decodingFailed, message: "Decoding \(type) from \(source) failed: \(failure).",
                serializerID: serializerID, underlying: failure)
            return
        }
        let path: [any CodingKey]
        let what: String
        let fix: String
        switch decodingError {
        case .keyNotFound(let key, let found):
            path = found.codingPath + [key]
            what = "'\(key.stringValue)' is missing"
            fix = "Send it, or make the property optional."
        case .valueNotFound(let wanted, let found):
            path = found.codingPath
            what = "there is no \(wanted) value (\(found.debugDescription))"
            fix = "Send a value, or make the property optional."
        case .typeMismatch(_, let found), .dataCorrupted(let found):
            path = found.codingPath
            what = found.debugDescription
            fix = "Change the type or the data so that they agree."
        @unknown default:
            self.init(
                code: .decodingFailed, message: "Decoding \(type) from \(source) failed: \(decodingError).",
                serializerID: serializerID, underlying: decodingError)
            return
        }
        let sentence = what.hasSuffix(".") ? String(what.dropLast()) : what
        self.init(
            code: .decodingFailed,
            message: "Decoding \(type) from \(source) failed \(location(path)): \(sentence). \(fix)",
            serializerID: serializerID,
            codingPath: path.map { $0.intValue.map(String.init) ?? $0.stringValue },
            underlying: decodingError)
    }

    /// Where a decoding failure is, by default: `at 'a.0.b'`, or `at the top level` for an empty path.
    public static func location(of codingPath: [any CodingKey]) -> String {
        guard !codingPath.isEmpty else { return "at the top level" }
        return "at '" + codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".") + "'"
    }
}
