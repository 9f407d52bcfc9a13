public import DecantCore

/// A ``ChainConfiguration`` checked against a registry: every chain's serializers exist and accept their options.
///
/// Only `SerializerRegistry.load(_:file:)` makes one, so holding one means nothing is half-loaded.
public struct LoadedConfiguration: Sendable {
    /// The document.
    public let configuration: ChainConfiguration
    /// The chains by name, built.
    public let chains: [String: ConfiguredChain]

    /// The chain called `name`.
    ///
    /// - Throws: `SerializationError.Code.unknownSerializer`-like error naming the nearest chain name.
    public func chain(named name: String) throws(SerializationError) -> ConfiguredChain {
        if let chain = chains[name] { return chain }
        let names = configuration.chains.map(\.name)
        var message = "The configuration has no chain named '\(name)'."
        if let nearest = EditDistance.nearest(to: name, in: names) { message += " Did you mean '\(nearest)'?" }
        message += " Its chains: " + names.joined(separator: ", ") + "."
        throw SerializationError(code: .unknownChain, message: message)
    }
}
