// libFuzzer target: the CBOR parser of the DecantCBOR plugin (RFC 8949, RFC 8742 sequences). Invariants: no crash or
// hang on any bytes; an error carries an offset inside the input; a body that parses as one item parses as a sequence
// of exactly that item; a decoded value's canonical form is valid JSON that JSONParser reads, and its diagnostic
// notation prints; the lastWins duplicate-key policy accepts whatever the default accepts, with the same canonical
// form; a tight depth limit only ever fails with limitExceeded; read (the tape reader) accepts exactly what parse
// accepts, with the same value or the same error code and offset, under both duplicate-key policies.
// fuzz-modules: DecantBytes DecantCompression DecantCore DecantCharset DecantJSON DecantPropertyList DecantXMLParser DecantXMLDocument DecantImage DecantRawHTTP DecantConfiguration DecantConformance DecantValueTree DecantCBOR
// fuzz-seeds: Fixtures/cbor
// fuzz-max-len: 16384
import DecantConformance
import DecantCore
import DecantJSON
import FoundationEssentials

/// The libFuzzer entry point: parses with default, lastWins and tight options and checks the invariants above.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCBOR(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(UnsafeBufferPointer(start: data, count: size))
    for policy in CBORParsingOptions.DuplicateKeyPolicy.allCases {
        let parser = CBORParser(options: CBORParsingOptions(duplicateKeys: policy))
        precondition(
            outcome { try parser.parse(bytes).canonicalJSONText }
                == outcome { try parser.read(bytes).value.canonicalJSONText }, "read and parse disagree")
        precondition(
            outcome { try parser.parseSequence(bytes).map(\.canonicalJSONText) }
                == outcome { try parser.readSequence(bytes).map(\.value.canonicalJSONText) },
            "readSequence and parseSequence disagree")
    }
    let sequence = try? CBORParser().parseSequence(bytes)
    if let items = sequence {
        check(.array(items))
    }
    let value: CBORValue
    do throws(SerializationError) {
        value = try CBORParser().parse(bytes)
    } catch {
        precondition(
            error.offset.map { (0...size).contains($0) } ?? false, "offset \(String(describing: error.offset))")
        precondition(
            error.code == .invalidBody || error.code == .limitExceeded, "unexpected code \(error.code): \(error)")
        return 0
    }
    precondition(sequence?.count == 1, "one item parses as a sequence of \(sequence?.count ?? -1)")
    let text = check(value)
    guard let lastWins = try? CBORParser(options: CBORParsingOptions(duplicateKeys: .lastWins)).parse(bytes) else {
        preconditionFailure("lastWins rejects what the default accepts")
    }
    precondition(lastWins.canonicalJSONText == text, "lastWins changes a value without duplicates")
    do throws(SerializationError) {
        let shallow = try CBORParser(options: CBORParsingOptions(maxDepth: 4)).parse(bytes)
        precondition(shallow.canonicalJSONText == text, "a tight depth limit changes the value")
    } catch {
        precondition(error.code == .limitExceeded, "a tight depth limit fails with \(error.code)")
    }
    return 0
}

/// Checks that the canonical form is valid JSON and the diagnostic notation prints; returns the canonical text.
@discardableResult
private func check(_ value: CBORValue) -> String {
    let text = value.canonicalJSONText
    guard (try? JSONParser(options: JSONParsingOptions(maxDepth: 100_000)).parse(text)) != nil else {
        preconditionFailure("the canonical form is not valid JSON: \(text)")
    }
    precondition((try? value.conformanceValue()) != nil, "no canonical form")
    _ = value.description
    return text
}

/// The value a parse makes, or its error's code and offset.
private func outcome<Value>(_ parse: () throws -> Value) -> String {
    do {
        return "\(try parse())"
    } catch let error as SerializationError {
        return "\(error.code) at \(error.offset.map(String.init) ?? "-")"
    } catch {
        return "\(error)"
    }
}
