// swift-tools-version: 6.1
// Decant: response bodies to values, chosen by media type.
//
// House rules this manifest encodes:
// - No package dependencies (`dependencies: []`), on purpose: Decant is embedded in apps and servers.
// - Every module is declared once in `modules` below; products and test targets are derived from that list, and the
//   shared settings are appended in one loop, so adding a module is one line.
import PackageDescription

/// One Decant module: its name, what kind of target it is, and the Decant modules it depends on.
struct Module {
    enum Kind { case library, executable }
    var name: String
    var kind: Kind = .library
    var dependencies: [String] = []
    /// An explicit source path, when the module does not live in `Sources/<name>`.
    var path: String? = nil
    /// Files in the module's folder that are not sources (generator scripts beside generated tables).
    var exclude: [String] = []
    /// Extra dependencies of the test target, beyond the module and its own dependencies.
    var testDependencies: [String] = []
    /// Files in the test target's folder that are not sources (generator scripts and the expectations they write).
    var testExclude: [String] = []
    /// Whether a `<name>Tests` target exists in `Tests/`. An executable's tests run the built tool as a subprocess.
    var hasTests = true
}

let modules: [Module] = [
    // Low-level modules beneath the core, depending on nothing. DecantBytes: word-at-a-time byte scanning (`ByteRun`,
    // public, unsafe-pointer based, for format authors) and SHA-256. DecantCompression: DEFLATE, zlib and gzip
    // decoding and compression (`package` API), for the core's content decoding stage, the PNG and TIFF decoders and
    // the PNG writer.
    Module(name: "DecantBytes"),
    Module(name: "DecantCompression"),
    // Media types, response model, serializer protocol, registry, compound resolver, validation, sniffing, errors.
    // Depends on the toolchain's Foundation (FoundationEssentials where available) and the two modules above, which it
    // does not re-export.
    Module(name: "DecantCore", dependencies: ["DecantBytes", "DecantCompression"]),
    // The WHATWG Encoding charset pipeline (`TextEncoding`, `CharsetPipeline`, `DecodedText`), usable alone.
    Module(name: "DecantCharset", dependencies: ["DecantCore"], exclude: ["Tables/generate_tables.py"]),
    // Built-in formats: one module each, depending on DecantCore, and on DecantJSON for `ConformanceRepresentable`
    // (each format conforms its output type in its own module, so that the conformance kit depends on no format).
    // DecantString's output, `DecodedText`, is a DecantCharset type whose canonical form DecantJSON gives, so
    // DecantJSON depends on DecantCharset (it also reads UTF-16 and UTF-32 with it) and DecantString needs no
    // DecantJSON.
    Module(name: "DecantJSON", dependencies: ["DecantCore", "DecantCharset"]),
    Module(name: "DecantString", dependencies: ["DecantCore", "DecantCharset"]),
    Module(name: "DecantPropertyList", dependencies: ["DecantCore", "DecantCharset", "DecantJSON"]),
    // One XML parser underneath both XML modules: the DOM is built from the streaming parser's events, so
    // DecantXMLDocument depends on DecantXMLParser as well as DecantCore. The canonical form of both outputs is the
    // tree's Canonical XML, so both conformances live in DecantXMLDocument and DecantXMLParser needs no DecantJSON.
    Module(name: "DecantXMLParser", dependencies: ["DecantCore", "DecantBytes", "DecantCharset"]),
    Module(
        name: "DecantXMLDocument",
        dependencies: ["DecantCore", "DecantBytes", "DecantCharset", "DecantJSON", "DecantXMLParser"],
        testExclude: ["C14N"]),
    Module(
        name: "DecantImage", dependencies: ["DecantCore", "DecantBytes", "DecantCompression", "DecantJSON"],
        testExclude: ["Fixtures", "jpeg_fixtures.py", "tiff_fixtures.py"]),
    // Chain configuration documents (JSON, read with DecantJSON's parser, or a property list): reading, checking
    // against a registry, building the chains, writing back. Apart from the core, which keeps what factories need
    // (`OptionKey`, `SerializerOption`, `ConfigurationValue`, `ConfigurationError`).
    Module(name: "DecantConfiguration", dependencies: ["DecantCore", "DecantCharset", "DecantJSON"]),
    // The one place that needs full Foundation / FoundationNetworking: the `HTTPURLResponse` bridge.
    Module(name: "DecantFoundation", dependencies: ["DecantCore"]),
    // Raw HTTP/1.1 response messages (RFC 9112) to and from `Response`: the fixtures' format, `curl -si` files. Apart
    // from the core, which holds the concepts; the conformance kit and the tool read fixtures with it.
    Module(name: "DecantRawHTTP", dependencies: ["DecantCore"]),
    // The umbrella: re-exports every module above and provides `SerializerRegistry.standard`.
    Module(
        name: "Decant",
        dependencies: [
            "DecantCore", "DecantBytes", "DecantCharset", "DecantCompression", "DecantConfiguration",
            "DecantFoundation", "DecantRawHTTP", "DecantJSON", "DecantString", "DecantPropertyList", "DecantXMLParser",
            "DecantXMLDocument", "DecantImage",
        ],
        testDependencies: ["DecantConformance"]),
    // Building blocks for plugins whose bodies parse into a tree of values and that decode `Decodable` types from it
    // (CBOR, MessagePack, CSV, forms): the readers' value stack, non-recursive tree equality and hashing, a coding key
    // and the integer half of a single-value container; the writers' byte buffer and the one `Encodable`-to-tree engine
    // (`ValueTreeEncoder`). Not concepts, so not in the core; it depends on the core only for the engine's encoding
    // options and errors.
    Module(name: "DecantValueTree", dependencies: ["DecantCore"]),
    // The fixture-driven conformance kit, a public product so third parties run the same suite (and the serializer
    // rule checks) on their plugins from their test targets. It depends on the core, DecantRawHTTP (fixtures are raw
    // HTTP messages), DecantJSON (expectations and canonical forms are JSON) and DecantConfiguration (fixtures may
    // name a configured chain) only, so that a plugin's tests do not build every built-in format.
    Module(
        name: "DecantConformance", dependencies: ["DecantCore", "DecantRawHTTP", "DecantJSON", "DecantConfiguration"],
        testDependencies: ["Decant"]),
    // The command-line tool. Its output formats are a contract: keep them stable.
    Module(name: "DecantCommandLine", dependencies: ["Decant", "DecantConformance", "DecantJSON"]),
    Module(
        name: "decant", kind: .executable, dependencies: ["Decant", "DecantCommandLine"], testExclude: ["Archives"]),
    // The benchmark program: each workload against its Foundation baseline, interleaved in one process. Run it in
    // release mode: `swift run -c release decant-bench`. It links DecantCommandLine to time `decant archive` in process.
    Module(name: "decant-bench", kind: .executable, dependencies: ["Decant", "DecantCommandLine"], hasTests: false),
]

/// A plugin: an out-of-core format under `Plugins/<name>/` (`Sources/<name>`, `Tests/<name>Tests`, `README.md`), built
/// only on the public API of the modules above, exactly as a third party's package would be. The paths are explicit
/// because SwiftPM looks in `Sources/` and `Tests/` by default; CI builds the plugins again from a package outside
/// this repository (`Tests/outsider/check`) to prove that nothing non-public is used.
struct Plugin {
    var name: String
    /// Decant modules it needs beyond the core and JSON (for `JSONValue` and `ConformanceRepresentable`).
    var extraDependencies: [String] = []
    /// The plugin module's dependencies. The conformance kit is a dependency of its test target only.
    var dependencies: [String] { ["DecantCore", "DecantJSON"] + extraDependencies }
}

let plugins: [Plugin] = [
    Plugin(name: "DecantCSV", extraDependencies: ["DecantBytes", "DecantCharset", "DecantValueTree"]),
    Plugin(name: "DecantForm", extraDependencies: ["DecantValueTree"]),
    Plugin(name: "DecantProblemDetails", extraDependencies: ["DecantXMLParser", "DecantXMLDocument"]),
    Plugin(name: "DecantCBOR", extraDependencies: ["DecantBytes", "DecantValueTree"]),
    Plugin(name: "DecantMessagePack", extraDependencies: ["DecantBytes", "DecantValueTree"]),
    Plugin(name: "DecantMultipart"),
    Plugin(name: "DecantNDJSON"),
    Plugin(name: "DecantHAR"),
    Plugin(name: "DecantEventStream", extraDependencies: ["DecantBytes"]),
    // The browser's `EventSource` over URLSession: reconnects, `Last-Event-ID`, `retry`. Apart from the parser plugin
    // so that parsing events needs neither FoundationNetworking nor full Foundation.
    Plugin(name: "DecantEventSource", extraDependencies: ["DecantFoundation", "DecantEventStream"]),
    Plugin(name: "DecantWARC", extraDependencies: ["DecantRawHTTP"]),
]

/// Settings every target gets.
let sharedSettings: [SwiftSetting] = [
    // Swift 6 language mode is the package default (tools 6.1); complete strict concurrency is implied by it,
    // and spelled out so that a future tools-version bump cannot silently relax it.
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

var targets: [Target] = []
var products: [Product] = []

for module in modules {
    let dependencies = module.dependencies.map { Target.Dependency.target(name: $0) }
    switch module.kind {
    case .library:
        targets.append(
            .target(
                name: module.name, dependencies: dependencies, path: module.path, exclude: module.exclude,
                swiftSettings: sharedSettings)
        )
        products.append(.library(name: module.name, targets: [module.name]))
    case .executable:
        targets.append(
            .executableTarget(
                name: module.name, dependencies: dependencies, path: module.path, swiftSettings: sharedSettings)
        )
        products.append(.executable(name: module.name, targets: [module.name]))
    }
    if module.hasTests {
        targets.append(
            .testTarget(
                name: "\(module.name)Tests",
                dependencies: [.target(name: module.name)] + dependencies
                    + module.testDependencies.map { .target(name: $0) },
                exclude: module.testExclude,
                swiftSettings: sharedSettings
            )
        )
    }
}

for plugin in plugins {
    targets.append(
        .target(
            name: plugin.name, dependencies: plugin.dependencies.map { .target(name: $0) },
            path: "Plugins/\(plugin.name)/Sources/\(plugin.name)", swiftSettings: sharedSettings))
    products.append(.library(name: plugin.name, targets: [plugin.name]))
    targets.append(
        .testTarget(
            name: "\(plugin.name)Tests",
            dependencies: [.target(name: plugin.name), .target(name: "Decant"), .target(name: "DecantConformance")],
            path: "Plugins/\(plugin.name)/Tests/\(plugin.name)Tests", swiftSettings: sharedSettings))
}
// The tool installs every plugin of this repository (`decant --no-plugins` leaves them out); the benchmark measures
// them (`plugin.*`).
for index in targets.indices where ["decant", "decant-bench"].contains(targets[index].name) {
    targets[index].dependencies += plugins.map { .target(name: $0.name) }
}

// Streaming end to end: URLSession against a loopback server, through the NDJSON, event stream, event source and
// multipart plugins (records streamed down, reconnecting event streams, a multipart body streamed up). Declared only
// when those plugins are (the outsider check builds Decant without them).
let streamingPlugins = ["DecantNDJSON", "DecantEventStream", "DecantEventSource", "DecantMultipart"]
if streamingPlugins.allSatisfy({ name in plugins.contains { $0.name == name } }) {
    targets.append(
        .testTarget(
            name: "DecantStreamingTests",
            dependencies: (["Decant", "DecantFoundation"] + streamingPlugins).map { .target(name: $0) },
            path: "Tests/DecantStreamingTests", swiftSettings: sharedSettings))
}

// Shared test helpers (the corpora locator, a seeded generator, python3 through the kit's PythonReference): a plain
// target under Tests/ that every test target of the core modules depends on, because test targets cannot share source
// files. A plugin's tests do without it: they use only what a third party has (the kit, DecantConformance).
let testSupport = "DecantTestSupport"
let pluginTests = Set(plugins.map { "\($0.name)Tests" })
targets.append(
    .target(
        name: testSupport, dependencies: [.target(name: "DecantConformance")], path: "Tests/\(testSupport)",
        swiftSettings: sharedSettings))
for index in targets.indices where targets[index].type == .test && !pluginTests.contains(targets[index].name) {
    targets[index].dependencies.append(.target(name: testSupport))
}

// The oldest OS versions Decant supports; README "Platforms" says why these. An API newer than them is used only inside
// `@available`/`#available`, and `Tests/availability/check` (run by CI) fails when one is not.
let package = Package(
    name: "Decant",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    products: products,
    dependencies: [],
    targets: targets,
    swiftLanguageModes: [.v6]
)
