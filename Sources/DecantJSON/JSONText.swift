import DecantCore

/// Writing JSON text by hand, for a canonical form or a tool's output: the one escaping rule Decant's own writer and
/// canonical forms use (RFC 8259 §7), public so that a plugin does not write it again.
///
/// `"` and `\` are escaped, the control characters U+0000 to U+001F become `\b \f \n \r \t` or `\u00XX` (lower-case
/// hex), and everything else, `/` and non-ASCII included, is kept as UTF-8: what Python's
/// `json.dumps(text, ensure_ascii=False)` writes. The work is linear in the text.
///
/// ```swift
/// var json = "{" + JSONText.quoted("summary") + ":"
/// JSONText.appendQuoted(event.summary, to: &json)
/// json += "}"
/// ```
///
/// To build a ``JSONValue`` rather than text, use ``JSONValue/array(_:)``, ``JSONValue/object(_:)`` and the
/// literal initializers.
public enum JSONText {
    /// `text` as a JSON string literal, quotes included: `"a\"b"` for `a"b`.
    public static func quoted(_ text: String) -> String {
        JSONStringEscaping.literal(text)
    }

    /// Appends `text` as a JSON string literal, quotes included, to UTF-8 `output`.
    public static func appendQuoted(_ text: String, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        JSONStringEscaping.appendEscaped(text.utf8, to: &output)
        output.append(UInt8(ascii: "\""))
    }

    /// Appends the UTF-8 bytes `utf8` as a JSON string literal, quotes included, to UTF-8 `output`: the bytes are
    /// copied as they are (one copy per run that needs no escape), so they must be valid UTF-8 for the result to be
    /// JSON text.
    public static func appendQuoted<Bytes: Collection<UInt8>>(utf8: Bytes, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        JSONStringEscaping.appendEscaped(utf8, to: &output)
        output.append(UInt8(ascii: "\""))
    }

    /// Appends `text` as a JSON string literal, quotes included, to `output`.
    public static func appendQuoted(_ text: String, to output: inout String) {
        output += JSONStringEscaping.literal(text)
    }
}
