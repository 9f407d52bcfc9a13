// The `decant` tool: the DecantCommandLine library run against the standard registry plus the plugins of this
// repository (`Plugins/`); `--no-plugins` selects the standard registry alone.
import Decant
import DecantCBOR
import DecantCSV
import DecantCommandLine
import DecantEventStream
import DecantForm
import DecantMessagePack
import DecantNDJSON
import DecantProblemDetails

let standard = SerializerRegistry.standard
let withPlugins = standard.installing(.csv).installing(.form).installing(.problemDetails).installing(.cbor)
    .installing(.msgpack).installing(.ndjson).installing(.eventStream)
DecantTool(name: "decant", registry: withPlugins, registryWithoutPlugins: standard).main()
