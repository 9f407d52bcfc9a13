// The `decant` tool: the DecantCommandLine library run against the standard registry plus the plugins of this
// repository (`Plugins/`); `--no-plugins` selects the standard registry alone.
import Decant
import DecantCSV
import DecantCommandLine
import DecantForm

let standard = SerializerRegistry.standard
let withPlugins = standard.installing(.csv).installing(.form)
DecantTool(name: "decant", registry: withPlugins, registryWithoutPlugins: standard).main()
