/// Reads a reconnecting event stream for `get --stream`: the hook through which a tool built with an event source
/// (the `decant` executable, with the `DecantEventSource` plugin) gives `get --stream` its reconnections.
///
/// `DecantCommandLine` depends on no plugin, so it cannot read a `text/event-stream` response the way a browser's
/// `EventSource` does (reconnect with `Last-Event-ID`, honour `retry`, back off, stop on 204) by itself. A tool that
/// can passes an opener to ``DecantTool/init(name:registry:registryWithoutPlugins:eventSource:)``; without one
/// (`--no-plugins`, or a tool built without it), `get --stream` on an event stream says that it needs the
/// `DecantEventSource` plugin. `decant`'s own opener:
///
/// ```swift
/// import DecantCommandLine
/// import DecantEventSource
///
/// let eventSource = EventSourceOpener { stream in
///     var configuration = EventSource.Configuration(
///         lastEventID: stream.lastEventID,
///         onStateChange: { state in
///             stream.report(
///                 EventSourceProgress(
///                     connections: state.connections, failuresInARow: state.failuresInARow, events: state.events,
///                     lastEventID: state.lastEventID, isOpen: state.readyState == .open,
///                     lastFailure: state.lastFailure))
///         })
///     if let time = stream.reconnectionTime { configuration.defaultReconnectionTime = time }
///     if let limit = stream.maxReconnects { configuration.maxReconnects = limit }
///     let source = stream.session.eventSource(
///         for: stream.request, configuration: configuration, registry: stream.registry)
///     for try await event in source { try stream.deliver(event) }
/// }
/// DecantTool(registry: registry, eventSource: eventSource).main()
/// ```
public struct EventSourceOpener: Sendable {
    /// Reads the event stream of one `get --stream` run to its end.
    ///
    /// It hands each event to ``EventSourceRequest/deliver(_:)`` as it is dispatched and every change of the
    /// connection state to ``EventSourceRequest/report(_:)``, returns when the stream ends as the server asked (a 204
    /// No Content), and throws when it fails: `SerializationError` for a connection the processing model fails (a
    /// status other than 200 and 204, a media type other than `text/event-stream`, the reconnection limit, an event
    /// over its size limit), `CancellationError` when the calling task is cancelled (Ctrl-C), or the session's error
    /// for a URL it cannot fetch at all.
    public typealias Run = @Sendable (EventSourceRequest) async throws -> Void

    /// Reads one stream.
    public let run: Run

    /// Creates an opener from the function that reads a stream.
    ///
    /// - Parameter run: Reads the stream of a request to its end (see ``Run``).
    public init(_ run: @escaping Run) { self.run = run }
}
