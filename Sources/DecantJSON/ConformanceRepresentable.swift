public import DecantCharset
public import DecantCore

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// A value with a canonical JSON form, used by DecantConformance fixtures to state expected values.
///
/// The protocol lives here, beside ``JSONValue``, so that a format module conforms its output type in its own module
/// with nothing more than DecantJSON: the conformance kit is needed only by tests. `JSONValue` is its own form;
/// `String` is a JSON string; `Data` is `{"data_base64": ...}`; `Optional` is `null` or the wrapped value's form. The
/// other built-in outputs conform in their modules: `DecodedText` and `ArchivedResponse` (core types) here,
/// `PropertyListValue` in DecantPropertyList, `Image` in DecantImage, `XMLTree` and `XMLStreamParser` in
/// DecantXMLDocument. A third-party format conforms its output type the same way:
///
/// ```swift
/// extension CSVTable: ConformanceRepresentable {
///     public func conformanceValue() throws -> JSONValue {
///         .array(rows.map { .array($0.map(JSONValue.init)) })
///     }
/// }
/// ```
public protocol ConformanceRepresentable {
    /// The value in its canonical JSON form. Two values are equal for the suite when these forms are equal under
    /// `JSONValue`'s equality (numbers by value, object members in any order).
    func conformanceValue() throws -> JSONValue
}

extension JSONValue: ConformanceRepresentable {
    /// The value itself.
    public func conformanceValue() throws -> JSONValue { self }
}

extension EmptyResponse: ConformanceRepresentable {
    /// `null`: an empty response that no format claimed (see `SerializerRegistry.serialize`).
    public func conformanceValue() throws -> JSONValue { nil }
}

extension String: ConformanceRepresentable {
    /// The string itself, as a JSON string.
    public func conformanceValue() throws -> JSONValue { try JSONValue(checking: self) }
}

extension Data: ConformanceRepresentable {
    /// `{"data_base64": BASE64}`.
    public func conformanceValue() throws -> JSONValue {
        .object([("data_base64", try JSONValue(checking: base64EncodedString()))])
    }
}

extension Optional: ConformanceRepresentable where Wrapped: ConformanceRepresentable {
    /// `null` for `nil`, else the wrapped value's form.
    public func conformanceValue() throws -> JSONValue {
        guard let value = self else { return nil }
        return try value.conformanceValue()
    }
}

extension DecodedText: ConformanceRepresentable {
    /// `{"text": TEXT, "encoding": WHATWG-NAME}`: the `string` format's output (a core type, so it conforms here).
    public func conformanceValue() throws -> JSONValue {
        .object([("text", try JSONValue(checking: text)), ("encoding", JSONValue(encoding.name))])
    }
}
