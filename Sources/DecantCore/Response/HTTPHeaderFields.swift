/// The header fields of a response, in the order received, with ASCII case-insensitive names.
///
/// Names keep the case they were sent in; lookups ignore case (RFC 9110 §5.1). Repeated fields stay separate;
/// the `headers["Name"]` subscript joins them with `", "` as RFC 9110 §5.3 allows.
public struct HTTPHeaderFields: Sendable, Hashable, RandomAccessCollection {
    /// One header field.
    public struct Field: Sendable, Hashable, CustomStringConvertible {
        /// The name as received, such as `Content-Type`.
        public var name: String
        /// The value without leading or trailing whitespace.
        public var value: String

        /// Creates a field.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }

        /// `Name: value`.
        public var description: String { name + ": " + value }
    }

    private var fields: [Field]
    /// ``contentType``, extracted from `fields` whenever a `Content-Type` field is added, changed or removed, so that
    /// reading it (which every stage of a chain does) never parses.
    private var extractedContentType: MediaType?

    /// Creates header fields from `fields`, in order.
    public init(_ fields: [Field] = []) {
        self.fields = fields
        self.extractedContentType = HTTPHeaderFields.extractContentType(from: fields)
    }

    /// Whether `name` is `Content-Type` (ASCII case-insensitive).
    private static func isContentType(_ name: String) -> Bool {
        HTTPBytes.equalsIgnoringASCIICase(name, "Content-Type")
    }

    /// The position of the first field.
    public var startIndex: Int { fields.startIndex }
    /// The position one past the last field.
    public var endIndex: Int { fields.endIndex }
    /// The field at `position`.
    public subscript(position: Int) -> Field { fields[position] }

    /// The values of every field called `name` (case-insensitive), in order.
    public func values(for name: String) -> [String] {
        fields.lazy.filter { HTTPBytes.equalsIgnoringASCIICase($0.name, name) }.map(\.value)
    }

    /// The first value of the field called `name`, or `nil`.
    public func firstValue(for name: String) -> String? {
        fields.first { HTTPBytes.equalsIgnoringASCIICase($0.name, name) }?.value
    }

    /// The combined value of every field called `name`, joined with `", "`; `nil` when there is none.
    ///
    /// Do not use this for `Set-Cookie`, whose values cannot be combined; use ``values(for:)``.
    public subscript(name: String) -> String? {
        let values = values(for: name)
        return values.isEmpty ? nil : values.joined(separator: ", ")
    }

    /// Whether a field called `name` is present.
    public func contains(_ name: String) -> Bool {
        fields.contains { HTTPBytes.equalsIgnoringASCIICase($0.name, name) }
    }

    /// Appends a field, keeping any existing fields with the same name.
    public mutating func append(name: String, value: String) {
        fields.append(Field(name: name, value: value))
        if HTTPHeaderFields.isContentType(name) {
            extractedContentType = HTTPHeaderFields.extractContentType(from: fields)
        }
    }

    /// Replaces every field called `name` with one field holding `value` (or removes them when `value` is `nil`).
    ///
    /// The new field takes the position of the first removed one, or goes at the end.
    public mutating func set(_ value: String?, for name: String) {
        let position = fields.firstIndex { HTTPBytes.equalsIgnoringASCIICase($0.name, name) }
        fields.removeAll { HTTPBytes.equalsIgnoringASCIICase($0.name, name) }
        if let value {
            fields.insert(Field(name: name, value: value), at: Swift.min(position ?? fields.endIndex, fields.endIndex))
        }
        if HTTPHeaderFields.isContentType(name) {
            extractedContentType = HTTPHeaderFields.extractContentType(from: fields)
        }
    }

    /// Removes every field called `name`.
    public mutating func remove(_ name: String) { set(nil, for: name) }

    /// Whether both hold the same fields in the same order.
    public static func == (lhs: HTTPHeaderFields, rhs: HTTPHeaderFields) -> Bool { lhs.fields == rhs.fields }

    /// Hashes the fields in order.
    public func hash(into hasher: inout Hasher) { hasher.combine(fields) }
}

extension HTTPHeaderFields: ExpressibleByDictionaryLiteral {
    /// Creates fields from `name: value` pairs in the order written.
    public init(dictionaryLiteral elements: (String, String)...) {
        self.init(elements.map { Field(name: $0.0, value: $0.1) })
    }
}

extension HTTPHeaderFields: CustomStringConvertible {
    /// The fields as they appear in an HTTP/1.1 message, one per line.
    public var description: String { fields.map(\.description).joined(separator: "\n") }
}

extension HTTPHeaderFields {
    /// The `Content-Type` per WHATWG Fetch "extract a MIME type".
    ///
    /// Every `Content-Type` value is split at commas outside quotes; the last one that parses (and is not `*/*`)
    /// wins, and it inherits the `charset` of an earlier value with the same essence when it has none. This is what
    /// browsers do with repeated or comma-joined `Content-Type` fields, and what `HTTPURLResponse.mimeType` does not.
    ///
    /// The fields are parsed when a `Content-Type` field is set, not each time this is read.
    public var contentType: MediaType? { extractedContentType }

    /// `body`'s result for ``contentType``, which it borrows: the hot path of resolution reads the media type without
    /// copying it.
    @inline(__always)
    func withContentType<Result>(_ body: (MediaType?) -> Result) -> Result { body(extractedContentType) }

    /// WHATWG Fetch "extract a MIME type" over the `Content-Type` fields of `fields`.
    private static func extractContentType(from fields: [Field]) -> MediaType? {
        var result: MediaType?
        var essence: String?
        var charset: String?
        for field in fields where isContentType(field.name) {
            let fieldValue = field.value
            let parts =
                fieldValue.utf8.contains(UInt8(ascii: ","))
                ? AcceptHeader.splitOutsideQuotes(fieldValue, separator: ",") : [fieldValue]
            for part in parts {
                guard let parsed = try? MediaType(parsing: part), parsed.essence != "*/*" else { continue }
                var mediaType = parsed
                if mediaType.essence != essence {
                    charset = mediaType.charset
                    essence = mediaType.essence
                } else if mediaType.charset == nil, let charset {
                    mediaType.parameters.set(charset, forName: "charset")
                }
                result = mediaType
            }
        }
        return result
    }

    /// The `Content-Length` when present and valid (RFC 9110 §8.6): digits, or a list of identical values.
    ///
    /// `nil` when absent; ``ContentLength/invalid`` when malformed or conflicting.
    public var contentLength: ContentLength? {
        let values = values(for: "Content-Length")
        guard !values.isEmpty else { return nil }
        var length: Int?
        for value in values {
            for part in value.split(separator: ",", omittingEmptySubsequences: false) {
                let digits = part.trimmingHTTPWhitespace()
                guard !digits.isEmpty, digits.utf8.count <= 18,
                    digits.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
                    let parsed = Int(digits)
                else { return .invalid }
                if let length, length != parsed { return .invalid }
                length = parsed
            }
        }
        return length.map(ContentLength.bytes) ?? .invalid
    }

    /// The content codings of the `Content-Encoding` fields, in the order they were applied (RFC 9110 §8.4), without
    /// `identity` (no coding) and empty list elements; names as sent.
    package var contentCodings: [String] {
        values(for: "Content-Encoding").flatMap { $0.split(separator: ",") }.map { $0.trimmingHTTPWhitespace() }
            .filter { !$0.isEmpty && !HTTPBytes.equalsIgnoringASCIICase($0, "identity") }
    }

    /// A parsed `Content-Length` field.
    public enum ContentLength: Sendable, Hashable {
        /// A valid length in bytes.
        case bytes(Int)
        /// Present but not a number, or several different numbers.
        case invalid
    }
}
