public import DecantCore

#if canImport(FoundationNetworking)
    import Foundation
    public import FoundationNetworking
#else
    public import Foundation
#endif

extension URLSession {
    /// Loads `request` and decodes the body as a `T` through `registry`: the serializer its media type resolves to
    /// makes the value (such as `JSONValue`, `String`, `XMLTree`, `Image`).
    ///
    /// ```swift
    /// let value = try await URLSession.shared.decant(JSONValue.self, for: request, registry: .standard)
    /// ```
    ///
    /// - Parameter options: Unused by a serializer's own value (it has no `Decodable` strategies); the same
    ///   parameter as the `Decodable` overload's, so that a `Decodable` `T` always takes that one.
    /// - Throws: ``SerializationError`` (the status, media type or body error, with the whole response), or the
    ///   session's own error when no response arrived.
    public func decant<T: Sendable>(
        _ type: T.Type, for request: URLRequest, registry: SerializerRegistry,
        options: DecodingOptions = DecodingOptions(), statusCodes: StatusCodes = .success
    ) async throws -> T {
        let response = try await decantResponse(for: request)
        return try registry.serialize(response, as: type, statusCodes: statusCodes)
    }

    /// Loads `request` and decodes a `Decodable` `T` from the body with the decoder of its format (JSON, property
    /// lists, ...), chosen by media type through `registry`, with `options` (key, date and data strategies,
    /// `userInfo`) overriding the registry's defaults.
    ///
    /// A `T` that a serializer makes itself (`String`, `Data`) comes back as that serializer's value when no format
    /// with `Decodable` support accepts the media type, so `decant(String.self, ...)` reads a `text/plain` body (see
    /// `SerializerRegistry.decode(_:from:options:sniffing:statusCodes:emptyBodyPolicy:)`).
    ///
    /// ```swift
    /// let user = try await URLSession.shared.decant(
    ///     User.self, for: request, registry: .standard,
    ///     options: DecodingOptions(keyDecodingStrategy: .convertFromSnakeCase))
    /// ```
    ///
    /// - Throws: ``SerializationError`` (the status, media type, body or decoding error, with the whole response and
    ///   the decoded error body in `errorValue`), or the session's own error when no response arrived.
    public func decant<T: Decodable & Sendable>(
        _ type: T.Type, for request: URLRequest, registry: SerializerRegistry,
        options: DecodingOptions = DecodingOptions(), statusCodes: StatusCodes = .success
    ) async throws -> T {
        let response = try await decantResponse(for: request)
        return try registry.decode(type, from: response, options: options, statusCodes: statusCodes)
    }

    /// Loads `request` whole as a ``Response`` (status, header fields, body), for any registry call.
    ///
    /// - Throws: the session's error when no response arrived.
    public func decantResponse(for request: URLRequest) async throws -> Response {
        let (data, urlResponse) = try await data(for: request)
        return try Response(data: data, response: urlResponse, request: request)
    }
}
