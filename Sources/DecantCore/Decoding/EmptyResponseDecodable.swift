/// A `Decodable` type that has a value for empty responses (204, `HEAD`, ...), such as ``EmptyResponse``.
public protocol EmptyResponseDecodable {
    /// The value an empty response decodes to.
    static var emptyResponseValue: Self { get }
}

extension Optional: EmptyResponseDecodable {
    /// `nil`: an empty response decodes to no value.
    public static var emptyResponseValue: Optional { nil }
}
