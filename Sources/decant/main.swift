// The `decant` tool: the DecantCommandLine library run against the standard registry plus the plugins of this
// repository (`Plugins/`); `--no-plugins` selects the standard registry alone.
import Decant
import DecantCBOR
import DecantCSV
import DecantCommandLine
import DecantEventSource
import DecantEventStream
import DecantForm
import DecantHAR
import DecantMessagePack
import DecantMultipart
import DecantNDJSON
import DecantProblemDetails
import DecantWARC

let standard = SerializerRegistry.standard
let formats = standard.installing(.csv).installing(.form).installing(.problemDetails).installing(.cbor)
    .installing(.msgpack).installing(.ndjson).installing(.eventStream).installing(.har).installing(.warc)
// Multipart bodies: each part decoded by every format above, and kept as bytes (`data`) when none accepts its type.
let withPlugins = formats.installing(.multipart(decodingPartsWith: formats.installing(.data)))
// `get --stream` reads event streams with DecantEventSource's reconnections; the options not given keep its defaults.
let eventSource = EventSourceOpener { stream in
    var configuration = EventSource.Configuration(
        lastEventID: stream.lastEventID,
        onStateChange: { state in
            stream.report(
                EventSourceProgress(
                    connections: state.connections, failuresInARow: state.failuresInARow, events: state.events,
                    lastEventID: state.lastEventID, isOpen: state.readyState == .open, lastFailure: state.lastFailure))
        })
    if let time = stream.reconnectionTime { configuration.defaultReconnectionTime = time }
    if let limit = stream.maxReconnects { configuration.maxReconnects = limit }
    let source = stream.session.eventSource(
        for: stream.request, configuration: configuration, registry: stream.registry)
    for try await event in source { try stream.deliver(event) }
}
DecantTool(name: "decant", registry: withPlugins, registryWithoutPlugins: standard, eventSource: eventSource).main()
