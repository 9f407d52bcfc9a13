import Foundation
import Testing

@testable import DecantCore

/// Typed option keys: one declaration per option gives the schema (with defaults from the default options), the
/// validation and the reading of configuration options.
@Suite struct OptionKeyTests {
    struct Options: Sendable, Equatable {
        enum Mode: String, Sendable, CaseIterable { case fast, careful }
        var omitsEmpty = true
        var maxLines = 100
        var ratio = 0.5
        var mode = Mode.careful
        var ranges: [MediaRange] = ["text/x-lines"]
    }

    struct LinesFactory: SerializerFactory {
        var format: MediaFormat {
            MediaFormat(id: "acme.lines", mediaRanges: ["text/x-lines"], summary: "Lines (tests).")
        }
        var defaults = Options()
        var defaultOptions: Options { defaults }
        var optionKeys: [OptionKey<Options>] {
            [
                .bool("omitsEmpty", \.omitsEmpty, summary: "Drops empty lines."),
                .integer("maxLines", \.maxLines, in: 1...1000, summary: "The most lines."),
                .number("ratio", \.ratio, in: 0...1, summary: "A ratio."),
                .choice("mode", \.mode, summary: "How."),
                .mediaRanges(\.ranges, example: "text/x-lines"),
            ]
        }
        func makeSerializer(options: Options) -> DataResponseSerializer { DataResponseSerializer() }
    }

    @Test func theSchemaIsDerivedWithDefaultsFromTheDefaultOptions() {
        var factory = LinesFactory()
        factory.defaults.maxLines = 7
        let schema = factory.optionSchema
        #expect(schema.map(\.name) == ["omitsEmpty", "maxLines", "ratio", "mode", "mediaRanges"])
        #expect(schema[0].defaultValue == .bool(true))
        #expect(schema[1].defaultValue == .integer(7))
        #expect(schema[1].kind == .integer(1...1000))
        #expect(schema[2].defaultValue == .number(0.5))
        #expect(schema[3].kind == .string(allowed: ["fast", "careful"]))
        #expect(schema[3].defaultValue == .string("careful"))
        #expect(schema[4].defaultValue == .array([.string("text/x-lines")]))
    }

    @Test func configurationOptionsAreReadIntoTheTypedOptions() throws {
        let options = try LinesFactory().options(from: [
            "omitsEmpty": false, "maxLines": .number(12), "ratio": 1, "mode": "fast",
            "mediaRanges": .array(["text/plain", "text/x-other"]),
        ])
        #expect(options.omitsEmpty == false)
        #expect(options.maxLines == 12)
        #expect(options.ratio == 1)
        #expect(options.mode == .fast)
        #expect(options.ranges == ["text/plain", "text/x-other"])
    }

    @Test func absentOptionsKeepTheirDefaults() throws {
        var factory = LinesFactory()
        factory.defaults.maxLines = 3
        #expect(try factory.options(from: [:]) == factory.defaults)
    }

    @Test(arguments: [
        ("maxLines", ConfigurationValue.integer(0), SerializationError.Code.invalidOption),
        ("maxLines", .string("many"), .invalidOption),
        ("ratio", .number(2), .invalidOption),
        ("mode", .string("slow"), .invalidOption),
        ("omitEmpty", .bool(true), .unknownOption),
        ("mediaRanges", .array([]), .invalidOption),
    ])
    func badValuesAreRejectedWithTheOptionName(name: String, value: ConfigurationValue, code: SerializationError.Code) {
        let error = #expect(throws: SerializationError.self) {
            try LinesFactory().makeSerializer(configuration: [name: value])
        }
        #expect(error?.code == code)
        #expect(error?.codingPath == [name])
        #expect(error?.serializerID == "acme.lines")
    }

    /// Options whose meaning when absent depends on something else: no fixed default.
    struct Dependent: Sendable, Equatable {
        var quotes: Bool?
        var separator: String?
    }

    struct DependentFactory: SerializerFactory {
        var format: MediaFormat {
            MediaFormat(id: "acme.dependent", mediaRanges: ["text/x-lines"], summary: "Dependent options (tests).")
        }
        var defaults = Dependent()
        var defaultOptions: Dependent { defaults }
        var optionKeys: [OptionKey<Dependent>] {
            [
                .bool("quotes", \.quotes, summary: "Quotes (default: by media type)."),
                OptionKey(
                    "separator", .string(allowed: nil), summary: "Separator (default: by media type).",
                    defaultValue: { $0.separator.map { .string($0) } }
                ) { value, options, _ in
                    if case .string(let text) = value { options.separator = text }
                },
            ]
        }
        func makeSerializer(options: Dependent) -> DataResponseSerializer { DataResponseSerializer() }
    }

    @Test func anOptionalPropertyThatIsNilHasNoFixedDefault() throws {
        #expect(DependentFactory().optionSchema.map(\.defaultValue) == [nil, nil])
        var factory = DependentFactory()
        factory.defaults = Dependent(quotes: false, separator: ";")
        #expect(factory.optionSchema.map(\.defaultValue) == [.bool(false), .string(";")])
        let options = try DependentFactory().options(from: ["quotes": true, "separator": "|"])
        #expect(options == Dependent(quotes: true, separator: "|"))
        #expect(try DependentFactory().options(from: [:]) == Dependent())
    }
}
