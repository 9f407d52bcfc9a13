public import DecantCore

#if canImport(FoundationNetworking)
    import Foundation
    public import FoundationNetworking
#else
    public import Foundation
#endif

extension URLRequest {
    /// This request with `value` written by `registry` as its body: the format that writes `mediaType` encodes it
    /// (`SerializerRegistry.encode(_:as:options:)`), and `Content-Type` (with the `charset` written, where one
    /// applies) and `Content-Length` describe the bytes.
    ///
    /// ```swift
    /// let request = try URLRequest(url: url).sending(newUser, as: "application/json", registry: .standard)
    /// let created = try await URLSession.shared.decant(User.self, for: request, registry: .standard)
    /// ```
    ///
    /// - Parameters:
    ///   - value: The value: an `Encodable` value, or a format's own value (`JSONValue`, `String`, `Data`, ...).
    ///   - mediaType: The media type to send, such as `application/json` or `text/plain;charset=utf-8`.
    ///   - registry: The registry whose formats write it.
    ///   - method: The request method; `POST` unless given (a `GET` request cannot carry a body on every
    ///     platform).
    ///   - options: Encoding options for this body, overriding the registry's ``SerializerRegistry/encodingOptions``.
    /// - Throws: ``SerializationError`` when no installed format writes `mediaType`, or none writes `value`'s type,
    ///   or the value cannot be written (see `SerializerRegistry.encode(_:as:options:)`).
    public func sending(
        _ value: some Sendable, as mediaType: MediaType, registry: SerializerRegistry, method: String = "POST",
        options: EncodingOptions = EncodingOptions()
    ) throws(SerializationError) -> URLRequest {
        let encoded = try registry.encode(value, as: mediaType, options: options)
        var request = self
        request.httpMethod = method
        request.httpBody = encoded.body
        for field in encoded.headerFields { request.setValue(field.value, forHTTPHeaderField: field.name) }
        return request
    }
}
