/// How ``CBORWriter`` serializes a value: preferred serialization (RFC 8949 §4.1), or on request core deterministic
/// encoding (§4.2.1).
public struct CBORWritingOptions: Sendable, Hashable {
    /// Whether the output follows the core deterministic encoding requirements (RFC 8949 §4.2.1): preferred
    /// serialization, as always, and the entries of every map ordered by the bytewise lexicographic order of their
    /// keys' encodings, so that equal values always give equal bytes (for hashes and signatures). A map with two equal
    /// keys then fails to encode (such a map is not valid CBOR, §5.6, and has no deterministic order). Default
    /// `false`: entries are written in the map's order.
    ///
    /// This is the bytewise order of §4.2.1, not the length-first order of RFC 7049's "canonical CBOR" (§4.2.3):
    /// the two differ when keys encode to different lengths (`100`, `18 64`, comes before `-1`, `20`, bytewise).
    public var deterministic: Bool

    /// Creates options; preferred serialization with entries in map order unless `deterministic`.
    public init(deterministic: Bool = false) {
        self.deterministic = deterministic
    }
}
