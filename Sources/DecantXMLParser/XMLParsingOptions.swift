public import DecantCore

/// How ``XMLStreamParser`` reads a document: namespace handling and the limits that keep untrusted bodies bounded.
///
/// Every limit is checked before the memory it guards is allocated; exceeding one stops parsing with a
/// `SerializationError` whose code is `limitExceeded` and whose message names the option to raise. The defaults
/// accept any realistic document and stop entity bombs ("billion laughs", quadratic blowup) within milliseconds.
///
/// | Option | Default | What it bounds |
/// |---|---|---|
/// | ``maxDepth`` | 512 | open elements at once (and nested groups in an `<!ELEMENT>` content model) |
/// | ``maxAttributesPerElement`` | 1,024 | attributes and namespace declarations on one tag, defaults included |
/// | ``maxNameLength`` | 10,000 bytes | one element, attribute, entity, PI target or notation name |
/// | ``maxAttributeValueLength`` | 10,000,000 bytes | one attribute value after normalization |
/// | ``maxTextLength`` | 10,000,000 bytes | one `characters`, `cdata` or `comment` event or PI data |
/// | ``maxEntityExpansionBytes`` | 10,000,000 bytes | all entity replacement text read, in total |
/// | ``maxEntityExpansionRatio`` | 10 | the same total against the body size (never below 1 MiB) |
/// | ``maxEntityNestingDepth`` | 32 | entity references inside entity replacement text, nested |
/// | ``maxNodeCount`` | 10,000,000 | nodes reported in total (elements, attributes, text, comments, ...) |
/// | ``maxNodesPerByte`` | 1 | the same total against the body size (never below 100,000 nodes) |
/// | ``maxOutputBytes`` | 1,000,000,000 bytes | bytes of names, values and text reported, in total |
/// | ``maxOutputRatio`` | 16 | the same total against the body size (never below 4 MiB) |
///
/// An attribute default from an `<!ATTLIST>` counts at every element it is applied to: its entity replacement text
/// against the expansion limits (as if its references were written there), and its name and value against the output
/// limits. So a small document cannot report more than a bounded multiple of its size through any path (entities,
/// defaults or plain markup): a honest document without entities reports about one node per 3–4 bytes and about as
/// many bytes as it has.
public struct XMLParsingOptions: Sendable, Hashable {
    /// Whether names are split into prefix and local name and bound to namespaces (Namespaces in XML 1.0); when
    /// `true`, `xmlns` attributes become ``XMLElementStart/namespaceDeclarations``. Defaults to `true`.
    public var namespaceAware: Bool

    /// The most elements open at once; deeper documents fail. Defaults to 512.
    public var maxDepth: Int = XMLParsingOptions.defaultMaxDepth
    /// The most attributes (namespace declarations and defaulted attributes included) one start tag may have.
    /// Defaults to 1,024.
    public var maxAttributesPerElement: Int = XMLParsingOptions.defaultMaxAttributesPerElement
    /// The longest name, in UTF-8 bytes. Defaults to 10,000.
    public var maxNameLength: Int = XMLParsingOptions.defaultMaxNameLength
    /// The longest attribute value after normalization, in UTF-8 bytes. Defaults to 10,000,000.
    public var maxAttributeValueLength: Int = XMLParsingOptions.defaultMaxAttributeValueLength
    /// The longest text of one event (character data, a CDATA section, a comment, PI data), in UTF-8 bytes. Defaults
    /// to 10,000,000.
    public var maxTextLength: Int = XMLParsingOptions.defaultMaxTextLength
    /// The most bytes of entity replacement text the parser reads in total (every reference counts again). Defaults
    /// to 10,000,000.
    public var maxEntityExpansionBytes: Int = XMLParsingOptions.defaultMaxEntityExpansionBytes
    /// The most bytes of entity replacement text per byte of body: the total may not exceed this many times the body
    /// size, or ``entityExpansionFloor`` when that is larger (so small documents with a few entities always work).
    /// Defaults to 10.
    public var maxEntityExpansionRatio: Int = XMLParsingOptions.defaultMaxEntityExpansionRatio
    /// The deepest nesting of entity references within entity replacement text. Defaults to 32.
    public var maxEntityNestingDepth: Int = XMLParsingOptions.defaultMaxEntityNestingDepth
    /// The most nodes the parser reports in total: each element, attribute (defaulted ones included), namespace
    /// declaration, run of character data, CDATA section, comment and processing instruction counts one. Defaults to
    /// 10,000,000.
    public var maxNodeCount: Int = XMLParsingOptions.defaultMaxNodeCount
    /// The most nodes per byte of body: the total may not exceed this many times the body size, or
    /// ``nodeCountFloor`` when that is larger. A document without entities or attribute defaults has at most about one
    /// node per 3 bytes (`<a/>` is one node in 4 bytes). Defaults to 1.
    public var maxNodesPerByte: Int = XMLParsingOptions.defaultMaxNodesPerByte
    /// The most bytes the parser reports in total: every element and attribute name, attribute value, namespace
    /// declaration, run of character data, CDATA section, comment and processing instruction, in UTF-8 bytes (end tags
    /// do not count). Defaults to 1,000,000,000.
    public var maxOutputBytes: Int = XMLParsingOptions.defaultMaxOutputBytes
    /// The most bytes reported per byte of body: the total may not exceed this many times the body size, or
    /// ``outputFloor`` when that is larger. A document reports about as many bytes as it has, plus its entity
    /// expansions and attribute defaults. Defaults to 16.
    public var maxOutputRatio: Int = XMLParsingOptions.defaultMaxOutputRatio

    /// The default of ``maxDepth``: 512.
    public static let defaultMaxDepth = 512
    /// The default of ``maxAttributesPerElement``: 1,024.
    public static let defaultMaxAttributesPerElement = 1024
    /// The default of ``maxNameLength``: 10,000.
    public static let defaultMaxNameLength = 10_000
    /// The default of ``maxAttributeValueLength``: 10,000,000.
    public static let defaultMaxAttributeValueLength = 10_000_000
    /// The default of ``maxTextLength``: 10,000,000.
    public static let defaultMaxTextLength = 10_000_000
    /// The default of ``maxEntityExpansionBytes``: 10,000,000.
    public static let defaultMaxEntityExpansionBytes = 10_000_000
    /// The default of ``maxEntityExpansionRatio``: 10.
    public static let defaultMaxEntityExpansionRatio = 10
    /// The default of ``maxEntityNestingDepth``: 32.
    public static let defaultMaxEntityNestingDepth = 32
    /// The expansion the ratio limit always allows, whatever the body size: 1 MiB.
    public static let entityExpansionFloor = 1 << 20
    /// The default of ``maxNodeCount``: 10,000,000.
    public static let defaultMaxNodeCount = 10_000_000
    /// The default of ``maxNodesPerByte``: 1.
    public static let defaultMaxNodesPerByte = 1
    /// The nodes ``maxNodesPerByte`` always allows, whatever the body size: 100,000.
    public static let nodeCountFloor = 100_000
    /// The default of ``maxOutputBytes``: 1,000,000,000.
    public static let defaultMaxOutputBytes = 1_000_000_000
    /// The default of ``maxOutputRatio``: 16.
    public static let defaultMaxOutputRatio = 16
    /// The output ``maxOutputRatio`` always allows, whatever the body size: 4 MiB.
    public static let outputFloor = 4 << 20

    /// Options with the defaults.
    public init(namespaceAware: Bool = true) {
        self.namespaceAware = namespaceAware
    }

    /// The entity expansion budget for a body of `bodySize` bytes: the smaller of ``maxEntityExpansionBytes`` and
    /// ``maxEntityExpansionRatio`` times the body size (at least ``entityExpansionFloor``).
    public func entityExpansionBudget(bodySize: Int) -> Int {
        let (product, overflow) = max(0, maxEntityExpansionRatio).multipliedReportingOverflow(by: max(0, bodySize))
        let ratioLimit = overflow ? Int.max : max(product, XMLParsingOptions.entityExpansionFloor)
        return min(maxEntityExpansionBytes, ratioLimit)
    }

    /// The node budget for a body of `bodySize` bytes: the smaller of ``maxNodeCount`` and ``maxNodesPerByte`` times
    /// the body size (at least ``nodeCountFloor``).
    public func nodeBudget(bodySize: Int) -> Int {
        min(maxNodeCount, Self.ratioLimit(maxNodesPerByte, bodySize, floor: Self.nodeCountFloor))
    }

    /// The output budget for a body of `bodySize` bytes: the smaller of ``maxOutputBytes`` and ``maxOutputRatio``
    /// times the body size (at least ``outputFloor``).
    public func outputBudget(bodySize: Int) -> Int {
        min(maxOutputBytes, Self.ratioLimit(maxOutputRatio, bodySize, floor: Self.outputFloor))
    }

    private static func ratioLimit(_ ratio: Int, _ bodySize: Int, floor: Int) -> Int {
        let (product, overflow) = max(0, ratio).multipliedReportingOverflow(by: max(0, bodySize))
        return overflow ? Int.max : max(product, floor)
    }
}

extension XMLParsingOptions {
    /// The configuration options every XML serializer accepts for parsing (namespace handling and limits), shared
    /// by the `xmlParser` and `xmlDocument` factories: `namespaceAware` and one option per limit, named like the
    /// property.
    public static var optionSchema: [SerializerOption] {
        [
            SerializerOption(
                "namespaceAware", .bool, default: true,
                summary: "Splits names into prefix and local name and binds them to namespaces (Namespaces in XML)."),
            SerializerOption(
                "maxDepth", .integer(1...1_000_000), default: .integer(defaultMaxDepth),
                summary: "The most elements open at once."),
            SerializerOption(
                "maxAttributesPerElement", .integer(1...Int.max), default: .integer(defaultMaxAttributesPerElement),
                summary: "The most attributes and namespace declarations one start tag may have."),
            SerializerOption(
                "maxNameLength", .integer(1...Int.max), default: .integer(defaultMaxNameLength),
                summary: "The longest name, in UTF-8 bytes."),
            SerializerOption(
                "maxAttributeValueLength", .integer(0...Int.max), default: .integer(defaultMaxAttributeValueLength),
                summary: "The longest attribute value after normalization, in UTF-8 bytes."),
            SerializerOption(
                "maxTextLength", .integer(0...Int.max), default: .integer(defaultMaxTextLength),
                summary: "The longest text of one event (character data, CDATA, comment, PI data), in UTF-8 bytes."),
            SerializerOption(
                "maxEntityExpansionBytes", .integer(0...Int.max), default: .integer(defaultMaxEntityExpansionBytes),
                summary: "The most bytes of entity replacement text read in total."),
            SerializerOption(
                "maxEntityExpansionRatio", .integer(0...Int.max), default: .integer(defaultMaxEntityExpansionRatio),
                summary: "The most bytes of entity replacement text per body byte (never below 1 MiB in total)."),
            SerializerOption(
                "maxEntityNestingDepth", .integer(1...10_000), default: .integer(defaultMaxEntityNestingDepth),
                summary: "The deepest nesting of entity references within entity replacement text."),
            SerializerOption(
                "maxNodeCount", .integer(0...Int.max), default: .integer(defaultMaxNodeCount),
                summary: "The most nodes (elements, attributes, text, comments, ...) reported in total."),
            SerializerOption(
                "maxNodesPerByte", .integer(0...Int.max), default: .integer(defaultMaxNodesPerByte),
                summary: "The most nodes reported per body byte (never below 100,000 in total)."),
            SerializerOption(
                "maxOutputBytes", .integer(0...Int.max), default: .integer(defaultMaxOutputBytes),
                summary: "The most bytes of names, values and text reported in total."),
            SerializerOption(
                "maxOutputRatio", .integer(0...Int.max), default: .integer(defaultMaxOutputRatio),
                summary: "The most bytes of names, values and text reported per body byte (never below 4 MiB)."),
        ]
    }

    /// Sets the options a validated configuration names; options it does not name keep their values.
    ///
    /// - Throws: `SerializationError` with code `invalidOption` when a value has the wrong type (configurations
    ///   checked with `SerializerOption.validate(_:against:for:)` against ``optionSchema`` never do).
    public mutating func apply(_ configuration: ConfigurationOptions) throws(SerializationError) {
        if let value = configuration["namespaceAware"] {
            guard case .bool(let flag) = value else { throw Self.invalid("namespaceAware", value, "a boolean") }
            namespaceAware = flag
        }
        for (name, keyPath) in Self.limits {
            guard let value = configuration[name] else { continue }
            switch value {
            case .integer(let number) where number >= 0:
                self[keyPath: keyPath] = number
            case .number(let number) where number >= 0 && number.rounded() == number && number < 1e15:
                self[keyPath: keyPath] = Int(number)
            default:
                throw Self.invalid(name, value, "a non-negative integer")
            }
        }
    }

    /// The parsing options as option keys of a factory's typed `Options`, whose parsing options are at `parsing`:
    /// the names, types, ranges and summaries of ``optionSchema``, defaults read from the factory's default options,
    /// values stored by ``apply(_:)``.
    ///
    /// ```swift
    /// var optionKeys: [OptionKey<Options>] {
    ///     XMLParsingOptions.optionKeys(at: \.parsing) + [.mediaRanges(\.mediaRanges)]
    /// }
    /// ```
    public static func optionKeys<Options: Sendable>(
        at parsing: any WritableKeyPath<Options, XMLParsingOptions> & Sendable
    ) -> [OptionKey<Options>] {
        optionSchema.map { option in
            let name = option.name
            return OptionKey(
                name, option.kind, summary: option.summary,
                defaultValue: { $0[keyPath: parsing].configurationValue(of: name) },
                apply: { value, options, _ throws(SerializationError) in
                    try options[keyPath: parsing].apply([name: value])
                })
        }
    }

    /// The limits of ``optionSchema``, by option name.
    private static let limits: [(String, any WritableKeyPath<XMLParsingOptions, Int> & Sendable)] = [
        ("maxDepth", \.maxDepth),
        ("maxAttributesPerElement", \.maxAttributesPerElement),
        ("maxNameLength", \.maxNameLength),
        ("maxAttributeValueLength", \.maxAttributeValueLength),
        ("maxTextLength", \.maxTextLength),
        ("maxEntityExpansionBytes", \.maxEntityExpansionBytes),
        ("maxEntityExpansionRatio", \.maxEntityExpansionRatio),
        ("maxEntityNestingDepth", \.maxEntityNestingDepth),
        ("maxNodeCount", \.maxNodeCount),
        ("maxNodesPerByte", \.maxNodesPerByte),
        ("maxOutputBytes", \.maxOutputBytes),
        ("maxOutputRatio", \.maxOutputRatio),
    ]

    /// The value of the option `name` of ``optionSchema``: `namespaceAware` or one of the limits.
    private func configurationValue(of name: String) -> ConfigurationValue {
        if let limit = Self.limits.first(where: { $0.0 == name }) { return .integer(self[keyPath: limit.1]) }
        return .bool(namespaceAware)
    }

    private static func invalid(_ name: String, _ value: ConfigurationValue, _ expected: String) -> SerializationError {
        SerializationError(
            code: .invalidOption,
            message: "The XML parsing option '\(name)' must be \(expected), not \(value).",
            codingPath: [name])
    }
}
