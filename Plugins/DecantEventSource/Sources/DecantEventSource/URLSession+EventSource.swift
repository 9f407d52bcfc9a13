public import DecantCore
public import DecantEventStream
public import DecantJSON

#if canImport(FoundationNetworking)
    import Foundation
    public import FoundationNetworking
#else
    public import Foundation
#endif

extension URLSession {
    /// The server-sent events of `request`, reconnecting as a browser's `EventSource` does: after a dropped
    /// connection or the end of the body, wait the reconnection time and send the request again with
    /// `Last-Event-ID`; stop on 204; fail on another status or media type. See ``EventSource``.
    ///
    /// ```swift
    /// for try await event in URLSession.shared.eventSource(for: request) { print(event.data) }
    /// ```
    ///
    /// Where `records(_:for:registry:options:statusCodes:)` reads one response, this reads a stream that outlives
    /// its connections.
    public func eventSource(
        for request: URLRequest, configuration: EventSource.Configuration = EventSource.Configuration(),
        registry: SerializerRegistry = SerializerRegistry(modules: [.json, .eventStream])
    ) -> EventSource {
        EventSource(request: request, session: self, configuration: configuration, registry: registry)
    }
}
