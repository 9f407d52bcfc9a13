import DecantCSV
import DecantCore
import Testing

/// The CSV factory's options, said once as option keys: schema, reading and errors.
@Suite struct CSVFactoryTests {
    @Test func theSchemaHasNoFixedDefaultWhereTheMediaTypeDecides() {
        let schema = CSVSerializerFactory().optionSchema
        #expect(
            schema.map(\.name) == [
                "delimiter", "header", "quotes", "trimsWhitespace", "maxFieldBytes", "maxFieldsPerRecord", "maxRecords",
                "maxFields",
            ])
        let defaults = Dictionary(uniqueKeysWithValues: schema.map { ($0.name, $0.defaultValue) })
        #expect(defaults["delimiter"] == .some(nil))
        #expect(defaults["quotes"] == .some(nil))
        #expect(defaults["header"] == .string("fromMediaType"))
        #expect(defaults["maxRecords"] == .integer(CSVParsingOptions().maxRecords))
        #expect(defaults["maxFields"] == .integer(10_000_000))
    }

    @Test func configuredOptionsReachTheParser() throws {
        let options = try CSVSerializerFactory().options(from: [
            "delimiter": ";", "header": "absent", "quotes": false, "trimsWhitespace": true, "maxRecords": .number(100),
            "maxFields": 7,
        ])
        #expect(options.delimiter == UInt8(ascii: ";"))
        #expect(options.header == .absent)
        #expect(options.recognizesQuotes == false)
        #expect(options.trimsWhitespace)
        #expect(options.maxRecords == 100, "a whole number written as a decimal is the integer")
        #expect(options.maxFields == 7)
    }

    @Test(arguments: ["", ";;", "\"", "\n", "é"])
    func aDelimiterThatIsNotOneASCIICharacterIsRejected(text: String) {
        let error = #expect(throws: SerializationError.self) {
            try CSVSerializerFactory().makeSerializer(configuration: ["delimiter": .string(text)])
        }
        #expect(error?.code == .invalidOption)
        #expect(error?.codingPath == ["delimiter"])
        #expect(error?.serializerID == "csv")
        #expect(error?.message.contains("one ASCII character") == true)
    }
}
