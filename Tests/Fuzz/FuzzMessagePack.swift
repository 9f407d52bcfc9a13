// libFuzzer target: the MessagePack parser of the DecantMessagePack plugin. Invariants: no crash or hang on any
// bytes; failures are SerializationErrors with invalidBody, invalidEncoding or limitExceeded and an offset inside the
// input; a decoded value's canonical form is valid JSON (written, it parses back to an equal JSON value); a value
// that parses also parses as a one-element stream and with replaced UTF-8; a tight depth limit fails only with
// limitExceeded naming maxDepth, a tight item limit only with limitExceeded naming maxItems; read (the tape reader)
// accepts exactly what parse accepts, with the same value or the same error (also under the tight item limit).
// fuzz-modules: DecantBytes DecantCompression DecantCore DecantCharset DecantJSON DecantPropertyList DecantXMLParser DecantXMLDocument DecantImage DecantRawHTTP DecantConfiguration DecantConformance DecantValueTree DecantMessagePack
// fuzz-seeds: Fixtures/msgpack
// fuzz-max-len: 16384
import DecantConformance
import DecantCore
import DecantJSON
import FoundationEssentials

/// The libFuzzer entry point: parses with default and tight limits and checks the invariants above.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMessagePack(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(UnsafeBufferPointer(start: data, count: size))
    for options in [
        MessagePackParsingOptions(), MessagePackParsingOptions(replacesInvalidUTF8: true, allowsMultipleValues: true),
        MessagePackParsingOptions(maxItems: 8),
    ] {
        let parser = MessagePackParser(options: options)
        precondition(
            outcome { try parser.parse(bytes).conformanceValue() }
                == outcome { try parser.read(bytes).value.conformanceValue() }, "read and parse disagree")
    }
    let value: MessagePackValue
    do throws(SerializationError) {
        value = try MessagePackParser().parse(bytes)
    } catch {
        precondition([.invalidBody, .invalidEncoding, .limitExceeded].contains(error.code), "code \(error.code)")
        precondition(error.offset.map { $0 >= 0 && $0 <= size } ?? false, "offset \(String(describing: error.offset))")
        return 0
    }
    guard let canonical = try? value.conformanceValue() else { preconditionFailure("no canonical form") }
    let text = canonical.jsonData()
    guard let reparsed = try? JSONParser(options: JSONParsingOptions(maxDepth: 100_000)).parse(text) else {
        preconditionFailure("the canonical form is not JSON: \(String(decoding: text, as: UTF8.self))")
    }
    precondition(reparsed == canonical, "the canonical form does not round-trip through JSON")
    let stream = try? MessagePackParser(options: MessagePackParsingOptions(allowsMultipleValues: true)).parse(bytes)
    // Compared through the canonical form, where NaN equals NaN.
    precondition(
        (try? stream?.conformanceValue()) == .array([canonical]), "a single value is not a one-element stream")
    let replaced = try? MessagePackParser(options: MessagePackParsingOptions(replacesInvalidUTF8: true)).parse(bytes)
    precondition((try? replaced?.conformanceValue()) == canonical, "replacing invalid UTF-8 changes a valid value")
    do throws(SerializationError) {
        _ = try MessagePackParser(options: MessagePackParsingOptions(maxDepth: 2)).parse(bytes)
    } catch {
        precondition(error.code == .limitExceeded && error.message.contains("maxDepth"), "depth limit: \(error)")
    }
    do throws(SerializationError) {
        _ = try MessagePackParser(options: MessagePackParsingOptions(maxItems: 8)).parse(bytes)
    } catch {
        precondition(error.code == .limitExceeded && error.message.contains("maxItems"), "item limit: \(error)")
    }
    return 0
}

/// The canonical form a parse makes, or its error's code and offset.
private func outcome(_ parse: () throws -> JSONValue) -> String {
    do {
        return try parse().description
    } catch let error as SerializationError {
        return "\(error.code) at \(error.offset.map(String.init) ?? "-")"
    } catch {
        return "\(error)"
    }
}
