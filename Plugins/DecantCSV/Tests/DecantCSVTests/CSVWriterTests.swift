import Decant
import DecantCSV
import DecantConformance
import Foundation
import Testing

/// Python's `csv` module through `writer_reference.py` (beside the plugin's Tests folder): it reads what Decant
/// writes, and writes the same rows for comparison.
enum CSVReference {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("writer_reference.py")

    /// Runs `mode` over `cases` (each a JSON object) in one Python process.
    static func run(_ mode: String, _ cases: [[String: Any]]) throws -> [Any] {
        let input = try JSONSerialization.data(withJSONObject: cases)
        let output = try PythonReference.run(script: script, [mode], body: input)
        return try #require(try JSONSerialization.jsonObject(with: output) as? [Any])
    }

    /// The records Python reads from each body (blank lines dropped), in order.
    static func read(_ bodies: [Data], tsv: Bool = false, encoding: String = "utf-8") throws -> [[[String]]] {
        let cases = bodies.map {
            ["body": $0.base64EncodedString(), "tsv": tsv, "encoding": encoding] as [String: Any]
        }
        return try run("read", cases).map { try #require($0 as? [[String]]) }
    }

    /// The text `csv.writer` writes for each list of rows.
    static func write(_ tables: [[[String]]]) throws -> [String] {
        try run("write", tables.map { ["rows": $0] }).map { try #require($0 as? String) }
    }

    /// The records of `table` as Python reads them: the header first.
    static func records(_ table: CSVTable) -> [[String]] {
        (table.header.map { [$0] } ?? []) + table.rows.map { Array($0) }
    }
}

@Suite struct CSVWriterTests {
    static let csv = MediaType(type: "text", subtype: "csv")
    static let tsv = MediaType(type: "text", subtype: "tab-separated-values")

    /// Hand cases: quotes, line ends, empty fields, non-ASCII, spaces, ragged rows, a lone empty field.
    static let handTables: [CSVTable] = [
        CSVTable(header: ["name", "age"], rows: [["Ada", "36"], ["Grace", "85"]]),
        CSVTable(header: ["q"], rows: [["say \"hi\""], ["\""], ["\"\""], ["a\"b"], ["\"start"]]),
        CSVTable(header: ["a", "b"], rows: [["line1\nline2", "x\r\ny"], ["cr\ronly", "\n"], ["\r\n", "\r"]]),
        CSVTable(header: ["a", "b", "c"], rows: [["", "", ""], ["", "x", ""], ["x", "", ""]]),
        CSVTable(header: ["only"], rows: [[""], ["x"], [""]]),
        CSVTable(header: ["ville", "pays"], rows: [["Zürich", "Suisse"], ["東京", "日本"], ["🇫🇷 Paris", "e\u{301}"]]),
        CSVTable(header: [" lead", "trail "], rows: [[" a", "b "], ["  ", "\t"], ["\ttab", "x\t"]]),
        CSVTable(header: ["a", "b", "c"], rows: [["1"], ["1", "2", "3", "4"], ["1", "2"]]),
        CSVTable(header: nil, rows: [["1", "2"], ["3", "4"]]),
        CSVTable(header: nil, rows: []),
        CSVTable(header: ["h1", "h2"], rows: []),
        CSVTable(header: ["a,b", "c;d"], rows: [["x,y", ",", ",,"]]),
        CSVTable(header: ["\u{FEFF}bom"], rows: [["\u{FEFF}"], ["x\u{FEFF}"]]),
        CSVTable(header: nil, rows: [["\u{FEFF}", "x"]]),
        CSVTable(header: ["nul"], rows: [["a\u{0}b"], ["\u{7F}"]]),
    ]

    @Test(.enabled(if: PythonReference.isAvailable)) func pythonReadsHandTablesBack() throws {
        let bodies = try Self.handTables.map { try CSVWriter().write($0) }
        let read = try CSVReference.read(bodies)
        for (table, records) in zip(Self.handTables, read) {
            #expect(records == CSVReference.records(table), "\(CSVReference.records(table))")
        }
    }

    @Test(arguments: handTables) func decantReadsHandTablesBack(table: CSVTable) throws {
        let writer = CSVWriter()
        let body = try writer.write(table, as: Self.csv)
        let contentType = try writer.contentType(for: table, as: Self.csv)
        #expect(try CSVParser().parse(body, mediaType: contentType) == table)
        // LF line ends read back the same.
        let lf = CSVWriter(options: CSVWritingOptions(lineEnd: .lf))
        #expect(try CSVParser().parse(lf.write(table, as: Self.csv), mediaType: contentType) == table)
    }

    /// Where Python's `csv.writer` (QUOTE_MINIMAL) and Decant agree on quoting (no field with a space or tab at an
    /// end, or a leading U+FEFF, which Decant also quotes), the bytes are the same.
    @Test(.enabled(if: PythonReference.isAvailable)) func bytesEqualPythonsWriterWhereQuotingAgrees() throws {
        let tables = Self.handTables.filter { table in
            !CSVReference.records(table).joined().contains { field in
                field.first == " " || field.last == " " || field.first == "\t" || field.last == "\t"
                    || field.first == "\u{FEFF}"
            }
        }
        #expect(tables.count == 12)
        let python = try CSVReference.write(tables.map(CSVReference.records))
        for (table, expected) in zip(tables, python) {
            #expect(String(decoding: try CSVWriter().write(table), as: UTF8.self) == expected)
        }
    }

    @Test func quotingRules() throws {
        func text(_ rows: [[String]]) throws -> String {
            String(decoding: try CSVWriter().write(CSVTable(header: nil, rows: rows)), as: UTF8.self)
        }
        #expect(try text([["a", "b"]]) == "a,b\r\n")
        #expect(try text([[""]]) == "\"\"\r\n")
        #expect(try text([["", ""]]) == ",\r\n")
        #expect(try text([[" x", "y "]]) == "\" x\",\"y \"\r\n")
        #expect(try text([["say \"hi\""]]) == "\"say \"\"hi\"\"\"\r\n")
        #expect(try text([["\u{FEFF}a", "\u{FEFF}b"]]) == "\"\u{FEFF}a\",\u{FEFF}b\r\n")
        let semicolons = CSVWriter(options: CSVWritingOptions(delimiter: UInt8(ascii: ";")))
        let body = try semicolons.write(CSVTable(header: nil, rows: [["a;b", "c,d"]]))
        #expect(String(decoding: body, as: UTF8.self) == "\"a;b\";c,d\r\n")
    }

    @Test func rowsWithoutFieldsCannotBeWritten() {
        for table in [CSVTable(header: ["a"], rows: [["1"], []]), CSVTable(header: [], rows: [["1"]])] {
            let error = #expect(throws: SerializationError.self) { try CSVWriter().write(table) }
            #expect(error?.code == .encodingFailed)
            #expect(error?.message.contains("no fields") == true)
        }
    }

    // MARK: Seeded tables

    /// Seeded tables: fields from an alphabet weighted towards what needs quoting, ragged rows, with and without a
    /// header.
    static func seededTables(count: Int, seed: UInt64, tsvSafe: Bool = false) -> [CSVTable] {
        var generator = SplitMix64(seed: seed)
        let special: [String] =
            tsvSafe
            ? ["\"", " ", ",", ";", "é", "東", "😀", "'", "\\", "e\u{301}"]
            : [",", "\"", "\r", "\n", "\r\n", " ", "\t", "é", "東", "😀", "\u{FEFF}", "\"\""]
        func field() -> String {
            var text = ""
            for _ in 0..<Int(generator.next() % 7) {
                let pick = generator.next() % 10
                if pick < 4 {
                    text += special[Int(generator.next() % UInt64(special.count))]
                } else {
                    text += String(UnicodeScalar(UInt8(0x61 + generator.next() % 26)))
                }
            }
            return text
        }
        return (0..<count).map { _ in
            let columns = 1 + Int(generator.next() % 5)
            let hasHeader = generator.next() % 4 != 0
            let rows = (0..<Int(generator.next() % 8)).map { _ in
                let width = generator.next() % 5 == 0 ? 1 + Int(generator.next() % 6) : columns
                var row = (0..<width).map { _ in field() }
                // A lone empty field cannot be written as TSV.
                if tsvSafe && row == [""] { row = ["x"] }
                return row
            }
            var header = hasHeader ? (0..<columns).map { _ in field() } : nil
            if tsvSafe, header == [""] { header = ["h"] }
            return CSVTable(header: header, rows: rows)
        }
    }

    @Test(.enabled(if: PythonReference.isAvailable)) func pythonReadsSeededTablesBack() throws {
        let tables = Self.seededTables(count: 400, seed: 0xC5F_2026)
        let bodies = try tables.map { try CSVWriter().write($0) }
        let read = try CSVReference.read(bodies)
        #expect(read.count == 400)
        var mismatches = 0
        for (table, records) in zip(tables, read) where records != CSVReference.records(table) {
            mismatches += 1
            if mismatches <= 3 { Issue.record("Python read \(records), the table is \(CSVReference.records(table))") }
        }
        #expect(mismatches == 0)
    }

    @Test func decantReadsSeededTablesBack() throws {
        for table in Self.seededTables(count: 400, seed: 0xC5F_2026) {
            let writer = CSVWriter()
            let body = try writer.write(table, as: Self.csv)
            let read = try CSVParser().parse(body, mediaType: try writer.contentType(for: table, as: Self.csv))
            #expect(read == table, "\(CSVReference.records(table))")
        }
    }

    // MARK: TSV

    @Test(.enabled(if: PythonReference.isAvailable)) func tsvIsReadBackByPythonAndDecant() throws {
        let tables =
            Self.seededTables(count: 200, seed: 0x75F, tsvSafe: true) + [
                CSVTable(
                    header: ["name", "note"], rows: [["Ada", "\"quoted\" stays"], ["Bob", "a,b"], [" x ", ""]])
            ]
        let writer = CSVWriter()
        let bodies = try tables.map { try writer.write($0, as: Self.tsv) }
        let python = try CSVReference.read(bodies, tsv: true)
        for ((table, body), records) in zip(zip(tables, bodies), python) {
            #expect(records == CSVReference.records(table))
            let contentType = try writer.contentType(for: table, as: Self.tsv)
            #expect(try CSVParser().parse(body, mediaType: contentType) == table)
        }
        let body = try writer.write(tables.last!, as: Self.tsv)
        #expect(String(decoding: body, as: UTF8.self) == "name\tnote\r\nAda\t\"quoted\" stays\r\nBob\ta,b\r\n x \t\r\n")
    }

    @Test(arguments: [
        (CSVTable(header: ["a", "b"], rows: [["1", "x\ty"]]), "row 1, column 2", ["0", "1"], "tab"),
        (CSVTable(header: ["a", "b\nc"], rows: []), "the header, column 2", ["header", "1"], "line end"),
        (CSVTable(header: ["a"], rows: [["1"], ["2\r"]]), "row 2, column 1", ["1", "0"], "line end"),
        (CSVTable(header: ["a"], rows: [["1"], [""]]), "row 2, column 1", ["1", "0"], "empty"),
        (CSVTable(header: ["\u{FEFF}a"], rows: []), "the header, column 1", ["header", "0"], "byte order mark"),
    ])
    func tsvFieldsThatCannotBeWrittenNameRowAndColumn(
        table: CSVTable, location: String, path: [String], reason: String
    ) {
        let error = #expect(throws: SerializationError.self) { try CSVWriter().write(table, as: Self.tsv) }
        #expect(error?.code == .encodingFailed)
        #expect(error?.message.contains(location) == true, "\(error?.message ?? "")")
        #expect(error?.message.contains(reason) == true, "\(error?.message ?? "")")
        #expect(error?.codingPath == path)
    }

    // MARK: Media type parameters

    @Test func contentTypeCarriesCharsetAndHeader() throws {
        let writer = CSVWriter()
        let withHeader = CSVTable(header: ["a"], rows: [["1"]])
        let withoutHeader = CSVTable(header: nil, rows: [["1"]])
        #expect(
            try writer.contentType(for: withHeader, as: Self.csv).description == "text/csv;charset=utf-8;header=present"
        )
        #expect(
            try writer.contentType(for: withoutHeader, as: Self.tsv).description
                == "text/tab-separated-values;charset=utf-8;header=absent")
        let latin = try MediaType(parsing: "text/csv; charset=ISO-8859-1; foo=bar")
        #expect(
            try writer.contentType(for: withHeader, as: latin).description
                == "text/csv;charset=windows-1252;header=present")
    }

    @Test func headerAbsentLeavesTheHeaderOut() throws {
        let table = CSVTable(header: ["a", "b"], rows: [["1", "2"]])
        let absent = try MediaType(parsing: "text/csv; header=absent")
        let body = try CSVWriter().write(table, as: absent)
        #expect(String(decoding: body, as: UTF8.self) == "1,2\r\n")
        let contentType = try CSVWriter().contentType(for: table, as: absent)
        #expect(contentType.parameters["header"] == "absent")
        #expect(try CSVParser().parse(body, mediaType: contentType) == CSVTable(header: nil, rows: [["1", "2"]]))
    }

    @Test func headerPresentNeedsAHeader() {
        let present = MediaType(type: "text", subtype: "csv").settingParameter("header", to: "present")
        let error = #expect(throws: SerializationError.self) {
            try CSVWriter().write(CSVTable(header: nil, rows: [["1"]]), as: present)
        }
        #expect(error?.code == .encodingFailed)
    }

    /// Other charsets: Python decodes the body with the same codec and reads the table back.
    @Test(
        .enabled(if: PythonReference.isAvailable),
        arguments: [
            ("windows-1252", "cp1252"), ("shift_jis", "shift_jis"), ("utf-16le", "utf-16-le"), ("gbk", "gbk"),
        ])
    func otherCharsetsAreReadBack(charset: String, codec: String) throws {
        let table = CSVTable(
            header: ["ville", "note"],
            rows: charset == "windows-1252"
                ? [["Zürich", "ça, \"va\""], ["São Paulo", "€5"]] : [["東京", "日本, \"語\""], ["ab", "c\r\nd"]])
        let mediaType = Self.csv.settingParameter("charset", to: charset)
        let body = try CSVWriter().write(table, as: mediaType)
        #expect(try CSVReference.read([body], encoding: codec) == [CSVReference.records(table)])
        let contentType = try CSVWriter().contentType(for: table, as: mediaType)
        #expect(contentType.charset == charset)
        #expect(try CSVParser().parse(body, mediaType: contentType) == table)
    }

    @Test func charsetErrors() {
        let table = CSVTable(header: ["a"], rows: [["→"]])
        let latin = Self.csv.settingParameter("charset", to: "windows-1252")
        let unencodable = #expect(throws: SerializationError.self) { try CSVWriter().write(table, as: latin) }
        #expect(unencodable?.code == .encodingFailed)
        for label in ["no-such-charset", "iso-2022-kr"] {
            let unknown = #expect(throws: SerializationError.self) {
                try CSVWriter().write(table, as: Self.csv.settingParameter("charset", to: label))
            }
            #expect(unknown?.code == .invalidEncoding)
        }
    }

    // MARK: csv-spectrum

    @Test(.enabled(if: CSVCorpusTests.corpora.isAvailable, "needs ../shared/corpora"))
    func csvSpectrumRoundTrips() throws {
        let root = try #require(CSVCorpusTests.corpora.url("csv/csv-spectrum/csvs"))
        let names = try FileManager.default.contentsOfDirectory(atPath: root.path).filter { $0.hasSuffix(".csv") }
        #expect(names.count == 12)
        var tables: [CSVTable] = []
        for name in names.sorted() {
            let table = try CSVParser().parse(Data(contentsOf: root.appendingPathComponent(name)), mediaType: Self.csv)
            let writer = CSVWriter()
            let body = try writer.write(table, as: Self.csv)
            #expect(
                try CSVParser().parse(body, mediaType: writer.contentType(for: table, as: Self.csv)) == table, "\(name)"
            )
            tables.append(table)
        }
        if PythonReference.isAvailable {
            let read = try CSVReference.read(try tables.map { try CSVWriter().write($0) })
            #expect(read == tables.map(CSVReference.records))
        }
    }
}

@Suite struct CSVBodyEncoderTests {
    static let registry = SerializerRegistry.standard.installing(.csv)

    @Test func registryWritesAndReadsBackATable() throws {
        let table = CSVTable(header: ["name", "note"], rows: [["Ada", "a,b"], ["Grace", "\"q\""]])
        let body = try Self.registry.encode(table, as: "text/csv")
        #expect(body.serializerID == MediaFormat.csv.id)
        #expect(body.contentType.description == "text/csv;charset=utf-8;header=present")
        #expect(try Self.registry.serialize(body.response(), as: CSVTable.self) == table)
        let tsv = try Self.registry.encode(
            table, accepting: AcceptHeader(parsing: "text/tab-separated-values, */*;q=0.1"))
        #expect(tsv.contentType.essence == "text/tab-separated-values")
        #expect(try Self.registry.serialize(tsv.response(), as: CSVTable.self) == table)
    }

    @Test func aTableNegotiatesToCSVAndOtherValuesAreNotCSV() throws {
        let table = CSVTable(header: ["a"], rows: [["1"]])
        #expect(try Self.registry.encode(table, accepting: nil).contentType.essence == "text/csv")
        let encoder = CSVBodyEncoder()
        #expect(encoder.canEncode(table) && encoder.writesAsOwnType(table))
        #expect(!encoder.canEncode("text") && !encoder.canEncode(3) && encoder.canEncode([["a": "b"]]))
        let error = #expect(throws: SerializationError.self) {
            try encoder.encode("text", as: MediaType(type: "text", subtype: "csv"), options: EncodingOptions())
        }
        #expect(error?.code == .unsupportedValue)
    }

    @Test func theFactorysDelimiterWritesWhatItReads() throws {
        let options = CSVParsingOptions(delimiter: UInt8(ascii: ";"))
        let encoder = try #require(CSVSerializerFactory().makeEncoder(options: options))
        let table = CSVTable(header: ["a", "b"], rows: [["1;2", "3,4"]])
        let body = try encoder.encode(table, as: MediaType(type: "text", subtype: "csv"), options: EncodingOptions())
        #expect(String(decoding: body.body, as: UTF8.self) == "a;b\r\n\"1;2\";3,4\r\n")
        #expect(try CSVParser(options: options).parse(body.body, mediaType: body.contentType) == table)
    }

    @Test(arguments: CSVWriterTests.handTables) func canonicalFormIsInverted(table: CSVTable) throws {
        #expect(try CSVTable(conformanceValue: table.conformanceValue()) == table)
    }

    @Test(arguments: [
        #"{"header": null}"#, #"{"header": null, "rows": [[1]]}"#, #"{"header": "a", "rows": []}"#,
        #"{"header": null, "rows": [], "x": 1}"#, #"[]"#, #"{"header": null, "rows": ["a"]}"#,
    ])
    func notACanonicalForm(json: String) throws {
        let value = try JSONParser().parse(Data(json.utf8))
        let error = #expect(throws: SerializationError.self) { try CSVTable(conformanceValue: value) }
        #expect(error?.code == .unsupportedValue)
    }
}
