/// The value of a response that is expected to be empty, like Alamofire's `Empty`: decodes from any empty response
/// and from `{}`-like bodies the decoder accepts.
public struct EmptyResponse: Decodable, Sendable, Hashable, EmptyResponseDecodable {
    /// Creates the value.
    public init() {}
    /// Decodes from anything, ignoring the content.
    public init(from decoder: any Decoder) throws {}
    /// `EmptyResponse()`.
    public static var emptyResponseValue: EmptyResponse { EmptyResponse() }
}
