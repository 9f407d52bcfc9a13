public import DecantCore

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

extension ChainConfiguration {
    /// The document as a configuration tree, in the same shapes ``init(data:file:)`` reads; defaults are written
    /// out, so the result is complete and reading it back gives an equal configuration.
    public var document: ConfigurationValue {
        var root: [String: ConfigurationValue] = ["version": .integer(version)]
        if !aliases.isEmpty { root["aliases"] = .array(aliases.map(\.document)) }
        root["chains"] = .array(chains.map(\.document))
        return .object(root)
    }

    /// The document as pretty-printed JSON with sorted keys.
    public func jsonData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(document)
    }
}

extension ChainConfiguration.MediaTypeAlias {
    var document: ConfigurationValue {
        var object: [String: ConfigurationValue] = [
            "mediaType": .string(mediaType.description), "treatAs": .string(treatAs.description),
        ]
        if let host { object["host"] = .string(host) }
        if let pathPrefix { object["pathPrefix"] = .string(pathPrefix) }
        return .object(object)
    }
}

extension ChainConfiguration {
    /// A reference to a factory as a document writes it: the id alone, or `{"id", "options"}`.
    static func referenceDocument(id: SerializerID, options: ConfigurationOptions) -> ConfigurationValue {
        options.isEmpty ? .string(id.rawValue) : .object(["id": .string(id.rawValue), "options": .object(options)])
    }
}

extension ChainConfiguration.SerializerReference {
    var document: ConfigurationValue { ChainConfiguration.referenceDocument(id: id, options: options) }
}

extension ChainConfiguration.StageReference {
    var document: ConfigurationValue { ChainConfiguration.referenceDocument(id: id, options: options) }
}

extension ChainConfiguration.Chain {
    var document: ConfigurationValue {
        var limits: [String: ConfigurationValue] = [
            "maxBodyBytes": .integer(maxBodyBytes), "maxDecodedBytes": .integer(maxDecodedBytes),
        ]
        if let maxExpansionRatio { limits["maxExpansionRatio"] = .integer(maxExpansionRatio) }
        var object: [String: ConfigurationValue] = [
            "name": .string(name),
            "serializers": .array(serializers.map(\.document)),
            "order": .string(order.rawValue),
            "triesNonMatching": .bool(triesNonMatching),
            "acceptableStatusCodes": .array(
                acceptableStatusCodes.ranges.map {
                    $0.count == 1 ? .integer($0.lowerBound) : .string("\($0.lowerBound)-\($0.upperBound)")
                }),
            "emptyBody": .object([
                "outcome": .string(EmptyBodyPolicy.Outcome.named.first { $0.outcome == emptyBody.outcome }!.name),
                "treatsWhitespaceAsEmpty": .bool(emptyBody.treatsWhitespaceAsEmpty),
                "noContentStatuses": .array(emptyBody.noContentStatuses.sorted().map { .integer($0) }),
            ]),
            "limits": .object(limits),
            "preprocessors": .array(preprocessors.map(\.document)),
        ]
        if !aliases.isEmpty { object["aliases"] = .array(aliases.map(\.document)) }
        if !decoding.isEmpty { object["decoding"] = .object(decoding) }
        if let defaultCharset { object["defaultCharset"] = .string(defaultCharset) }
        if let name = SniffingPolicy.named.first(where: { $0.policy == sniffing })?.name {
            object["sniffing"] = .string(name)
        }
        switch errorBody {
        case .none: object["errorBody"] = .string("none")
        case .sameSerializers: object["errorBody"] = .string("sameSerializers")
        case .serializers(let references):
            object["errorBody"] = .object(["serializers": .array(references.map(\.document))])
        }
        return .object(object)
    }
}
