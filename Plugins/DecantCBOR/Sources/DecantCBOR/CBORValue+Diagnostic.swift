extension CBORValue: CustomStringConvertible {
    /// The value in diagnostic notation (RFC 8949 §8): `[1, "a", h'01ff', {1: 2}, 0("2013-03-21T20:04:00Z")]`.
    ///
    /// Integers and bignums are written in decimal, floats as Swift writes them (`1.5`, `1e+300`) or as `NaN`,
    /// `Infinity` and `-Infinity`, simple values as `simple(16)`. Indefinite-length items were already joined by the
    /// parser, so they print as definite ones. Written without recursion.
    public var description: String {
        var writer = TextWriter()
        writer.walk(self) { value, writer in
            switch value {
            case .unsignedInteger, .negativeInteger, .bignum:
                writer.output += value.integerText ?? "0"
            case .float(let double):
                if double.isNaN {
                    writer.output += "NaN"
                } else if double.isInfinite {
                    writer.output += double < 0 ? "-Infinity" : "Infinity"
                } else {
                    writer.output += "\(double)"
                }
            case .text(let text):
                writer.writeJSONString(text)
            case .bytes(let data):
                writer.output += "h'"
                for byte in data {
                    let hex = String(byte, radix: 16)
                    writer.output += (hex.count == 1 ? "0" : "") + hex
                }
                writer.output += "'"
            case .bool(let flag):
                writer.output += flag ? "true" : "false"
            case .null:
                writer.output += "null"
            case .undefined:
                writer.output += "undefined"
            case .simple(let number):
                writer.output += "simple(\(number))"
            case .array(let elements):
                writer.open("[", elements, close: "]", separator: ", ")
            case .tag(let number, let content):
                writer.output += "\(number)("
                writer.pending.append(.text(")"))
                writer.pending.append(.value(content))
            case .map(let entries):
                writer.open("{", entries, style: .diagnostic, close: "}")
            }
        }
        return writer.output
    }
}
