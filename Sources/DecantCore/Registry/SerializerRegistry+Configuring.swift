extension SerializerRegistry {
    /// Sets the options of the installed format `id` for everything this registry does with it: its serializer
    /// (`serialize`, the default stages, chains that name it without options of their own), its `Decodable` decoder
    /// (`decode`) and its encoder (`encode`, negotiation) are built again with `options`, which replace any set
    /// before. The keys are the format's options, as `decant registry` lists them.
    ///
    /// ```swift
    /// var registry = SerializerRegistry.standard
    /// try registry.configure("json", options: ["maxDepth": 64, "duplicateKeys": "reject"])
    /// try registry.configure("propertyList", options: ["outputFormat": "binary"])  // encode writes binary plists
    /// ```
    ///
    /// - Throws: `SerializationError` with code `unknownSerializer` (naming the nearest installed id),
    ///   `unknownOption` or `invalidOption` (naming the option and what it accepts), or the factory's own error;
    ///   the registry is unchanged then.
    public mutating func configure(_ id: SerializerID, options: ConfigurationOptions) throws(SerializationError) {
        guard let index = entries.firstIndex(where: { $0.id == id }) else { throw unknownSerializer(id) }
        let entry = entries[index]
        let factory = entry.factory
        let format = entry.format
        let serializer = try factory.makeErasedSerializer(configuration: options)
        let decoder = try factory.makeDecoder(configuration: options).map { FormatDecoder($0, format: format) }
        let encoder = try factory.makeEncoder(configuration: options).map { FormatEncoder($0, format: format) }
        var capabilities: FormatCapabilities = [.value]
        if serializer.base is any StreamingResponseSerializer { capabilities.insert(.records) }
        if decoder != nil { capabilities.insert(.decodable) }
        if encoder != nil { capabilities.insert(.encoding) }
        if entry.defaultSerializer == nil {
            // Its default serializer did not build at installation, so its ranges have no rows yet.
            for (rangeIndex, range) in format.mediaRanges.enumerated() {
                RangeTableRow.insert(RangeTableRow(range, entry: index, rangeIndex: rangeIndex), into: &rangeTable)
            }
        }
        routes[index] = Route(serializer)
        entries[index] = Entry(
            format: format, moduleName: entry.moduleName, factory: factory, order: entry.order,
            capabilities: capabilities, defaultSerializer: serializer, buildError: nil, route: routes[index],
            decoder: decoder, decoderBuildError: nil, decodingOptions: entry.decodingOptions, encoder: encoder,
            encoderBuildError: nil, configuration: options)
    }

    /// A copy with the options of the installed format `id` set (see ``configure(_:options:)``).
    ///
    /// - Throws: As ``configure(_:options:)`` does.
    public func configuring(
        _ id: SerializerID, options: ConfigurationOptions
    ) throws(SerializationError)
        -> SerializerRegistry
    {
        var copy = self
        try copy.configure(id, options: options)
        return copy
    }
}
