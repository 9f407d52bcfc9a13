import DecantCharset
public import DecantCore
import DecantJSON

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

extension ChainConfiguration {
    /// Reads a document from JSON or property-list bytes (detected from the content: `bplist` or `<?xml`/`<plist` is
    /// a property list).
    ///
    /// - Parameters:
    ///   - data: The document.
    ///   - file: The file name to put in errors.
    /// - Throws: `ConfigurationError` listing every problem: syntax, unknown keys (with the nearest allowed
    ///   one), wrong types, invalid media types or ranges, unknown versions, duplicate chain names. Registry checks
    ///   (serializer ids, options, shadowing) come with `SerializerRegistry.load(_:)`.
    public init(data: Data, file: String? = nil) throws(ConfigurationError) {
        let (configuration, problems) = ChainConfiguration.read(data)
        guard problems.isEmpty, let configuration else { throw ConfigurationError(file: file, problems: problems) }
        self = configuration
    }

    /// Reads what can be read of a document and every problem found; the configuration is `nil` only when the
    /// bytes are not a document at all.
    static func read(_ data: Data) -> (ChainConfiguration?, [ConfigurationError.Problem]) {
        let root: ConfigurationValue
        do {
            root = try decodeTree(data)
        } catch {
            return (nil, error.problems)
        }
        var reader = ConfigurationReader()
        let configuration = reader.readDocument(root)
        return (configuration, reader.problems)
    }

    /// Reads a document from a file (JSON or property list).
    ///
    /// - Throws: `ConfigurationError` naming the file.
    public init(contentsOf url: URL) throws(ConfigurationError) {
        try self.init(data: ChainConfiguration.readFile(url), file: url.path)
    }

    /// The largest configuration file `SerializerRegistry.loadConfiguration(contentsOf:)` reads: 4 MiB, far more
    /// than a document of chains needs. Only regular files are read (not devices, pipes or sockets).
    public static let maxFileBytes = 4 * 1024 * 1024

    /// A file type in words, for an error.
    private static func describe(_ type: FileAttributeType) -> String {
        switch type {
        case .typeCharacterSpecial: "a character device"
        case .typeBlockSpecial: "a block device"
        case .typeSocket: "a socket"
        default: "a pipe or another special file"
        }
    }

    /// What a byte limit (`limits.maxBodyBytes`, `limits.maxDecodedBytes`) must be.
    static let byteLimitRequirement =
        "must be an integer from 0 to \(BodySizeLimit.maxConfigurableBytes) (1 TiB, the largest byte limit a "
        + "configuration may set)"

    /// The problem with `value` as a byte limit, or `nil` when it is from 0 to
    /// `BodySizeLimit.maxConfigurableBytes`: the one statement of the range, for documents and for configurations
    /// built in code alike.
    static func byteLimitProblem(_ value: Int) -> String? {
        (0...BodySizeLimit.maxConfigurableBytes).contains(value) ? nil : byteLimitRequirement + ", not \(value)"
    }

    /// The bytes of a configuration file, or an error that says why it cannot be read (never a raw system error).
    static func readFile(_ url: URL) throws(ConfigurationError) -> Data {
        func problem(_ message: String) -> ConfigurationError {
            ConfigurationError(file: url.path, problems: [.init(keyPath: "", message: message)])
        }
        var isDirectory = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw problem("cannot be read: there is no such file")
        }
        guard !isDirectory else { throw problem("cannot be read: it is a directory, not a configuration file") }
        // Only a regular file has a size to check first: a device (/dev/zero) or a pipe could yield bytes forever.
        let resolved = url.resolvingSymlinksInPath().path
        let attributes = (try? FileManager.default.attributesOfItem(atPath: resolved)) ?? [:]
        if let type = attributes[.type] as? FileAttributeType, type != .typeRegular {
            throw problem(
                "cannot be read: it is not a regular file (\(describe(type))). Save the configuration to a file and "
                    + "give its path.")
        }
        if let size = attributes[.size] as? UInt, size > UInt(maxFileBytes) {
            throw problem(
                "is \(size) bytes, more than a configuration file may be (\(maxFileBytes) bytes, "
                    + "ChainConfiguration.maxFileBytes); check that this is the configuration file you meant.")
        }
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw problem("cannot be read: check that the file is readable by this user")
        }
        return data
    }

    /// What is wrong with a document that is not valid property-list syntax, as a sentence with the parser's own
    /// reason.
    static func propertyListProblem(_ error: any Error) -> String {
        var reason = "the property list is malformed"
        if case DecodingError.dataCorrupted(let context) = error,
            let underlying = context.underlyingError as? CocoaError,
            let detail = underlying.userInfo["NSDebugDescription"] as? String
        {
            reason += ": " + detail
        }
        return "is not a valid property-list document (\(reason)); fix the syntax, or write the document as JSON."
    }

    static func isPropertyList(_ data: Data) -> Bool {
        let start = data.prefix(64).drop { [0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }
        return start.starts(with: Array("bplist".utf8)) || start.starts(with: Array("<?xml".utf8))
            || start.starts(with: Array("<plist".utf8)) || start.starts(with: Array("<!DOCTYPE plist".utf8))
    }

    /// The document's tree, or the one problem that keeps it from being read: a property list through Foundation's
    /// decoder, JSON through DecantJSON's parser, whose error says where the syntax breaks (line, column and byte)
    /// and what was expected there.
    static func decodeTree(_ data: Data) throws(ConfigurationError) -> ConfigurationValue {
        func problem(_ keyPath: String, _ message: String) -> ConfigurationError {
            ConfigurationError(file: nil, problems: [.init(keyPath: keyPath, message: message)])
        }
        if isPropertyList(data) {
            do {
                return try PropertyListDecoder().decode(ConfigurationValue.self, from: data)
            } catch {
                throw problem("", propertyListProblem(error))
            }
        }
        let json: JSONValue
        do {
            json = try JSONParser().parse(data)
        } catch {
            throw problem("", "is not a valid JSON document: " + error.message)
        }
        var unreadable: String?
        let tree = ConfigurationValue(json, at: "", unreadable: &unreadable)
        if let unreadable {
            throw problem(
                unreadable,
                "is a number beyond the range of a Double (±1.8e308), so the document cannot be read; write a "
                    + "smaller number.")
        }
        return tree
    }
}

extension ConfigurationValue {
    /// The configuration value of a JSON value: integers that fit an `Int` (`3`, `3.0`, `3e0`) as integers, other
    /// numbers as doubles. The key path of the first number beyond a `Double`'s range goes to `unreadable`.
    ///
    /// The recursion is as deep as the document, which the parser bounds (`JSONParsingOptions.maxDepth`, 512).
    fileprivate init(_ json: JSONValue, at path: String, unreadable: inout String?) {
        switch json.kind {
        case .null:
            self = .null
        case .bool:
            self = .bool(json.boolValue ?? false)
        case .number:
            if let integer = json.intValue {
                self = .integer(integer)
            } else if let double = json.doubleValue {
                self = .number(double)
            } else {
                if unreadable == nil { unreadable = path }
                self = .null
            }
        case .string:
            self = .string(json.stringValue ?? "")
        case .array:
            var elements: [ConfigurationValue] = []
            elements.reserveCapacity(json.count)
            for (index, element) in json.elements.enumerated() {
                elements.append(ConfigurationValue(element, at: "\(path)[\(index)]", unreadable: &unreadable))
            }
            self = .array(elements)
        case .object:
            var members: [String: ConfigurationValue] = [:]
            for (key, value) in json.members {
                members[key] = ConfigurationValue(
                    value, at: path.isEmpty ? key : path + "." + key, unreadable: &unreadable)
            }
            self = .object(members)
        }
    }
}

/// Walks a configuration tree, building the typed document and collecting every problem with its key path.
struct ConfigurationReader {
    var problems: [ConfigurationError.Problem] = []

    mutating func problem(_ path: String, _ message: String) {
        problems.append(.init(keyPath: path, message: message))
    }

    /// Checks that `value` is an object whose keys are all in `allowed`; reports unknown keys with the nearest.
    mutating func object(
        _ value: ConfigurationValue, at path: String, allowed: [String]
    ) -> [String: ConfigurationValue]? {
        guard case .object(let object) = value else {
            problem(path, "must be an object, not \(value.kindDescription)")
            return nil
        }
        for key in object.keys.sorted() where !allowed.contains(key) {
            let message = "is not a known key" + Self.suggestion(for: key, in: allowed)
            problem(join(path, key), message + " Allowed here: " + allowed.joined(separator: ", ") + ".")
        }
        return object
    }

    func join(_ path: String, _ key: String) -> String { path.isEmpty ? key : path + "." + key }

    /// How a clause about a wrong `text` ends, before the sentence that lists what is allowed: `; did you mean 'x'?`
    /// when a candidate is near, else a full stop. The one place such sentences are joined.
    static func suggestion(for text: String, in candidates: [String]) -> String {
        EditDistance.nearest(to: text, in: candidates).map { "; did you mean '\($0)'?" } ?? "."
    }

    mutating func string(_ value: ConfigurationValue?, at path: String) -> String? {
        guard let value else { return nil }
        guard case .string(let text) = value else {
            problem(path, "must be a string, not \(value.kindDescription)")
            return nil
        }
        return text
    }

    mutating func bool(_ value: ConfigurationValue?, at path: String) -> Bool? {
        guard let value else { return nil }
        guard case .bool(let flag) = value else {
            problem(path, "must be true or false, not \(value.kindDescription)")
            return nil
        }
        return flag
    }

    mutating func integer(_ value: ConfigurationValue?, at path: String, range: ClosedRange<Int>) -> Int? {
        guard let value else { return nil }
        guard case .integer(let number) = value, range.contains(number) else {
            problem(path, "must be an integer from \(range.lowerBound) to \(range.upperBound), not \(value)")
            return nil
        }
        return number
    }

    /// A byte limit: an integer from 0 to `BodySizeLimit.maxConfigurableBytes` (1 TiB).
    mutating func byteLimit(_ value: ConfigurationValue?, at path: String) -> Int? {
        guard let value else { return nil }
        guard case .integer(let number) = value, ChainConfiguration.byteLimitProblem(number) == nil else {
            problem(path, ChainConfiguration.byteLimitRequirement + ", not \(value)")
            return nil
        }
        return number
    }

    mutating func array(_ value: ConfigurationValue?, at path: String) -> [ConfigurationValue]? {
        guard let value else { return nil }
        guard case .array(let items) = value else {
            problem(path, "must be an array, not \(value.kindDescription)")
            return nil
        }
        return items
    }

    mutating func choice<T>(_ value: ConfigurationValue?, at path: String, _ choices: [(String, T)]) -> T? {
        guard let text = string(value, at: path) else { return nil }
        if let match = choices.first(where: { $0.0 == text }) { return match.1 }
        let message = "\"\(text)\" is not allowed" + Self.suggestion(for: text, in: choices.map(\.0))
        problem(path, message + " Use one of: " + choices.map(\.0).joined(separator: ", ") + ".")
        return nil
    }

    // MARK: The document

    mutating func readDocument(_ root: ConfigurationValue) -> ChainConfiguration? {
        guard let object = object(root, at: "", allowed: ["version", "aliases", "chains"]) else { return nil }
        var version = 1
        if let value = object["version"] {
            if case .integer(let number) = value {
                version = number
                if !ChainConfiguration.supportedVersions.contains(number) {
                    problem(
                        "version",
                        "\(number) is not a version this code knows; it reads version "
                            + "\(ChainConfiguration.supportedVersions.upperBound). Update Decant or write a version 1 "
                            + "document.")
                }
            } else {
                problem("version", "must be an integer, not \(value.kindDescription)")
            }
        } else {
            problem("version", "is required: add \"version\": 1")
        }
        let aliases = readAliases(object["aliases"], at: "aliases")
        var chains: [ChainConfiguration.Chain] = []
        if let items = array(object["chains"], at: "chains") {
            if items.isEmpty { problem("chains", "must list at least one chain") }
            var names: [String: Int] = [:]
            for (index, item) in items.enumerated() {
                let path = "chains[\(index)]"
                guard let chain = readChain(item, at: path) else { continue }
                if let first = names[chain.name] {
                    problem(
                        path + ".name",
                        "\"\(chain.name)\" is already the name of chains[\(first)]; chain names must be unique")
                } else {
                    names[chain.name] = index
                }
                chains.append(chain)
            }
        } else if object["chains"] == nil {
            problem("chains", "is required: a list of chains, each with a name and serializers")
        }
        return ChainConfiguration(version: version, aliases: aliases, chains: chains)
    }

    mutating func readAliases(_ value: ConfigurationValue?, at path: String) -> [ChainConfiguration.MediaTypeAlias] {
        guard let items = array(value, at: path) else { return [] }
        var aliases: [ChainConfiguration.MediaTypeAlias] = []
        for (index, item) in items.enumerated() {
            let itemPath = "\(path)[\(index)]"
            guard let object = object(item, at: itemPath, allowed: ["mediaType", "treatAs", "host", "pathPrefix"])
            else { continue }
            let range = mediaRange(object["mediaType"], at: join(itemPath, "mediaType"), required: true)
            var target: MediaType?
            if let text = string(object["treatAs"], at: join(itemPath, "treatAs")) {
                do {
                    target = try MediaType(parsing: text)
                } catch {
                    problem(join(itemPath, "treatAs"), error.description)
                }
            } else if object["treatAs"] == nil {
                problem(join(itemPath, "treatAs"), "is required: the media type to use instead")
            }
            let host = string(object["host"], at: join(itemPath, "host"))
            let pathPrefix = string(object["pathPrefix"], at: join(itemPath, "pathPrefix"))
            if let pathPrefix, !pathPrefix.hasPrefix("/") {
                problem(join(itemPath, "pathPrefix"), "must start with \"/\", such as \"/api/v1/\"")
            }
            if let range, let target {
                aliases.append(.init(mediaType: range, treatAs: target, host: host, pathPrefix: pathPrefix))
            }
        }
        return aliases
    }

    mutating func mediaRange(_ value: ConfigurationValue?, at path: String, required: Bool) -> MediaRange? {
        guard let text = string(value, at: path) else {
            if value == nil && required { problem(path, "is required: a media range such as \"text/html\"") }
            return nil
        }
        do {
            return try MediaRange(parsing: text)
        } catch {
            problem(path, error.description)
            return nil
        }
    }

    static let chainKeys = [
        "name", "serializers", "order", "triesNonMatching", "aliases", "acceptableStatusCodes", "emptyBody",
        "defaultCharset", "sniffing", "limits", "preprocessors", "errorBody", "decoding",
    ]

    mutating func readChain(_ value: ConfigurationValue, at path: String) -> ChainConfiguration.Chain? {
        guard let object = object(value, at: path, allowed: Self.chainKeys) else { return nil }
        let name = string(object["name"], at: join(path, "name"))
        if object["name"] == nil { problem(join(path, "name"), "is required: the name code asks for") }
        if let name, name.isEmpty { problem(join(path, "name"), "must not be empty") }
        let serializers = readSerializers(object["serializers"], at: join(path, "serializers"), required: true)
        var chain = ChainConfiguration.Chain(name: name ?? "", serializers: serializers)
        if let order = choice(
            object["order"], at: join(path, "order"), SerializerOrdering.allCases.map { ($0.rawValue, $0) })
        {
            chain.order = order
        }
        chain.triesNonMatching = bool(object["triesNonMatching"], at: join(path, "triesNonMatching")) ?? false
        chain.aliases = readAliases(object["aliases"], at: join(path, "aliases"))
        if let codes = readStatusCodes(object["acceptableStatusCodes"], at: join(path, "acceptableStatusCodes")) {
            chain.acceptableStatusCodes = codes
        }
        if let policy = readEmptyBody(object["emptyBody"], at: join(path, "emptyBody")) { chain.emptyBody = policy }
        if let label = string(object["defaultCharset"], at: join(path, "defaultCharset")) {
            if TextEncoding(label: label) == nil {
                let labels = TextEncoding.allWHATWG.flatMap(\.labels)
                let message =
                    "\"\(label)\" is not a WHATWG encoding label" + Self.suggestion(for: label.lowercased(), in: labels)
                problem(
                    join(path, "defaultCharset"), message + " Use a label such as utf-8, windows-1252 or shift_jis.")
            } else {
                chain.defaultCharset = label
            }
        }
        if let sniffing = choice(
            object["sniffing"], at: join(path, "sniffing"), SniffingPolicy.named.map { ($0.name, $0.policy) })
        {
            chain.sniffing = sniffing
        }
        if let limits = object["limits"],
            let limitObject = self.object(
                limits, at: join(path, "limits"), allowed: ["maxBodyBytes", "maxDecodedBytes", "maxExpansionRatio"])
        {
            chain.maxBodyBytes =
                byteLimit(limitObject["maxBodyBytes"], at: join(path, "limits.maxBodyBytes")) ?? chain.maxBodyBytes
            chain.maxDecodedBytes =
                byteLimit(limitObject["maxDecodedBytes"], at: join(path, "limits.maxDecodedBytes"))
                ?? chain.maxDecodedBytes
            chain.maxExpansionRatio = integer(
                limitObject["maxExpansionRatio"], at: join(path, "limits.maxExpansionRatio"), range: 1...Int.max)
        }
        if let items = array(object["preprocessors"], at: join(path, "preprocessors")) {
            chain.preprocessors = readReferences(items, at: join(path, "preprocessors"), noun: "stage").map {
                ChainConfiguration.StageReference(id: $0.id, options: $0.options)
            }
        }
        if let errorBody = object["errorBody"] {
            chain.errorBody = readErrorBody(errorBody, at: join(path, "errorBody"))
        }
        if let decoding = object["decoding"] { chain.decoding = readDecoding(decoding, at: join(path, "decoding")) }
        return chain
    }

    mutating func readSerializers(
        _ value: ConfigurationValue?, at path: String, required: Bool
    ) -> [ChainConfiguration.SerializerReference] {
        guard let items = array(value, at: path) else {
            if value == nil && required {
                problem(path, "is required: a list of serializer ids such as [\"json\", \"string\"]")
            }
            return []
        }
        if items.isEmpty { problem(path, "must list at least one serializer") }
        return readReferences(items, at: path, noun: "serializer").map {
            ChainConfiguration.SerializerReference(id: $0.id, options: $0.options)
        }
    }

    /// The items of a list of factory references (serializers, stages): each an id or `{"id", "options"}`. Whether
    /// an id is installed is checked when the configuration is loaded against a registry.
    mutating func readReferences(
        _ items: [ConfigurationValue], at path: String, noun: String
    ) -> [(id: SerializerID, options: ConfigurationOptions)] {
        var references: [(id: SerializerID, options: ConfigurationOptions)] = []
        for (index, item) in items.enumerated() {
            let itemPath = "\(path)[\(index)]"
            var idText: String?
            var options: ConfigurationOptions = [:]
            switch item {
            case .string(let text):
                idText = text
            case .object:
                guard let object = object(item, at: itemPath, allowed: ["id", "options"]) else { continue }
                idText = string(object["id"], at: join(itemPath, "id"))
                if object["id"] == nil { problem(join(itemPath, "id"), "is required: the \(noun) id") }
                if let optionValue = object["options"] {
                    if case .object(let optionObject) = optionValue {
                        options = optionObject
                    } else {
                        problem(join(itemPath, "options"), "must be an object, not \(optionValue.kindDescription)")
                    }
                }
            default:
                problem(itemPath, "must be a \(noun) id or {\"id\", \"options\"}, not \(item.kindDescription)")
            }
            guard let idText else { continue }
            guard let id = SerializerID(rawValue: idText) else {
                problem(
                    itemPath,
                    "\"\(idText)\" is not a valid \(noun) id (lowerCamel words, prefixed for third "
                        + "parties: json, propertyList, acme.yaml)")
                continue
            }
            references.append((id, options))
        }
        return references
    }

    mutating func readStatusCodes(_ value: ConfigurationValue?, at path: String) -> StatusCodes? {
        guard let items = array(value, at: path) else { return nil }
        var ranges: [ClosedRange<Int>] = []
        for (index, item) in items.enumerated() {
            let itemPath = "\(path)[\(index)]"
            switch item {
            case .integer(let code) where (100...599).contains(code):
                ranges.append(code...code)
            case .string(let text):
                let parts = text.split(separator: "-", omittingEmptySubsequences: false).map { Int($0) }
                if parts.count == 2, let low = parts[0], let high = parts[1], low <= high, (100...599).contains(low),
                    (100...599).contains(high)
                {
                    ranges.append(low...high)
                } else {
                    problem(itemPath, "\"\(text)\" is not a range of status codes such as \"200-299\"")
                }
            default:
                problem(itemPath, "must be a status code from 100 to 599 or a range such as \"200-299\", not \(item)")
            }
        }
        return StatusCodes(ranges)
    }

    mutating func readEmptyBody(_ value: ConfigurationValue?, at path: String) -> EmptyBodyPolicy? {
        guard let value else { return nil }
        let outcomes = EmptyBodyPolicy.Outcome.named.map { ($0.name, $0.outcome) }
        var policy = EmptyBodyPolicy.default
        if case .string = value {
            guard let outcome = choice(value, at: path, outcomes) else { return nil }
            policy.outcome = outcome
            return policy
        }
        guard
            let object = object(value, at: path, allowed: ["outcome", "treatsWhitespaceAsEmpty", "noContentStatuses"])
        else { return nil }
        if let outcome = choice(object["outcome"], at: join(path, "outcome"), outcomes) { policy.outcome = outcome }
        if let flag = bool(object["treatsWhitespaceAsEmpty"], at: join(path, "treatsWhitespaceAsEmpty")) {
            policy.treatsWhitespaceAsEmpty = flag
        }
        if let items = array(object["noContentStatuses"], at: join(path, "noContentStatuses")) {
            var statuses = Set<Int>()
            for (index, item) in items.enumerated() {
                if let code = integer(item, at: join(path, "noContentStatuses") + "[\(index)]", range: 100...599) {
                    statuses.insert(code)
                }
            }
            policy.noContentStatuses = statuses
        }
        return policy
    }

    /// A chain's `decoding` object, every problem reported with its key path
    /// (`chains[0].decoding.dateDecodingStrategy`).
    mutating func readDecoding(_ value: ConfigurationValue, at path: String) -> ConfigurationOptions {
        guard case .object(let options) = value else {
            problem(
                path,
                "must be an object such as {\"keyDecodingStrategy\": \"convertFromSnakeCase\"}, not "
                    + value.kindDescription)
            return [:]
        }
        let found = DecodingOptions.problems(in: options)
        for error in found {
            problem(([path] + error.codingPath).joined(separator: "."), error.message)
        }
        return found.isEmpty ? options : [:]
    }

    mutating func readErrorBody(_ value: ConfigurationValue, at path: String) -> ChainConfiguration.ErrorBodyDecoding {
        if case .string = value {
            return choice(
                value, at: path,
                [("none", ChainConfiguration.ErrorBodyDecoding.none), ("sameSerializers", .sameSerializers)])
                ?? .sameSerializers
        }
        guard let object = object(value, at: path, allowed: ["serializers"]) else { return .sameSerializers }
        return .serializers(readSerializers(object["serializers"], at: join(path, "serializers"), required: true))
    }
}

extension SniffingPolicy {
    /// The policies a configuration document can name, with their names.
    public static let named: [(name: String, policy: SniffingPolicy)] = [
        ("trustHeader", .trustHeader), ("sniffWhenMissing", .sniffWhenMissing), ("sniffWhenGeneric", .sniffWhenGeneric),
    ]
}

extension EmptyBodyPolicy.Outcome {
    /// The outcomes a configuration document can name, with their names.
    public static let named: [(name: String, outcome: EmptyBodyPolicy.Outcome)] = [
        ("emptyValue", .emptyValue), ("emptyValueOnlyForNoContent", .emptyValueOnlyForNoContent), ("error", .error),
    ]
}
