public import DecantCore
public import DecantImage
public import DecantJSON
public import DecantPropertyList
public import DecantXMLDocument
public import DecantXMLParser
public import Foundation

/// An output type with a canonical JSON form, so that conformance fixtures can state expected values.
///
/// The built-in outputs conform: `JSONValue` is its own form; `DecodedText` is `{"text": ..., "encoding": ...}`;
/// XML (`XMLTree`, `XMLStreamParser`) is `{"c14n": ...}`; `Data` is `{"data_base64": ...}`. A third-party format
/// conforms its output type (in its module or its test target) to take part in the same suite:
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

extension DecodedText: ConformanceRepresentable {
    /// `{"text": TEXT, "encoding": WHATWG-NAME}`.
    public func conformanceValue() throws -> JSONValue {
        .object([("text", try JSONValue(checking: text)), ("encoding", JSONValue(encoding.name))])
    }
}

extension PropertyListValue: ConformanceRepresentable {
    /// The typed JSON of `../shared/corpora/plist/cpython/valid/*.expected.json`: `{"dict": ...}`,
    /// `{"integer": "42"}`, `{"real": "0.5"}`, `{"date": ...}`, `{"data_base64": ...}`, `{"uid": n}`.
    public func conformanceValue() throws -> JSONValue {
        try JSONParser(options: JSONParsingOptions(maxDepth: 100_000)).parse(canonicalJSONText())
    }
}

extension Image: ConformanceRepresentable {
    /// `{"format", "width", "height", "frames", "rgbaSHA256"}`: the SHA-256 of the chosen frame's straight RGBA8
    /// pixels (top-down rows), or `null` when the pixels were not decoded (`inflate` off).
    ///
    /// The colour of a fully transparent pixel carries no meaning (decoders differ: a GIF's transparent index keeps
    /// its palette colour in Pillow, becomes black elsewhere), so the form zeroes R, G and B where A is 0.
    public func conformanceValue() throws -> JSONValue {
        .object([
            ("format", JSONValue(format.rawValue)), ("width", JSONValue(width)), ("height", JSONValue(height)),
            ("frames", JSONValue(frameCount)), ("rgbaSHA256", isDecoded ? JSONValue(canonicalPixelDigest()) : nil),
        ])
    }

    /// The digest of the pixels with transparent pixels' colour zeroed, hashed a block at a time so that the pixels
    /// are not copied (an image at the limits is hundreds of megabytes).
    func canonicalPixelDigest() -> String {
        var hasher = SHA256.Hasher()
        var block = [UInt8](repeating: 0, count: 64 * 1024)
        pixels.withUnsafeBufferPointer { pixels in
            var start = 0
            while start < pixels.count {
                let count = min(block.count, pixels.count - start)
                block.withUnsafeMutableBytes { block in
                    let target = block.baseAddress!
                    target.copyMemory(from: pixels.baseAddress! + start, byteCount: count)
                    // Whole pixels as 32-bit words: alpha is the most significant byte of a little-endian load.
                    var offset = 0
                    while offset &+ 4 <= count {
                        let pixel = UInt32(littleEndian: target.load(fromByteOffset: offset, as: UInt32.self))
                        if pixel < 0x0100_0000 { target.storeBytes(of: 0, toByteOffset: offset, as: UInt32.self) }
                        offset &+= 4
                    }
                    hasher.update(UnsafeRawBufferPointer(start: target, count: count))
                }
                start += count
            }
        }
        return hasher.finalize()
    }
}

extension XMLTree: ConformanceRepresentable {
    /// `{"c14n": TEXT}`: the document in W3C Canonical XML 1.0 without comments, which independent tools (libxml2
    /// through lxml, for the fixtures) compute too.
    public func conformanceValue() throws -> JSONValue {
        .object([("c14n", try JSONValue(checking: canonicalXML(.canonicalXML10)))])
    }
}

extension XMLStreamParser: ConformanceRepresentable {
    /// The form of the tree its events build: `{"c14n": TEXT}`, as for `XMLTree`.
    public func conformanceValue() throws -> JSONValue {
        try XMLTree(parsing: data, mediaType: mediaType, options: options).conformanceValue()
    }
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

/// Turns any serializer output into its canonical form, or explains why it has none.
public enum CanonicalForm {
    /// The canonical form of `value`.
    ///
    /// - Throws: ``ConformanceFailure`` when the value's type is not ``ConformanceRepresentable``.
    public static func of(_ value: any Sendable) throws -> JSONValue {
        guard let representable = value as? any ConformanceRepresentable else {
            throw ConformanceFailure(
                "The output type \(type(of: value)) has no canonical form: conform it to ConformanceRepresentable.")
        }
        return try representable.conformanceValue()
    }
}
