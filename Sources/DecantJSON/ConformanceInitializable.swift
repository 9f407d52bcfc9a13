public import DecantCharset
public import DecantCore

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// A value that can be built from its canonical JSON form: the inverse of ``ConformanceRepresentable``.
///
/// `decant encode` reads a value as its canonical form (what `decant decode --json` prints under `"value"`) and builds
/// it this way for the format that writes the requested media type: the output type of the format's serializer
/// (`AnyResponseSerializer.outputType`) conforms. A format that writes bodies conforms its value type in its own
/// module, so that `init(conformanceValue: value.conformanceValue())` gives the value back:
///
/// ```swift
/// extension CSVTable: ConformanceInitializable {
///     public init(conformanceValue form: JSONValue) throws(SerializationError) {
///         guard let rows = form.arrayValue else { throw .canonicalForm(expected: "an array of rows", for: Self.self) }
///         self.init(rows: rows.map { ($0.arrayValue ?? []).map { $0.stringValue ?? "" } })
///     }
/// }
/// ```
public protocol ConformanceInitializable: ConformanceRepresentable, Sendable {
    /// Builds the value whose ``ConformanceRepresentable/conformanceValue()`` is `form`.
    ///
    /// - Throws: `SerializationError` with code `unsupportedValue` when `form` is not the canonical form of such a
    ///   value (`SerializationError.canonicalForm(expected:for:)` says what was expected).
    init(conformanceValue form: JSONValue) throws(SerializationError)
}

extension SerializationError {
    /// The error for JSON that is not the canonical form of a `type` value: it names the form `expected`.
    public static func canonicalForm<T>(expected: String, for type: T.Type) -> SerializationError {
        SerializationError(
            code: .unsupportedValue,
            message: "This JSON is not the canonical form of a \(T.self): expected \(expected), as `decant decode "
                + "--json` prints it under \"value\".")
    }
}

extension JSONValue: ConformanceInitializable {
    /// The value itself.
    public init(conformanceValue form: JSONValue) { self = form }
}

extension String: ConformanceInitializable {
    /// The JSON string's text.
    public init(conformanceValue form: JSONValue) throws(SerializationError) {
        guard let text = form.stringValue else { throw .canonicalForm(expected: "a JSON string", for: String.self) }
        self = text
    }
}

extension Data: ConformanceInitializable {
    /// The bytes of `{"data_base64": BASE64}`.
    public init(conformanceValue form: JSONValue) throws(SerializationError) {
        guard form.objectEntries?.count == 1, let text = form["data_base64"]?.stringValue,
            let data = Data(base64Encoded: text)
        else {
            throw .canonicalForm(expected: #"{"data_base64": BASE64}"#, for: Data.self)
        }
        self = data
    }
}

extension DecodedText: ConformanceInitializable {
    /// The text of `{"text": TEXT, "encoding": NAME}`, in the encoding NAME labels (any WHATWG label; UTF-8 when
    /// absent), as if read with that encoding's name in a `charset` parameter.
    public init(conformanceValue form: JSONValue) throws(SerializationError) {
        let expected = #"{"text": TEXT, "encoding": NAME} (an encoding name such as "UTF-8" or "windows-1252")"#
        guard let text = form["text"]?.stringValue,
            let members = form.objectEntries, members.allSatisfy({ ["text", "encoding"].contains($0.key) })
        else { throw .canonicalForm(expected: expected, for: DecodedText.self) }
        let label = form["encoding"]?.stringValue ?? TextEncoding.utf8.name
        guard let encoding = TextEncoding(label: label) else {
            throw .canonicalForm(expected: expected + ", but \"\(label)\" is no WHATWG encoding label", for: Self.self)
        }
        self.init(text: text, encoding: encoding, source: .charsetParameter(label: label))
    }
}
