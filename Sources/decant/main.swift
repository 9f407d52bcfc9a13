// The `decant` tool: the DecantCommandLine library run against the standard registry. Plugins of this repository
// are installed here as they are added; `--no-plugins` then selects the standard registry alone.
import Decant
import DecantCommandLine

let standard = SerializerRegistry.standard
DecantTool(name: "decant", registry: standard, registryWithoutPlugins: standard).main()
