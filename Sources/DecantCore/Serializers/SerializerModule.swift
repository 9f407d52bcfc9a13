/// A named group of serializer factories that a format module installs into a registry in one step.
///
/// Swift has no load-time hooks, so installing is explicit: `registry.install(.json)`. Each format module adds a
/// leading-dot static for its module:
///
/// ```swift
/// extension SerializerModule {
///     public static var acmeYAML: SerializerModule { SerializerModule(name: "AcmeYAML", factories: [YAMLFactory()]) }
/// }
/// ```
public struct SerializerModule: Sendable {
    /// The module's name, such as `DecantJSON`, shown in traces and conflicts.
    public let name: String
    /// The factories, in the order they are installed.
    public let factories: [any SerializerFactory]
    /// The stage factories chain files can name (see ``StageFactory``), in the order they are installed.
    public let stages: [any StageFactory]

    /// Creates a module.
    public init(name: String, factories: [any SerializerFactory], stages: [any StageFactory] = []) {
        self.name = name
        self.factories = factories
        self.stages = stages
    }

    /// The core's raw-bytes serializer (`data`, `*/*`).
    public static var data: SerializerModule {
        SerializerModule(name: "DecantCore", factories: [DataSerializerFactory()])
    }
}
