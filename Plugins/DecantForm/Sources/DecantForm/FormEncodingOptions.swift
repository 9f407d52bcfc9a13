/// How ``FormEncoder`` writes the values that have more than one spelling in a form: arrays and Booleans.
///
/// Keys, dates, data and non-finite numbers follow the core `EncodingOptions` (see ``FormEncoder``). The defaults
/// are what ``FormDecoder`` reads back: repeated names and `true`/`false`.
///
/// ```swift
/// let options = FormEncodingOptions(arrayEncoding: .brackets, boolEncoding: .numeric)
/// let body = try FormEncoder(options: options).encode(Filter(tags: ["a", "b"], open: true))
/// // tags%5B%5D=a&tags%5B%5D=b&open=1   (tags[]=a&tags[]=b&open=1)
/// ```
public struct FormEncodingOptions: Sendable, Hashable {
    /// How the elements of an array become fields.
    public enum ArrayEncoding: String, Sendable, Hashable, CaseIterable {
        /// One field per element, each under the property's name: `tag=a&tag=b`. HTML forms and Python's
        /// `urlencode(..., doseq=True)` write this; ``FormDecoder`` reads it. The default.
        case repeatedName
        /// One field per element, named with `[]` appended: `tag[]=a&tag[]=b` (PHP, Rails; Alamofire's default).
        case brackets
        /// One field per element, named with its index in brackets: `tag[0]=a&tag[1]=b`.
        case indexed
    }

    /// How `Bool` values are written.
    public enum BoolEncoding: String, Sendable, Hashable, CaseIterable {
        /// `true` and `false`. The default.
        case literal
        /// `1` and `0`.
        case numeric
    }

    /// How the elements of an array become fields; ``ArrayEncoding/repeatedName`` unless set.
    public var arrayEncoding: ArrayEncoding
    /// How `Bool` values are written; ``BoolEncoding/literal`` unless set.
    public var boolEncoding: BoolEncoding

    /// Creates options; the defaults are the spellings ``FormDecoder`` reads.
    public init(arrayEncoding: ArrayEncoding = .repeatedName, boolEncoding: BoolEncoding = .literal) {
        self.arrayEncoding = arrayEncoding
        self.boolEncoding = boolEncoding
    }
}
