/// One configuration option of a factory, said once: its name, summary, type and range, and the property of the
/// factory's typed options it sets. The option's default is read from that property of
/// ``SerializerFactory/defaultOptions``.
///
/// A factory that lists its keys in ``SerializerFactory/optionKeys`` gets the rest derived from them: its
/// ``SerializerFactory/optionSchema`` (shown by `decant registry`, checked by `decant config check`) and the
/// conversion of configuration options into typed options (``SerializerFactory/options(from:)``).
///
/// ```swift
/// struct LinesOptions: Sendable { var omitsEmpty = true; var maxLines = 10_000 }
///
/// var optionKeys: [OptionKey<LinesOptions>] {
///     [
///         .bool("omitsEmpty", \.omitsEmpty, summary: "Drops empty lines."),
///         .integer("maxLines", \.maxLines, in: 1...1_000_000, summary: "The most lines a body may have."),
///     ]
/// }
/// ```
public struct OptionKey<Options: Sendable>: Sendable {
    /// The option's name in configuration documents.
    public let name: String
    /// The value's type and range.
    public let kind: SerializerOption.Kind
    /// One sentence on what the option does.
    public let summary: String
    /// The default, read from the factory's default options; `nil` when the option has no fixed default.
    let defaultValue: @Sendable (Options) -> ConfigurationValue?
    /// Stores a value (already checked against ``kind``) into typed options.
    let apply: @Sendable (ConfigurationValue, inout Options, SerializerID) throws(SerializationError) -> Void

    /// A key from its parts: for values the typed constructors do not cover.
    ///
    /// - Parameters:
    ///   - name: The option's name.
    ///   - kind: The value's type and range; configuration values are checked against it before `apply` runs.
    ///   - summary: One sentence on what the option does.
    ///   - defaultValue: The default as a configuration value, from the default options; `nil` when there is no fixed
    ///     default (what the option means when absent depends on other options or on the response: say so in
    ///     `summary`).
    ///   - apply: Stores a checked value; throw ``SerializationError/Code/invalidOption`` (with the option name in
    ///     ``SerializationError/codingPath``) for a value of the right type that is still wrong.
    public init(
        _ name: String, _ kind: SerializerOption.Kind, summary: String,
        defaultValue: @escaping @Sendable (Options) -> ConfigurationValue?,
        apply: @escaping @Sendable (ConfigurationValue, inout Options, SerializerID) throws(SerializationError) -> Void
    ) {
        self.name = name
        self.kind = kind
        self.summary = summary
        self.defaultValue = defaultValue
        self.apply = apply
    }

    /// The option's declaration with its default taken from `defaults`.
    public func schema(defaults: Options) -> SerializerOption {
        SerializerOption(name, kind, default: defaultValue(defaults), summary: summary)
    }

    /// A boolean option stored at `keyPath`.
    public static func bool(
        _ name: String, _ keyPath: any WritableKeyPath<Options, Bool> & Sendable, summary: String
    ) -> OptionKey {
        OptionKey(name, .bool, summary: summary, defaultValue: { .bool($0[keyPath: keyPath]) }) { value, options, _ in
            if case .bool(let flag) = value { options[keyPath: keyPath] = flag }
        }
    }

    /// A boolean option stored at an optional `keyPath`: when the default options hold `nil`, the option has no
    /// fixed default (the serializer decides, for example by media type); a configured value replaces `nil`.
    public static func bool(
        _ name: String, _ keyPath: any WritableKeyPath<Options, Bool?> & Sendable, summary: String
    ) -> OptionKey {
        OptionKey(name, .bool, summary: summary, defaultValue: { $0[keyPath: keyPath].map { .bool($0) } }) {
            value, options, _ in
            if case .bool(let flag) = value { options[keyPath: keyPath] = flag }
        }
    }

    /// An integer option stored at `keyPath`, within `range` when one is given (a whole number such as `5.0` is
    /// accepted as the integer 5).
    public static func integer(
        _ name: String, _ keyPath: any WritableKeyPath<Options, Int> & Sendable, in range: ClosedRange<Int>? = nil,
        summary: String
    ) -> OptionKey {
        OptionKey(name, .integer(range), summary: summary, defaultValue: { .integer($0[keyPath: keyPath]) }) {
            value, options, _ in
            switch value {
            case .integer(let number): options[keyPath: keyPath] = number
            case .number(let number): if let whole = Int(exactly: number) { options[keyPath: keyPath] = whole }
            default: break
            }
        }
    }

    /// A number option stored at `keyPath`, within `range` when one is given (integers are accepted too).
    public static func number(
        _ name: String, _ keyPath: any WritableKeyPath<Options, Double> & Sendable,
        in range: ClosedRange<Double>? = nil, summary: String
    ) -> OptionKey {
        OptionKey(name, .number(range), summary: summary, defaultValue: { .number($0[keyPath: keyPath]) }) {
            value, options, _ in
            switch value {
            case .integer(let number): options[keyPath: keyPath] = Double(number)
            case .number(let number): options[keyPath: keyPath] = number
            default: break
            }
        }
    }

    /// An option naming one case of `Choice` by its raw value, stored at `keyPath`.
    public static func choice<Choice: RawRepresentable & CaseIterable & Sendable>(
        _ name: String, _ keyPath: any WritableKeyPath<Options, Choice> & Sendable, summary: String
    ) -> OptionKey where Choice.RawValue == String {
        OptionKey(
            name, .string(allowed: Choice.allCases.map(\.rawValue)), summary: summary,
            defaultValue: { .string($0[keyPath: keyPath].rawValue) }
        ) { value, options, _ in
            if case .string(let text) = value, let choice = Choice(rawValue: text) {
                options[keyPath: keyPath] = choice
            }
        }
    }

    /// The `mediaRanges` option: the ranges the serializer accepts, stored at `keyPath`. An empty list is an
    /// ``SerializationError/Code/invalidOption`` error whose message suggests `example` (by default the first of the
    /// default ranges).
    public static func mediaRanges(
        _ keyPath: any WritableKeyPath<Options, [MediaRange]> & Sendable, example: String? = nil
    ) -> OptionKey {
        OptionKey(
            "mediaRanges", .mediaRangeArray, summary: "The media ranges the serializer accepts.",
            defaultValue: { .array($0[keyPath: keyPath].map { .string($0.description) }) }
        ) { value, options, id throws(SerializationError) in
            let configuration: ConfigurationOptions = ["mediaRanges": value]
            let example = example ?? options[keyPath: keyPath].first?.description ?? "text/plain"
            if let ranges = try configuration.mediaRangesOption(for: id, example: example) {
                options[keyPath: keyPath] = ranges
            }
        }
    }
}

extension SerializerFactory {
    /// No keys: a factory that lists none declares ``optionSchema`` and ``options(from:)`` itself (or takes no
    /// options).
    public var optionKeys: [OptionKey<Options>] { [] }

    /// The schema derived from ``optionKeys``, defaults read from ``defaultOptions``.
    public var optionSchema: [SerializerOption] { optionKeys.map { $0.schema(defaults: defaultOptions) } }

    /// ``defaultOptions`` with every option of `configuration` (already checked against ``optionSchema``) stored by
    /// its key.
    public func options(from configuration: ConfigurationOptions) throws -> Options {
        var options = defaultOptions
        for key in optionKeys {
            guard let value = configuration[key.name] else { continue }
            try key.apply(value, &options, id)
        }
        return options
    }
}
