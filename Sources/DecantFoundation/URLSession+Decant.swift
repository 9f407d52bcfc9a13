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
    /// A request without an `Accept` field (in it or in the session's configuration) is sent with the registry's
    /// ``SerializerRegistry/acceptHeader``. The download stops as soon as the body is over the registry's
    /// ``SerializerRegistry/bodySizeLimit`` (see ``decantResponse(for:bodySizeLimit:)``).
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
        let response = try await decantResponse(for: request, registry: registry)
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
    /// `Accept` and the body size limit come from the registry, as for the other `decant` method.
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
        let response = try await decantResponse(for: request, registry: registry)
        return try registry.decode(type, from: response, options: options, statusCodes: statusCodes)
    }

    /// Loads `request` and decodes a `T` from a response with an acceptable status, or the body of any other status
    /// into the caller's error model `E`, thrown in the ``SerializationError`` of the status
    /// (``SerializationError/errorValue(as:)``), with the status and the whole response; optionally, the `T` is the
    /// value at a JSON Pointer. See
    /// `SerializerRegistry.decode(_:from:errorModel:at:options:sniffing:statusCodes:emptyBodyPolicy:)`.
    ///
    /// ```swift
    /// do {
    ///     let user = try await URLSession.shared.decant(
    ///         User.self, for: request, registry: .standard, errorModel: APIError.self)
    /// } catch let error as SerializationError {
    ///     if let apiError = error.errorValue(as: APIError.self) { print(error.status ?? 0, apiError) }
    /// }
    /// ```
    ///
    /// - Throws: ``SerializationError`` (an unacceptable status with the decoded model, or its decoding failure in
    ///   `attempts`; the media type, body or decoding error), or the session's own error when no response arrived.
    public func decant<T: Decodable & Sendable, E: Decodable & Sendable>(
        _ type: T.Type, for request: URLRequest, registry: SerializerRegistry, errorModel: E.Type,
        at pointer: JSONPointer? = nil, options: DecodingOptions = DecodingOptions(),
        statusCodes: StatusCodes = .success
    ) async throws -> T {
        let response = try await decantResponse(for: request, registry: registry)
        return try registry.decode(
            type, from: response, errorModel: errorModel, at: pointer, options: options, statusCodes: statusCodes)
    }

    /// Loads `request` whole as a ``Response`` (status, header fields, body), for any registry or chain call.
    ///
    /// The response describes the body as `URLSession` hands it over: the content codings `URLSession` has removed
    /// (gzip, deflate, ...) are no longer in `Content-Encoding`, and `Content-Length` is the size of the decoded body
    /// (the rule of `Response(data:response:request:)`), so a chain with `ContentDecoding()` works on it.
    ///
    /// ```swift
    /// let response = try await URLSession.shared.decantResponse(for: request, bodySizeLimit: chain.bodySizeLimit)
    /// let value = try chain.serialize(response)
    /// ```
    ///
    /// With a `bodySizeLimit` (a chain's ``ResponseChain/bodySizeLimit``, a registry's
    /// ``SerializerRegistry/bodySizeLimit``), the download stops as soon as the body is over it: when a
    /// `Content-Length` over the limit arrives, or when the bytes received pass it.
    ///
    /// The request runs on a session of its own with this session's configuration (cookies, cache, credentials,
    /// protocol classes and timeouts included), so that the bytes are seen as they arrive. A session with a
    /// delegate runs it itself instead, so that its delegate sees the request (challenges, redirects, metrics):
    /// the body is then checked against the limit once it has arrived, and a transfer that fails throws the
    /// session's error.
    ///
    /// - Parameters:
    ///   - request: The request, sent as it is.
    ///   - bodySizeLimit: The largest body accepted, or `nil` for no limit (the default).
    /// - Throws: ``SerializationError/Code/bodyTooLarge`` (with the status, header fields and the bytes received
    ///   so far, ``BodySizeLimit``'s error); ``SerializationError/Code/truncatedBody`` when the transfer fails after
    ///   the head arrived (the connection closed before the end of the body: the status, header fields and bytes
    ///   received in its response, the session's error as its `underlying`); the session's error when no response
    ///   arrived.
    public func decantResponse(
        for request: URLRequest, bodySizeLimit: BodySizeLimit? = nil
    ) async throws -> Response {
        guard delegate == nil else {
            let (data, urlResponse) = try await data(for: request)
            let response = try Response(data: data, response: urlResponse, request: request)
            if let bodySizeLimit { _ = try bodySizeLimit.process(response) }
            return response
        }
        let (urlResponse, head, lifetime) = try await startStreaming(request)
        let body = try await lifetime.wholeBody(head: head, limit: bodySizeLimit)
        return try Response(data: body, response: urlResponse, request: request, bodyLength: body.count)
    }

    /// `request` loaded whole for a call of `registry`: with the registry's `Accept` when it sets none, the download
    /// stopped at the registry's body size limit.
    func decantResponse(for request: URLRequest, registry: SerializerRegistry) async throws -> Response {
        try await decantResponse(
            for: requestAccepting(registry.acceptHeader, request), bodySizeLimit: registry.bodySizeLimit)
    }

    /// `request` with `accept` as its `Accept` field, unless it (or the session's configuration) sets one already or
    /// `accept` is empty.
    func requestAccepting(_ accept: AcceptHeader, _ request: URLRequest) -> URLRequest {
        let configured = configuration.httpAdditionalHeaders?.keys.contains {
            ($0.base as? String)?.lowercased() == "accept"
        }
        guard !accept.elements.isEmpty, request.value(forHTTPHeaderField: "Accept") == nil, configured != true else {
            return request
        }
        var request = request
        request.setValue(accept.description, forHTTPHeaderField: "Accept")
        return request
    }
}
