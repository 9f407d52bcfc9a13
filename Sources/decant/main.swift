// The `decant` tool: the DecantCommandLine library run against the standard registry plus the plugins of this
// repository (`Plugins/`); `--no-plugins` selects the standard registry alone.
import Decant
import DecantCBOR
import DecantCSV
import DecantCommandLine
import DecantEventStream
import DecantForm
import DecantMessagePack
import DecantMultipart
import DecantNDJSON
import DecantProblemDetails
import DecantWARC

let standard = SerializerRegistry.standard
let formats = standard.installing(.csv).installing(.form).installing(.problemDetails).installing(.cbor)
    .installing(.msgpack).installing(.ndjson).installing(.eventStream).installing(.warc)
// Multipart bodies: each part decoded by every format above, and kept as bytes (`data`) when none accepts its type.
let withPlugins = formats.installing(.multipart(decodingPartsWith: formats.installing(.data)))
DecantTool(name: "decant", registry: withPlugins, registryWithoutPlugins: standard).main()
