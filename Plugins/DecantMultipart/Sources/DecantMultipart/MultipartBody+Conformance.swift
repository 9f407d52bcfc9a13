public import DecantJSON

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension MultipartBody: ConformanceRepresentable {
    /// `{"parts": [{"headers": [[name, value], ...], "serializer": id or null, "value": canonical or null,
    /// "error": code or null}, ...], "preamble": text or null, "epilogue": text or null}`: the preamble and epilogue
    /// read as UTF-8 (invalid sequences as U+FFFD), each part's value in its own canonical form (a nested multipart
    /// part's is this form again).
    public func conformanceValue() throws -> JSONValue {
        var parts: [JSONValue] = []
        parts.reserveCapacity(self.parts.count)
        for part in self.parts {
            var headers: [JSONValue] = []
            for field in part.headers {
                headers.append(.array([try JSONValue(checking: field.name), try JSONValue(checking: field.value)]))
            }
            parts.append(
                .object([
                    ("headers", .array(headers)),
                    ("serializer", part.serializerID.map { JSONValue($0.rawValue) } ?? nil),
                    ("value", try part.value.map(Self.canonicalForm) ?? nil),
                    ("error", part.error.map { JSONValue($0.code.rawValue) } ?? nil),
                ]))
        }
        return .object([
            ("parts", .array(parts)),
            ("preamble", try Self.text(preamble)),
            ("epilogue", try Self.text(epilogue)),
        ])
    }

    /// The canonical form of a part's value, which may be of any type the part's serializer produces.
    private static func canonicalForm(_ value: any Sendable) throws -> JSONValue {
        guard let representable = value as? any ConformanceRepresentable else {
            throw NoCanonicalForm(type: "\(type(of: value))")
        }
        return try representable.conformanceValue()
    }

    /// A part's value whose type has no canonical form.
    private struct NoCanonicalForm: Error, CustomStringConvertible {
        let type: String
        var description: String {
            "The output type \(type) has no canonical form: conform it to ConformanceRepresentable."
        }
    }

    /// `bytes` as a JSON string read as UTF-8, or `null`.
    private static func text(_ bytes: Data?) throws -> JSONValue {
        guard let bytes else { return nil }
        return try JSONValue(checking: String(decoding: bytes, as: UTF8.self))
    }
}
