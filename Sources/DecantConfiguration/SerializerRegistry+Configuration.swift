public import DecantCore

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

extension SerializerRegistry {
    /// Checks `configuration` against this registry and builds its chains.
    ///
    /// Every problem is reported at once, with its key path: unknown serializer ids (with the nearest installed
    /// id), unknown or ill-typed options, byte limits above `BodySizeLimit.maxConfigurableBytes`, and serializers
    /// that can never run first because an earlier one in the same chain accepts everything they accept (shadowing).
    ///
    /// - Throws: `ConfigurationError`; nothing is loaded when there is any problem.
    public func load(
        _ configuration: ChainConfiguration, file: String? = nil
    ) throws(ConfigurationError)
        -> LoadedConfiguration
    {
        let (chains, problems) = build(configuration)
        guard problems.isEmpty else { throw ConfigurationError(file: file, problems: problems) }
        return LoadedConfiguration(configuration: configuration, chains: chains)
    }

    /// Reads a document (JSON or property list) and loads it against this registry, reporting the document's
    /// problems and the registry's together.
    ///
    /// - Throws: `ConfigurationError` listing every problem; nothing is loaded when there is any.
    public func loadConfiguration(data: Data, file: String? = nil) throws(ConfigurationError) -> LoadedConfiguration {
        let (configuration, readProblems) = ChainConfiguration.read(data)
        guard let configuration else { throw ConfigurationError(file: file, problems: readProblems) }
        let (chains, buildProblems) = build(configuration)
        let problems = readProblems + buildProblems
        guard problems.isEmpty else { throw ConfigurationError(file: file, problems: problems) }
        return LoadedConfiguration(configuration: configuration, chains: chains)
    }

    private func build(
        _ configuration: ChainConfiguration
    ) -> (chains: [String: ConfiguredChain], problems: [ConfigurationError.Problem]) {
        var problems: [ConfigurationError.Problem] = []
        var chains: [String: ConfiguredChain] = [:]
        for (chainIndex, settings) in configuration.chains.enumerated() {
            let path = "chains[\(chainIndex)]"
            // Checked when a document is read; again here for a configuration built in code.
            let limits = [("maxBodyBytes", settings.maxBodyBytes), ("maxDecodedBytes", settings.maxDecodedBytes)]
            for (key, value) in limits {
                if let message = ChainConfiguration.byteLimitProblem(value) {
                    problems.append(.init(keyPath: path + ".limits." + key, message: message))
                }
            }
            let serializers = build(settings.serializers, at: path + ".serializers", problems: &problems)
            problems += shadowingProblems(settings, serializers: serializers, at: path + ".serializers")
            var errorDecoding = StatusCodeValidation.ErrorBodyDecoding.sameSerializer
            switch settings.errorBody {
            case .none:
                errorDecoding = .none
            case .sameSerializers:
                break
            case .serializers(let references):
                let errorSerializers = build(references, at: path + ".errorBody.serializers", problems: &problems)
                errorDecoding = .serializer(
                    CompoundSerializer(errorSerializers.compactMap { $0 }, sniffing: settings.sniffing)
                        .eraseOutput())
            }
            let stages = buildStages(settings, at: path + ".preprocessors", problems: &problems)
            var chainDecoding = DecodingOptions()
            do throws(SerializationError) {
                chainDecoding = try DecodingOptions(configuration: settings.decoding)
            } catch {
                // Checked when a document is read; again here for a configuration built in code.
                problems.append(
                    .init(
                        keyPath: ([path + ".decoding"] + error.codingPath).joined(separator: "."),
                        message: error.message))
                continue
            }
            let built = serializers.compactMap { $0 }
            guard built.count == serializers.count, let stages else { continue }
            let (decoders, decoderErrors) = buildDecoders(settings.serializers, chainDecoding: chainDecoding)
            chains[settings.name] = ConfiguredChain.make(
                settings, serializers: built, stages: stages, globalAliases: configuration.aliases,
                errorDecoding: errorDecoding, decodingOptions: chainDecoding, decoders: decoders,
                decoderErrors: decoderErrors)
        }
        return (chains, problems)
    }

    /// Reads a configuration file (JSON or property list) and loads it against this registry.
    ///
    /// - Throws: `ConfigurationError` listing every problem, syntax and registry alike.
    public func loadConfiguration(contentsOf url: URL) throws(ConfigurationError) -> LoadedConfiguration {
        try loadConfiguration(data: ChainConfiguration.readFile(url), file: url.path)
    }

    private func build(
        _ references: [ChainConfiguration.SerializerReference], at path: String,
        problems: inout [ConfigurationError.Problem]
    ) -> [AnyResponseSerializer<any Sendable>?] {
        references.enumerated().map { index, reference in
            let itemPath = "\(path)[\(index)]"
            // Every unknown or wrongly typed option at once, rather than the first that building would stop at.
            if let entry = entry(for: reference.id) {
                let optionProblems = SerializerOption.problems(
                    reference.options, against: entry.factory.optionSchema, for: reference.id)
                if !optionProblems.isEmpty {
                    for error in optionProblems {
                        problems.append(
                            .init(
                                keyPath: ([itemPath + ".options"] + error.codingPath).joined(separator: "."),
                                message: error.message))
                    }
                    return nil
                }
            }
            do throws(SerializationError) {
                return try serializer(id: reference.id, configuration: reference.options)
            } catch {
                let keyPath =
                    error.code == .unknownSerializer
                    ? itemPath + ".id"
                    : ([itemPath + ".options"] + error.codingPath).joined(separator: ".")
                problems.append(.init(keyPath: keyPath, message: error.message))
                return nil
            }
        }
    }

    /// The `Decodable` decoders of a chain's serializers that have one, built with the serializers' options, with the
    /// registry's ``decodingOptions``, then the format's, then the chain's `decoding` applied; and the errors of those
    /// that failed to build (reported when the chain decodes).
    private func buildDecoders(
        _ references: [ChainConfiguration.SerializerReference], chainDecoding: DecodingOptions
    ) -> ([any ResponseDecoder], [SerializationError]) {
        var decoders: [any ResponseDecoder] = []
        var errors: [SerializationError] = []
        for reference in references {
            guard let entry = entry(for: reference.id) else { continue }
            do throws(SerializationError) {
                guard let decoder = try entry.factory.makeDecoder(configuration: reference.options) else { continue }
                let options = decodingOptions.overridden(by: entry.decodingOptions).overridden(by: chainDecoding)
                decoders.append(options.isEmpty ? decoder : decoder.applying(options))
            } catch {
                errors.append(error)
            }
        }
        return (decoders, errors)
    }

    /// The stages of `settings.preprocessors`, each built by the installed stage factory of its id from its options
    /// (the chain's `limits` filling options of the same name it does not set); `nil` when any has a problem.
    private func buildStages(
        _ settings: ChainConfiguration.Chain, at path: String, problems: inout [ConfigurationError.Problem]
    ) -> [any ResponseStage]? {
        var limits: ConfigurationOptions = ["maxDecodedBytes": .integer(settings.maxDecodedBytes)]
        if let ratio = settings.maxExpansionRatio { limits["maxExpansionRatio"] = .integer(ratio) }
        var stages: [any ResponseStage] = []
        var failed = false
        for (index, reference) in settings.preprocessors.enumerated() {
            let itemPath = "\(path)[\(index)]"
            guard let factory = stageFactory(for: reference.id) else {
                let installed = self.stages.map(\.factory.id.rawValue)
                var message =
                    "names no installed stage: '\(reference.id)'"
                    + ConfigurationReader.suggestion(for: reference.id.rawValue, in: installed)
                message +=
                    " The registry's stages are \(installed.joined(separator: ", ")); a plugin's stage can be "
                    + "named once its module is installed in the registry that loads this file."
                problems.append(.init(keyPath: itemPath, message: message))
                failed = true
                continue
            }
            let optionProblems = SerializerOption.problems(
                reference.options, against: factory.optionSchema, for: reference.id, noun: "stage")
            guard optionProblems.isEmpty else {
                for error in optionProblems {
                    problems.append(
                        .init(
                            keyPath: ([itemPath + ".options"] + error.codingPath).joined(separator: "."),
                            message: error.message))
                }
                failed = true
                continue
            }
            var options = reference.options
            for option in factory.optionSchema where options[option.name] == nil {
                if let limit = limits[option.name] { options[option.name] = limit }
            }
            do throws(SerializationError) {
                stages.append(try factory.makeStage(configuration: options))
            } catch {
                problems.append(
                    .init(
                        keyPath: ([itemPath + ".options"] + error.codingPath).joined(separator: "."),
                        message: error.message))
                failed = true
            }
        }
        return failed ? nil : stages
    }

    private func shadowingProblems(
        _ settings: ChainConfiguration.Chain, serializers: [AnyResponseSerializer<any Sendable>?], at path: String
    ) -> [ConfigurationError.Problem] {
        var problems: [ConfigurationError.Problem] = []
        for (laterIndex, later) in serializers.enumerated() {
            guard let later else { continue }
            for (earlierIndex, earlier) in serializers.prefix(laterIndex).enumerated() {
                guard let earlier else { continue }
                let shadowed = later.mediaRanges.allSatisfy { laterRange in
                    earlier.mediaRanges.contains { earlierRange in
                        earlierRange.covers(laterRange)
                            && (settings.order == .asListed || earlierRange.specificity >= laterRange.specificity)
                    }
                }
                guard shadowed else { continue }
                let earlierRanges = earlier.mediaRanges.map(\.description).joined(separator: ", ")
                problems.append(
                    .init(
                        keyPath: "\(path)[\(laterIndex)]",
                        message:
                            "'\(later.id)' is shadowed by the earlier catch-all '\(earlier.id)' "
                            + "at \(path)[\(earlierIndex)] (\(earlierRanges)): it would only run when that one "
                            + "fails. Move it before '\(earlier.id)', or narrow that serializer's "
                            + "mediaRanges."))
                break
            }
        }
        return problems
    }
}
